// GUI test of Lab ▸ Positional encoding with a real model open (issue 5 §1): the tiny reference
// BERT's learned position table is offered beside the sinusoidal one and drawn row for row as the
// checkpoint stores it (read here straight from the .safetensors bytes, without engine code).
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QSpinBox>
#include <QTest>
#include <QtEndian>
#include <cmath>
#include <cstring>
#include <memory>

#include "app/lab_window.hpp"
#include "app/main_window.hpp"
#include "window_access.hpp"
#include "core/lab/positional_lab.hpp"
#include "core/pipeline/steps.hpp"
#include "ui/lab/lab_plots.hpp"
#include "ui/lab/positional_panel.hpp"

using namespace attnscope;

namespace {

const QString kSource = QStringLiteral(ATTNSCOPE_SOURCE_DIR);
const QString kBert = kSource + "/tests/reference/models/bert-tiny";
constexpr int kWaitMs = 20000;

// An F32 tensor of a .safetensors file: u64 little-endian header size, a JSON header naming dtype,
// shape and data_offsets, then the raw little-endian data.
Mat readF32Tensor(const QString& path, const QString& name) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    const QByteArray bytes = file.readAll();
    const auto headerSize = qFromLittleEndian<quint64>(bytes.constData());
    const QJsonObject entry =
        QJsonDocument::fromJson(bytes.mid(8, static_cast<qsizetype>(headerSize))).object()[name].toObject();
    if (entry["dtype"].toString() != "F32") return {};
    const int rows = entry["shape"].toArray()[0].toInt(), cols = entry["shape"].toArray()[1].toInt();
    const qsizetype begin = 8 + static_cast<qsizetype>(headerSize) + entry["data_offsets"].toArray()[0].toInteger();
    Mat m(rows, cols);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            float value = 0;
            std::memcpy(&value, bytes.constData() + begin + 4 * (static_cast<qsizetype>(r) * cols + c), 4);
            m(r, c) = value;
        }
    return m;
}

double largestDifference(const Mat& a, const Mat& b) {
    if (a.rows() != b.rows() || a.cols() != b.cols()) return INFINITY;
    return a.size() == 0 ? 0.0 : (a - b).cwiseAbs().maxCoeff();
}

}  // namespace

class LabLearnedPositionsTest : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> window;

    void openBert() {
        window->openModel(kBert);
        QTRY_VERIFY_WITH_TIMEOUT(showsModel(*window) && shownRunOf(*window) != nullptr, kWaitMs);
    }
    PositionalPanel* positional() {
        return openLab(window.get(), sessionOf(*window), LabWindow::Positional)->positionalPanel();
    }

private slots:
    void initTestCase() { initResources(); }
    void init() {
        window = std::make_unique<MainWindow>();
        QVERIFY(window->openBuiltInLesson("first-hand-exercise"));
        window->show();
    }
    void cleanup() { window.reset(); }

    void offersAndDrawsTheModelsLearnedTable();
    void aLabOpenedBeforeTheModelFollowsIt();
};

void LabLearnedPositionsTest::offersAndDrawsTheModelsLearnedTable() {
    openBert();
    PositionalPanel* p = positional();
    QCOMPARE(p->sourceBox()->count(), 2);
    QCOMPARE(p->sourceBox()->itemText(1), QString("bert-tiny: learned table (first N positions)"));
    p->sourceBox()->setCurrentIndex(1);
    // config.json: 32 positions of width 32. The panel opens on every position, the first 16 dimensions.
    const Mat table = readF32Tensor(kBert + "/model.safetensors", "bert.embeddings.position_embeddings.weight");
    QCOMPARE(table.rows(), Eigen::Index{32});
    QCOMPARE(p->positionsBox()->maximum(), 32);
    QCOMPARE(p->widthBox()->maximum(), 32);
    QCOMPARE(p->positionsBox()->value(), 32);
    QCOMPARE(p->widthBox()->value(), 16);
    QCOMPARE(largestDifference(p->encodingPlot().drawn(), table.leftCols(16)), 0.0);
    QVERIFY(p->encodingPlot().title().startsWith("bert-tiny: learned PE (32 positions × 16 of 32 dims)"));
    p->positionsBox()->setValue(20);
    p->widthBox()->setValue(5);
    QCOMPARE(largestDifference(p->encodingPlot().drawn(), table.topLeftCorner(20, 5)), 0.0);
    p->dimensionsEdit()->setText("0, 3, 7");  // 7 is not among the 5 dimensions shown: skipped
    emit p->dimensionsEdit()->editingFinished();
    QCOMPARE(p->curvesPlot().series().size(), std::size_t{2});
    QCOMPARE(p->curvesPlot().series().at(1).name, QString("i = 3"));  // PE(pos, i)'s i, as the title names it
    for (int pos = 0; pos < 20; ++pos) QCOMPARE(p->curvesPlot().series().at(1).y.at(pos), table(pos, 3));

    // The fitted R_k is core's least-squares map on exactly the drawn rows.
    p->offsetBox()->setValue(2);
    const auto fit = fitRelativePositionMap(table.topLeftCorner(20, 5), 2);
    QVERIFY(fit.ok());
    QCOMPARE(largestDifference(p->rotationPlot().drawn(), fit.value().map), 0.0);
    QVERIFY2(p->checkText().contains(QString::number(fit.value().relativeResidual, 'f', 3)), qPrintable(p->checkText()));
    QVERIFY(fit.value().relativeResidual > 0.01);  // a learned table is no exact rotation
    p->widthBox()->setValue(19);  // 18 row pairs for 19 unknowns per column: refused
    QVERIFY2(p->checkText().startsWith("No check:"), qPrintable(p->checkText()));

    // Back to the sinusoidal table: its limits and its exact rotation.
    p->sourceBox()->setCurrentIndex(0);
    QCOMPARE(p->positionsBox()->maximum(), 512);
    QCOMPARE(largestDifference(p->encodingPlot().drawn(), sinusoidalEncoding(64, 32)), 0.0);
    QVERIFY(p->checkText().startsWith("PE(pos+2) = PE(pos)·R_2"));
}

void LabLearnedPositionsTest::aLabOpenedBeforeTheModelFollowsIt() {
    PositionalPanel* p = positional();
    QCOMPARE(p->sourceBox()->count(), 1);  // a lesson: sinusoidal only
    openBert();
    QCOMPARE(p->sourceBox()->count(), 2);
    p->sourceBox()->setCurrentIndex(1);
    p->widthBox()->setValue(8);
    const ModelRun* before = shownRunOf(*window);
    window->setSentence("the sat");  // a new run of the same model keeps the reader's choices
    QTRY_VERIFY_WITH_TIMEOUT(shownRunOf(*window) && shownRunOf(*window) != before, kWaitMs);
    QCOMPARE(p->sourceBox()->currentIndex(), 1);
    QCOMPARE(p->widthBox()->value(), 8);
    QVERIFY(window->openBuiltInLesson("first-hand-exercise"));  // back to a lesson: the table goes
    QCOMPARE(p->sourceBox()->count(), 1);
    QCOMPARE(p->encodingPlot().drawn().rows(), Eigen::Index{64});
}

QTEST_MAIN(LabLearnedPositionsTest)
#include "test_lab_learned_positions.moc"
