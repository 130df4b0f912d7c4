// File ▸ Save session / Open session in the real MainWindow (offscreen, docs/session-format.md): a
// session saved from one window and opened in a fresh one shows the same state; a bad file changes
// nothing; a model whose files changed on disk is opened and named as changed; a link is refused.
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "app/file_menu.hpp"
#include "app/main_window.hpp"
#include "app/session_menu.hpp"
#include "ui/attention/attention_controls.hpp"
#include "ui/compare/compare_view.hpp"
#include "ui/step/step_navigator.hpp"
#include "window_access.hpp"

using namespace attnscope;

namespace {

const QString kSource = QStringLiteral(ATTNSCOPE_SOURCE_DIR);
constexpr int kWaitMs = 30000;

SessionMenu* sessionsOf(MainWindow& w) {
    auto* menu = w.findChild<FileMenu*>();
    if (!menu || !menu->sessions()) qFatal("the window has no session menu");
    return menu->sessions();
}

// What a reader sees, in the units the window labels (layer, head and step from 1).
struct Seen {
    QString sentence, ablate, sentenceB;
    int layer = 0, head = 0, step = 0, tab = 0;
    bool shading = true;
    bool operator==(const Seen&) const = default;
};

Seen seen(MainWindow& w) {
    return {child<QLineEdit>(w, "sentence")->text(),
            child<QLineEdit>(w, "ablateEdit")->text(),
            child<CompareView>(w, "compareView")->sentenceBox()->text(),
            child<AttentionControls>(w, "modelControls")->layer() + 1,
            child<StepNavigator>(w, "navigator")->currentHead() + 1,
            child<StepNavigator>(w, "navigator")->currentIndex() + 1,
            child<QTabWidget>(w, "tabs")->currentIndex(),
            child<QAction>(w, "shading")->isChecked()};
}

bool saveAndWait(MainWindow& w, const QString& path) {
    QSignalSpy wrote(sessionsOf(w), &ReportingPart::wrote);
    QSignalSpy failed(sessionsOf(w), &ReportingPart::failed);
    sessionsOf(w)->save(path);
    return QTest::qWaitFor([&] { return !wrote.isEmpty() || !failed.isEmpty(); }, kWaitMs) && !wrote.isEmpty();
}

QByteArray sha256Of(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex();
}

// A copy of the tiny reference BERT, so its files can be changed.
QString copyOfBertTiny(const QTemporaryDir& dir) {
    const QString from = kSource + "/tests/reference/models/bert-tiny", to = dir.filePath("bert-tiny");
    QDir().mkpath(to);
    for (const QString& name : QDir(from).entryList(QDir::Files)) QFile::copy(from + "/" + name, to + "/" + name);
    return to;
}

}  // namespace

class SessionTest : public QObject {
    Q_OBJECT
private slots:
    void aSavedSessionReopensTheSameState() {
        QTemporaryDir dir;
        MainWindow window;
        window.show();
        QVERIFY(window.openBuiltInLesson("two-layers"));
        window.setSentence("The animal didn't cross the street because it was too wide");
        typeAblation(window, "2:1");  // the lesson has one head a layer
        child<AttentionControls>(window, "modelControls")->setLayer(1);  // layer 2
        child<StepNavigator>(window, "navigator")->setCurrentIndex(3);
        child<QTabWidget>(window, "tabs")->setCurrentIndex(1);
        child<QAction>(window, "shading")->setChecked(false);
        child<QCheckBox>(window, "weighting")->setChecked(true);  // shaded by weight × ‖value‖
        child<QSpinBox>(window, "evaluationSeed")->setValue(20260);  // the Heads tab's control seed
        child<QCheckBox>(window, "randomWeightsControl")->setChecked(true);
        child<CompareView>(window, "compareView")->sentenceBox()->setText("The animal didn't cross the street because it was too tired");
        emit child<CompareView>(window, "compareView")->sentenceEntered(child<CompareView>(window, "compareView")->sentenceBox()->text());
        const Seen before = seen(window);
        QCOMPARE(before.ablate, QStringLiteral("2:1"));
        QCOMPARE(before.layer, 2);

        const QString path = dir.filePath("figure.json");
        QVERIFY(saveAndWait(window, path));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray written = file.readAll();
        const QJsonObject doc = QJsonDocument::fromJson(written).object();
        QCOMPARE(doc["format"].toString(), QStringLiteral("attnscope-session"));
        QVERIFY2(doc["ablated"].toArray().size() == 1, written.constData());
        QCOMPARE(doc["layer"].toInt(), 2);  // counted from 1, as the window labels it
        QCOMPARE(doc["ablated"].toArray()[0].toArray()[0].toInt(), 2);
        QVERIFY(doc["view"].toObject()["norms"].toBool());
        QCOMPARE(doc["evaluation"].toObject()["seed"].toInt(), 20260);
        QVERIFY(doc["evaluation"].toObject()["control"].toBool());

        MainWindow fresh;
        fresh.show();
        QVERIFY(sessionsOf(fresh)->open(path));
        QVERIFY(QTest::qWaitFor([&] { return seen(fresh) == before; }, kWaitMs));
        QCOMPARE(seen(fresh).sentence, before.sentence);
        QCOMPARE(seen(fresh).step, before.step);
        QCOMPARE(seen(fresh).tab, 1);
        QVERIFY(!seen(fresh).shading);
        QVERIFY(child<QCheckBox>(fresh, "weighting")->isChecked());
        QCOMPARE(child<QSpinBox>(fresh, "evaluationSeed")->value(), 20260);
        QVERIFY(child<QCheckBox>(fresh, "randomWeightsControl")->isChecked());
        QCOMPARE(sessionOf(fresh).ablation(), (std::vector<HeadRef>{{1, 0}}));  // the run itself has head 2:1 off
        QVERIFY(fresh.lastError().isEmpty());
    }

    // The translation lesson on its cross stage with the one cross head off: reopened on that
    // stage, the head off is the cross stage's and the encoder keeps all of its heads.
    void aSessionReopensTheStageAndItsHeads() {
        QTemporaryDir dir;
        MainWindow window;
        window.show();
        QVERIFY(window.openBuiltInLesson("translation"));
        child<QComboBox>(window, "stageChoice")->setCurrentIndex(2);  // 3. cross-attention
        typeAblation(window, "1:1");
        QCOMPARE(sessionOf(window).stageView().decoderOff.cross, (std::vector<HeadRef>{{0, 0}}));
        const QString path = dir.filePath("cross.json");
        QVERIFY(saveAndWait(window, path));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(doc["stage"].toString(), QStringLiteral("cross"));

        MainWindow fresh;
        fresh.show();
        QVERIFY(sessionsOf(fresh)->open(path));
        QVERIFY(QTest::qWaitFor([&] { return !sessionOf(fresh).stageView().decoderOff.cross.empty(); }, kWaitMs));
        QCOMPARE(child<QComboBox>(fresh, "stageChoice")->currentIndex(), 2);
        const StageView view = sessionOf(fresh).stageView();
        QCOMPARE(view.stage, EncoderDecoderStage::Cross);
        QCOMPARE(view.decoderOff.cross, (std::vector<HeadRef>{{0, 0}}));
        QVERIFY(view.encoderOff.empty());
        QCOMPARE(sessionOf(fresh).trace().keyCount(), 3);  // 我 是 谁: the cross stage's keys
        QCOMPARE(child<QLineEdit>(fresh, "ablateEdit")->text(), QStringLiteral("1:1"));
        QVERIFY2(fresh.lastError().isEmpty(), qPrintable(fresh.lastError()));
    }

    void aStageTheLessonLacksIsSaid() {
        QTemporaryDir dir;
        const QString path = dir.filePath("staged.json");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format": "attnscope-session", "version": 1, "source": {"kind": "lesson", "path": ":/lessons/two-layers.json"},
                      "sentence": "cats chase mice", "layer": 2, "head": 1, "step": 1, "tab": 1, "stage": "cross"})");
        file.close();
        MainWindow window;
        window.show();
        QVERIFY(sessionsOf(window)->open(path));
        QVERIFY(QTest::qWaitFor([&] { return child<AttentionControls>(window, "modelControls")->layer() == 1; }, kWaitMs));
        const QString said = child<QLabel>(window, "error")->text();
        QVERIFY2(said.contains(QStringLiteral("“cross”, but this lesson has no stages")), qPrintable(said));
        QCOMPARE(child<QLineEdit>(window, "sentence")->text(), QStringLiteral("cats chase mice"));
    }

    void aBadSessionChangesNothing() {
        QTemporaryDir dir;
        MainWindow window;
        QVERIFY(window.openBuiltInLesson("two-layers"));
        const Seen before = seen(window);
        const QString path = dir.filePath("bad.json");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format": "attnscope-session", "version": 1, "source": {"kind": "lesson", "path": ":/lessons/coreference.json"},
                      "sentence": "x", "layer": "two", "head": 1, "step": 1, "tab": 1})");
        file.close();
        QVERIFY(!sessionsOf(window)->open(path));
        QVERIFY2(window.lastError().contains("bad.json: layer: expected") && window.lastError().contains("two"), qPrintable(window.lastError()));
        QCOMPARE(seen(window), before);
    }

    void aModelChangedOnDiskIsNamed() {
        QTemporaryDir dir;
        const QString model = copyOfBertTiny(dir);
        MainWindow window;
        window.show();
        window.openModel(model);
        QVERIFY(waitForModel(window, kWaitMs));
        window.setSentence("the cat sat on the mat");
        QVERIFY(waitForModel(window, kWaitMs));
        child<AttentionControls>(window, "modelControls")->setLayer(1);  // layer 2 of 2, head 3 of 4
        child<StepNavigator>(window, "navigator")->setCurrentHead(2);
        QVERIFY(waitForModel(window, kWaitMs));
        QCOMPARE(seen(window).head, 3);
        const QString path = dir.filePath("model.json");
        QVERIFY(saveAndWait(window, path));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonArray files = QJsonDocument::fromJson(file.readAll()).object()["source"].toObject()["files"].toArray();
        QVERIFY(files.size() >= 3);  // config, weights, vocabulary
        for (const QJsonValue& f : files)  // each digest checked against a hash computed here
            QCOMPARE(f.toObject()["sha256"].toString().toLatin1(), sha256Of(model + "/" + f.toObject()["name"].toString()));

        QFile config(model + "/config.json");  // the same model, the file changed (a trailing newline)
        QVERIFY(config.open(QIODevice::Append));
        config.write("\n");
        config.close();
        MainWindow fresh;
        fresh.show();
        QSignalSpy changed(sessionsOf(fresh), &SessionMenu::sourceChanged);
        QVERIFY(sessionsOf(fresh)->open(path));
        QVERIFY(QTest::qWaitFor([&] { return !changed.isEmpty(); }, kWaitMs));
        QVERIFY2(changed.first().first().toString().contains("config.json"), qPrintable(changed.first().first().toString()));
        QVERIFY(!changed.first().first().toString().contains("model.safetensors"));
        QVERIFY(waitForModel(fresh, kWaitMs));
        QVERIFY(showsModel(fresh));  // opened all the same
        QVERIFY(QTest::qWaitFor([&] { return seen(fresh).sentence == "the cat sat on the mat"; }, kWaitMs));
        QVERIFY(QTest::qWaitFor([&] { return seen(fresh).layer == 2 && seen(fresh).head == 3; }, kWaitMs));
    }

    void aSessionIsNeverWrittenThroughALink() {
        QTemporaryDir dir;
        const QString target = dir.filePath("elsewhere.txt"), link = dir.filePath("session.json");
        QFile t(target);
        QVERIFY(t.open(QIODevice::WriteOnly));
        t.write("keep");
        t.close();
        QVERIFY(QFile::link(target, link));
        MainWindow window;
        QVERIFY(window.openBuiltInLesson("two-layers"));
        QVERIFY(!saveAndWait(window, link));
        QVERIFY(t.open(QIODevice::ReadOnly));
        QCOMPARE(t.readAll(), QByteArray("keep"));
    }
};

QTEST_MAIN(SessionTest)
#include "test_session.moc"
