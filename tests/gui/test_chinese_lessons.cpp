// The window in the user's language (QLocale()) for lesson texts, and Chinese drawn upright in a
// font with CJK glyphs: checked through what the views expose (labels, rotation, fonts), not pixels.
#include <QApplication>
#include <QFontDatabase>
#include <QFontInfo>
#include <QFile>
#include <QInputMethodEvent>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

#include <qcustomplot.h>

#include "app/lesson_source.hpp"
#include "app/main_window.hpp"
#include "core/io/text_file.hpp"
#include "ui/attention/heatmap_view.hpp"
#include "ui/step/matrix_panel.hpp"
#include "ui/step/step_navigator.hpp"
#include "ui/step/token_strip.hpp"
#include "window_access.hpp"

using namespace attnscope;

namespace {

QStringList menuTitles(QMenu& menu) {
    emit menu.aboutToShow();  // what opening the menu does
    QStringList titles;
    for (const QAction* a : menu.actions()) titles << a->text();
    return titles;
}

void typeSentence(MainWindow& w, const QString& text) {
    QLineEdit* edit = child<QLineEdit>(w, "sentence");
    edit->clear();
    edit->setFocus();
    QInputMethodEvent event;  // QTest::keyClicks cannot type Chinese
    event.setCommitString(text);
    QApplication::sendEvent(edit, &event);
}

const QLabel* chipWithText(const TokenStrip& strip, const QString& text) {
    for (const QLabel* chip : strip.findChildren<QLabel*>())
        if (chip->text() == text) return chip;
    return nullptr;
}

const QCPAxis& heatmapKeyAxis(const MainWindow& w) {
    return *child<HeatmapView>(w, "heatmap")->builders().at(0)->plot()->xAxis;
}

}  // namespace

class ChineseLessonsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { initResources(); }
    void init() {
        QLocale::setDefault(QLocale("zh_CN"));
        window = std::make_unique<MainWindow>();
        QVERIFY(window->openBuiltInLesson("coreference-zh"));
        window->show();
    }
    void cleanup() {
        window.reset();
        QLocale::setDefault(QLocale::c());
    }

    void lessonTextsFollowTheDefaultLocale();
    void featureNamesOnAxesFollowTheLocale();
    void savingKeepsBothLanguages();
    void chineseAxisLabelsStayUpright();
    void chineseChipsAreNeverSlanted();
    void theChineseInterfaceOpensOnAChineseLesson();

private:
    std::unique_ptr<MainWindow> window;
    QTemporaryDir tmp;
};

// The window opens on firstLessonFor(the interface language) (app/run_window.cpp): in Chinese the
// first hand exercise in Chinese (猫追老鼠), every character in its table, not the English one
// whose table has none of them.
void ChineseLessonsTest::theChineseInterfaceOpensOnAChineseLesson() {
    QCOMPARE(firstLessonFor(QStringLiteral("en")), QStringLiteral("first-hand-exercise"));
    QVERIFY(window->openBuiltInLesson(firstLessonFor(QStringLiteral("zh_CN"))));
    QCOMPARE(child<QLabel>(*window, "lessonTitle")->text(), QStringLiteral("6. 第一个手算练习：猫追老鼠（Q = K = V = X）"));
    const Trace& trace = sessionOf(*window).trace();
    QVERIFY(trace.tokenCount() >= 3);
    for (const Token& t : trace.tokens) QVERIFY2(t.inTable, t.text.c_str());
    QVERIFY(!child<QLabel>(*window, "notices")->isVisible());  // nothing made up
}

void ChineseLessonsTest::lessonTextsFollowTheDefaultLocale() {
    QCOMPARE(child<QLabel>(*window, "lessonTitle")->text(), QStringLiteral("7. 「它」指的是谁？两层注意力的共指消解"));
    QVERIFY(child<QLabel>(*window, "description")->text().startsWith(QStringLiteral("动物没有过马路，因为它太累了，共 14 个汉字词元")));
    QMenu* menu = child<QMenu>(*window, "lessonsMenu");
    QStringList titles = menuTitles(*menu);
    QVERIFY(titles.contains(QStringLiteral("6. 第一个手算练习：猫追老鼠（Q = K = V = X）")));
    QVERIFY(titles.contains(QStringLiteral("8. 因果掩码：不许偷看后面的字")));
    QVERIFY(titles.contains(QStringLiteral("1. 第一个手算练习：Q = K = V = X")));
    QCOMPARE(titles.size(), builtInLessonNames().size());
    // Lesson 1 in Chinese; the same lesson with an English-only description falls back to English.
    QVERIFY(window->openBuiltInLesson("first-hand-exercise"));
    QVERIFY(child<QLabel>(*window, "description")->text().startsWith(QStringLiteral("三个词元，五个手选的整数特征")));
    QCOMPARE(child<QLabel>(*window, "lessonTitle")->text(), QStringLiteral("1. 第一个手算练习：Q = K = V = X"));
    QFile builtIn(":/lessons/first-hand-exercise.json");
    QVERIFY(builtIn.open(QIODevice::ReadOnly));
    QJsonObject lesson = QJsonDocument::fromJson(builtIn.readAll()).object();
    lesson["description"] = lesson["description"].toObject()["en"];
    QFile englishOnly(tmp.filePath("english-description.json"));
    QVERIFY(englishOnly.open(QIODevice::WriteOnly) && englishOnly.write(QJsonDocument(lesson).toJson()) > 0);
    englishOnly.close();
    QVERIFY(window->openLessonFile(englishOnly.fileName()));
    QVERIFY(child<QLabel>(*window, "description")->text().startsWith("Three tokens, five hand-picked"));
    QVERIFY(window->openBuiltInLesson("first-hand-exercise"));

    // The language is read when shown: switching it (as View ▸ Language does) changes the menu.
    QLocale::setDefault(QLocale("en_US"));
    titles = menuTitles(*menu);
    QVERIFY(titles.contains(QStringLiteral("7. What does 它 refer to? Coreference in Chinese, two layers")));
    QVERIFY(!titles.contains(QStringLiteral("8. 因果掩码：不许偷看后面的字")));
    QVERIFY(window->openBuiltInLesson("causal-mask-zh"));
    QCOMPARE(child<QLabel>(*window, "lessonTitle")->text(),
             QStringLiteral("8. The causal mask in Chinese: no peeking at later characters"));
}

void ChineseLessonsTest::featureNamesOnAxesFollowTheLocale() {
    child<StepNavigator>(*window, "navigator")->list()->setCurrentRow(0);
    const TraceMatrixModel* model = child<MatrixPanel>(*window, "matrixPanel")->resultModel();
    QCOMPARE(model->step(), Step::Embedding);
    QCOMPARE(model->headerData(0, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("名词"));
    QCOMPARE(model->headerData(3, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("代词"));
    QCOMPARE(model->headerData(10, Qt::Vertical, Qt::DisplayRole).toString(), QStringLiteral("它"));

    QLocale::setDefault(QLocale("en_GB"));
    QVERIFY(window->openBuiltInLesson("coreference-zh"));
    child<StepNavigator>(*window, "navigator")->list()->setCurrentRow(0);
    model = child<MatrixPanel>(*window, "matrixPanel")->resultModel();
    QCOMPARE(model->headerData(3, Qt::Horizontal, Qt::DisplayRole).toString(), QString("pronoun"));
}

void ChineseLessonsTest::savingKeepsBothLanguages() {
    const QString path = tmp.filePath("saved-zh.json");
    QVERIFY(window->saveLessonTo(path));
    const auto text = readTextFile(path.toStdString());
    QVERIFY(text.ok());
    const auto saved = parseLesson(text.value(), "saved-zh.json");
    QVERIFY2(saved.ok(), saved.ok() ? "" : saved.error().text().c_str());
    const Lesson& original = sessionOf(*window).lesson();
    QVERIFY(saved.value().title == original.title);
    QVERIFY(saved.value().description == original.description);
    QVERIFY(saved.value().featureNames == original.featureNames);
    QCOMPARE(QString::fromStdString(saved.value().title.in("en")),
             QStringLiteral("7. What does 它 refer to? Coreference in Chinese, two layers"));
    QCOMPARE(QString::fromStdString(saved.value().featureNames[1].in("zh_CN")), QStringLiteral("有生"));
}

void ChineseLessonsTest::chineseAxisLabelsStayUpright() {
    // 14 Chinese tokens: upright, although more than 6 labels would be rotated if they were Latin.
    const QCPAxis& axis = heatmapKeyAxis(*window);
    QCOMPARE(axis.tickLabelRotation(), 0.0);
    QVERIFY(axis.tickLabelFont().families().contains("WenQuanYi Micro Hei"));
    QVERIFY(QFontDatabase::families().contains("WenQuanYi Micro Hei"));
    QVERIFY(QFontMetrics(QFont("WenQuanYi Micro Hei")).inFontUcs4(U'它'));
    QVERIFY(!axis.tickLabelFont().italic());

    QVERIFY(window->openBuiltInLesson("coreference"));  // 11 English tokens: rotated to fit
    QCOMPARE(heatmapKeyAxis(*window).tickLabelRotation(), -45.0);
}

void ChineseLessonsTest::chineseChipsAreNeverSlanted() {
    QVERIFY(window->openBuiltInLesson("first-hand-exercise-zh"));
    typeSentence(*window, QStringLiteral("猫追小鸟 birds"));  // 小 and "birds" are not in the table
    const TokenStrip& strip = *child<TokenStrip>(*window, "tokens");
    QTRY_COMPARE(strip.chipTexts(), (QStringList{"猫", "追", "小", "鸟", "birds"}));
    QCOMPARE(strip.chipsInTable(), (std::vector<bool>{true, true, false, true, false}));
    QLabel* small = const_cast<QLabel*>(chipWithText(strip, QStringLiteral("小")));
    QLabel* birds = const_cast<QLabel*>(chipWithText(strip, "birds"));
    QVERIFY(small && birds);
    small->ensurePolished();
    birds->ensurePolished();
    QVERIFY(!small->styleSheet().contains("italic"));
    QVERIFY(!QFontInfo(small->font()).italic());
    QVERIFY(small->font().families().contains("WenQuanYi Micro Hei"));
    QVERIFY(birds->styleSheet().contains("italic"));  // Latin has a real oblique face
    // A chip reused for a Chinese token after a Latin one loses the slant.
    typeSentence(*window, QStringLiteral("birds 小"));
    QTRY_COMPARE(strip.chipTexts(), (QStringList{"birds", "小"}));
    typeSentence(*window, QStringLiteral("小 birds"));
    QTRY_COMPARE(strip.chipTexts(), (QStringList{"小", "birds"}));
    QVERIFY(!chipWithText(strip, QStringLiteral("小"))->styleSheet().contains("italic"));
    QVERIFY(chipWithText(strip, "birds")->styleSheet().contains("italic"));
}

QTEST_MAIN(ChineseLessonsTest)
#include "test_chinese_lessons.moc"
