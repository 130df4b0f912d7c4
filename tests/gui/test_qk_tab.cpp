// The Queries & keys tab of the real MainWindow on the offscreen platform: what it drew is compared
// with the independent numpy reference (tests/reference/fixtures/qk_*.json, up to the sign of each
// component) and with the trace's attention weights; a click on a query draws its lines.
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTabWidget>
#include <QTest>
#include <cmath>
#include <memory>
#include <qcustomplot.h>

#include "app/main_window.hpp"
#include "app/tabs/qk_tab_controller.hpp"
#include "ui/qk/qk_view.hpp"
#include "ui/step/step_navigator.hpp"
#include "window_access.hpp"

using namespace attnscope;

namespace {

const QString kSource = QStringLiteral(ATTNSCOPE_SOURCE_DIR);
constexpr int kWaitMs = 20000;

QJsonObject fixtureCase(const QString& file, int index) {
    QFile f(kSource + "/tests/reference/fixtures/" + file);
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read the fixture %s", qPrintable(file));
    return QJsonDocument::fromJson(f.readAll()).object()["cases"].toArray()[index].toObject();
}

// Largest coordinate difference from the reference, each component's sign chosen to fit.
double largestDifference(const QkSpace& space, const QJsonObject& reference) {
    const QJsonArray points = reference["points"].toArray();
    if (points.size() != static_cast<qsizetype>(space.points.size())) return INFINITY;
    double dotX = 0, dotY = 0, largest = 0;
    for (qsizetype p = 0; p < points.size(); ++p) {
        dotX += space.points[static_cast<std::size_t>(p)].x * points[p].toObject()["x"].toDouble();
        dotY += space.points[static_cast<std::size_t>(p)].y * points[p].toObject()["y"].toDouble();
    }
    for (qsizetype p = 0; p < points.size(); ++p) {
        const QkPoint& got = space.points[static_cast<std::size_t>(p)];
        if (QString::fromStdString(got.text) != points[p].toObject()["text"].toString()) return INFINITY;
        largest = std::max(largest, std::abs((dotX < 0 ? -got.x : got.x) - points[p].toObject()["x"].toDouble()));
        largest = std::max(largest, std::abs((dotY < 0 ? -got.y : got.y) - points[p].toObject()["y"].toDouble()));
    }
    return largest;
}

}  // namespace

class QkTabTest : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> window;

    QkView& view() const { return *child<QkView>(*window, "qkView"); }
    void showTab() const { child<QTabWidget>(*window, "tabs")->setCurrentWidget(&view()); }

    // Clicks the point like a user: at its pixel on the plot.
    void clickPoint(int point) const {
        QCustomPlot* plot = view().plot();
        plot->replot();
        const QkPoint& p = view().space()->points[static_cast<std::size_t>(point)];
        const QPoint at(qRound(plot->xAxis->coordToPixel(p.x)), qRound(plot->yAxis->coordToPixel(p.y)));
        QCOMPARE(view().pointAt(at), point);
        QTest::mouseClick(plot, Qt::LeftButton, {}, at);
    }

private slots:
    void initTestCase() { initResources(); }
    void init() {
        window = std::make_unique<MainWindow>();
        window->resize(1400, 900);
        QVERIFY(window->openBuiltInLesson("two-heads"));
        window->show();
        showTab();
    }
    void cleanup() { window.reset(); }

    void lessonShowsEveryQueryAndKeyAsTheReference() {
        QVERIFY(view().space().has_value());
        QCOMPARE(view().space()->queryCount(), 3);
        QCOMPARE(view().space()->keyCount(), 3);
        QCOMPARE(view().drawnPointCount(), 6);
        const double difference = largestDifference(*view().space(), fixtureCase("qk_two-heads.json", 0));
        QVERIFY2(difference < 1e-9, qPrintable(QString("largest difference %1").arg(difference)));
        QVERIFY(view().caption().startsWith("Layer 1, head 1: 3 queries ● and 3 keys ▲. PC1 explains 93.4 %, PC2 6.6 %"));
        QVERIFY(view().caption().contains("changes no softmax"));
        QVERIFY(view().drawnLines().empty());
    }

    void clickingAQueryDrawsItsAttentionToEveryKey() {
        clickPoint(2);  // the query of "mice"
        const Mat weights = sessionOf(*window).trace().layers[0].heads[0].weights.toMat();
        QCOMPARE(view().drawnLines().size(), std::size_t{3});
        for (const DrawnQkLine& line : view().drawnLines()) {
            QCOMPARE(line.query, 2);
            const QkPoint& key = view().space()->points[static_cast<std::size_t>(line.key)];
            QCOMPARE(key.kind, QkKind::Key);
            QCOMPARE(line.weight, weights(2, key.token));
        }
        clickPoint(4);  // a key: nothing selected, no lines
        QVERIFY(view().drawnLines().empty());
    }

    void switchingTheHeadRedraws() {
        clickPoint(0);
        child<StepNavigator>(*window, "navigator")->setCurrentHead(1);
        QVERIFY(view().caption().startsWith("Layer 1, head 2:"));
        const double difference = largestDifference(*view().space(), fixtureCase("qk_two-heads.json", 1));
        QVERIFY2(difference < 1e-9, qPrintable(QString("largest difference %1").arg(difference)));
        // The selected query stays selected, its lines now those of head 2.
        const Mat weights = sessionOf(*window).trace().layers[0].heads[1].weights.toMat();
        QCOMPARE(view().drawnLines().size(), std::size_t{3});
        for (const DrawnQkLine& line : view().drawnLines())
            QCOMPARE(line.weight, weights(0, view().space()->points[static_cast<std::size_t>(line.key)].token));
    }

    void colourByTokenKindKeepsThePoints() {
        child<QComboBox>(*window, "qkColourBy")->setCurrentIndex(1);
        QCOMPARE(view().drawnPointCount(), 6);
        QCOMPARE(view().plot()->graphCount(), 2);  // every token a word: one colour, two shapes
    }

    void tsneRunsOffTheGuiThreadAndPcaComesBack() {
        QVERIFY(window->openBuiltInLesson("coreference"));
        auto* controller = child<QkTabController>(*window, "qkController");
        child<QComboBox>(*window, "qkLayout")->setCurrentIndex(1);
        QTRY_VERIFY_WITH_TIMEOUT(!controller->busy(), kWaitMs);
        QCOMPARE(view().space()->layout, QkLayout::Tsne);
        QVERIFY(view().caption().contains("t-SNE (perplexity 7, seed 1"));  // (22 − 1) / 3
        QCOMPARE(view().drawnPointCount(), 22);
        QCOMPARE(view().plot()->xAxis->label(), QString("t-SNE 1"));
        clickPoint(7);  // the query of "it"
        QCOMPARE(view().drawnLines().size(), std::size_t{11});
        child<QComboBox>(*window, "qkLayout")->setCurrentIndex(0);
        QCOMPARE(view().space()->layout, QkLayout::Pca);
        QVERIFY(view().caption().contains("PC1 explains 96.8 %"));
    }

    void modelLayerTwoMatchesTheReference() {
        MainWindow& w = *window;
        w.setSentence("the dog sat on the mat");
        w.openModel(kSource + "/tests/reference/models/bert-tiny");
        QTRY_VERIFY_WITH_TIMEOUT(showsModel(w) && shownRunOf(w) != nullptr, kWaitMs);
        QVERIFY(waitForModel(w, kWaitMs));
        child<QComboBox>(w, "layer")->setCurrentIndex(1);
        child<StepNavigator>(w, "navigator")->setCurrentHead(1);
        QVERIFY(waitForModel(w, kWaitMs));
        showTab();
        QTRY_VERIFY_WITH_TIMEOUT(view().caption().startsWith("Layer 2, head 2: 8 queries"), kWaitMs);
        const double difference = largestDifference(*view().space(), fixtureCase("qk_bert-tiny.json", 1));
        QVERIFY2(difference < 1e-4, qPrintable(QString("largest difference %1").arg(difference)));
        QCOMPARE(view().drawnPointCount(), 16);
        clickPoint(0);  // [CLS]
        QCOMPARE(view().drawnLines().size(), std::size_t{8});
    }
};

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QkTabTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_qk_tab.moc"
