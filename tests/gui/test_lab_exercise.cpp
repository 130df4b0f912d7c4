// GUI tests of Lab ▸ Exercises on the built-in lesson 1 ("cats chase mice"): typed answers are
// checked with the tolerance of the decimals, the score follows, the explanation is revealed line
// by line, and the worksheet files (Markdown, LaTeX, PDF; English and Chinese) parse back.
//
// Golden values, by hand. Lesson 1 has no projections and no scaling, so Q = K = V = X with
//   cats = (1, 0, 1, 0, 0), chase = (0, 0, 1, 0, 1), mice = (1, 1, 0, 1, 0).
// Scores = X·Xᵀ:  cats (2, 1, 1), chase (1, 2, 0), mice (1, 0, 3).
// Weights, row cats = softmax(2, 1, 1) = (e², e, e) / (e² + 2e) = (e, 1, 1) / (e + 2)
//   = (0.576117, 0.211942, 0.211942) → 0.5761, 0.2119, 0.2119 with the lesson's 4 decimals;
// row chase = softmax(1, 2, 0) = (e, e², 1) / (1 + e + e²) → 0.2447, 0.6652, 0.0900.
// The explanation of Weights[cats, chase] subtracts the row maximum 2: exp(0) = 1 for cats,
// exp(−1) = 0.3679 for chase and mice, their sum 1 + 2/e = 1.7358, and 0.3679 / 1.7358 = 0.2119.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QMenuBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <memory>
#include <optional>

#include "app/lab_window.hpp"
#include "app/language.hpp"
#include "app/main_window.hpp"
#include "window_access.hpp"
#include "ui/common/file_write.hpp"
#include "ui/lab/exercise_model.hpp"
#include "ui/lab/exercise_panel.hpp"
#include "ui/lab/exercise_parts.hpp"
#include "ui/lab/worksheet_export.hpp"

using namespace attnscope;

namespace {

const double e = std::exp(1.0);
const double kCatsWeights[3] = {e / (e + 2), 1 / (e + 2), 1 / (e + 2)};
const double kChaseWeights[3] = {e / (1 + e + e * e), e * e / (1 + e + e * e), 1 / (1 + e + e * e)};

QString fixed(double value, int decimals = 4) { return QString::number(value, 'f', decimals); }

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The cells of the last Markdown table row labelled `row` ("| **cats** | a | b | c |"): the
// step's own table comes after the tables it is computed from.
QStringList markdownRow(const QString& text, const QString& row) {
    QStringList cells;
    for (const QString& line : text.split('\n')) {
        if (!line.startsWith("| **" + row + "** |")) continue;
        cells = line.split('|');
        cells = cells.mid(2, cells.size() - 3);  // drop the empty ends and the label
        for (QString& c : cells) c = c.trimmed();
    }
    return cells;
}

// The cells of the last LaTeX tabular row labelled `row` ("\textbf{cats} & a & b \\").
QStringList latexRow(const QString& text, const QString& row) {
    QStringList cells;
    for (QString line : text.split('\n')) {
        if (!line.startsWith("\\textbf{" + row + "}")) continue;
        line.chop(line.endsWith(" \\\\") ? 3 : 0);
        cells = line.split(" & ").mid(1);
    }
    return cells;
}

// Pages of a PDF: page objects ("/Type /Page", not "/Type /Pages"), and the /Count of the page tree.
int pdfPageObjects(const QByteArray& pdf) {
    int pages = 0;
    for (qsizetype at = pdf.indexOf("/Type /Page"); at >= 0; at = pdf.indexOf("/Type /Page", at + 1))
        pages += pdf.mid(at + 11, 1) == "s" ? 0 : 1;
    return pages;
}

int pdfPagesCount(const QByteArray& pdf) {
    const qsizetype tree = pdf.indexOf("/Type /Pages");
    const qsizetype count = tree < 0 ? -1 : pdf.indexOf("/Count", tree);
    if (count < 0) return -1;
    qsizetype at = count + 6;
    while (at < pdf.size() && pdf.at(at) == ' ') ++at;
    qsizetype end = at;
    while (end < pdf.size() && std::isdigit(static_cast<unsigned char>(pdf.at(end)))) ++end;
    return pdf.mid(at, end - at).toInt();
}

}  // namespace

class LabExerciseTest : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> window;
    QTemporaryDir tmp;

    ExercisePanel* openPanel() { return openLab(window.get(), sessionOf(*window), LabWindow::Exercises)->exercisePanel(); }

    // Types into a blank through the table's own editor, as a student does, and presses Enter.
    void typeInto(ExercisePanel* p, int blank, const QString& text) {
        const QModelIndex at = p->model()->indexOfBlank(blank);
        QVERIFY(at.isValid());
        QVERIFY(p->model()->flags(at) & Qt::ItemIsEditable);
        p->table()->setCurrentIndex(at);
        p->table()->edit(at);
        auto* editor = p->table()->viewport()->findChild<QLineEdit*>();
        QVERIFY(editor);
        editor->selectAll();
        QTest::keyClicks(editor, text);
        QTest::keyClick(editor, Qt::Key_Return);
        QApplication::processEvents();  // the delegate commits and closes the editor in a queued call
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);  // the closed editor goes
        QVERIFY(!p->table()->viewport()->findChild<QLineEdit*>());
    }

private slots:
    void initTestCase() { initResources(); }
    void init();
    void cleanup() { window.reset(); }

    void menuOpensTheExercisesTab();
    void hiddenRowShowsTheOtherCells();
    void rightWrongAndNotANumber();
    void revealShowsTheExplanationInOrder();
    void wholeStepAndRandomCells();
    void maskedCellsAreShownNeverAsked();
    void laterLayersOfferTheirOwnSteps();
    void stepsAreNamedInTheInterfaceLanguage();
    void refreshKeepsAnswersNewSentenceRebuilds();
    void markdownAndLatexWorksheetsParseBack();
    void pdfWorksheetsHaveTwoPagesInBothLanguages();
};

void LabExerciseTest::init() {
    window = std::make_unique<MainWindow>();
    QVERIFY(window->openBuiltInLesson("first-hand-exercise"));
    window->show();
}

void LabExerciseTest::menuOpensTheExercisesTab() {
    QAction* exercises = nullptr;
    for (QAction* menu : window->menuBar()->actions())
        if (menu->text() == "L&ab" && menu->menu())
            for (QAction* a : menu->menu()->actions()) exercises = a->text() == "&Exercises" ? a : exercises;
    QVERIFY(exercises);
    exercises->trigger();
    auto* lab = window->findChild<LabWindow*>();
    QVERIFY(lab && lab->isVisible());
    QVERIFY(lab->tabs()->currentWidget()->isAncestorOf(lab->exercisePanel()));  // in its page's scroll area
    QCOMPARE(lab->tabs()->tabText(lab->tabs()->currentIndex()), QString("Exercises"));
    QCOMPARE(lab->tabs()->count() - 1, static_cast<int>(LabWindow::Exercises));  // the last page
}

void LabExerciseTest::hiddenRowShowsTheOtherCells() {
    ExercisePanel* p = openPanel();
    // The defaults: the weights, row 1 hidden, the lesson's 4 decimals.
    QCOMPARE(p->settings()->stepBox()->currentData().toInt(), static_cast<int>(Step::Weights));
    QCOMPARE(p->settings()->decimalsBox()->value(), 4);
    ExerciseTableModel* m = p->model();
    QCOMPARE(m->rowCount(), 3);
    QCOMPARE(m->columnCount(), 3);
    QCOMPARE(m->headerData(0, Qt::Vertical, Qt::DisplayRole).toString(), QString("cats"));
    QCOMPARE(m->headerData(2, Qt::Horizontal, Qt::DisplayRole).toString(), QString("mice"));
    for (int c = 0; c < 3; ++c) {
        QCOMPARE(m->blankAt(0, c), c);
        QCOMPARE(m->data(m->index(0, c), Qt::DisplayRole).toString(), QString());  // blank
        QCOMPARE(m->data(m->index(1, c), Qt::DisplayRole).toString(), fixed(kChaseWeights[c]));
        QVERIFY(!(m->flags(m->index(1, c)) & Qt::ItemIsEditable));
    }
    QCOMPARE(p->scoreText(), QString("Score: 0 / 0 (total 3)"));
}

void LabExerciseTest::rightWrongAndNotANumber() {
    ExercisePanel* p = openPanel();
    ExerciseTableModel* m = p->model();
    typeInto(p, 0, fixed(kCatsWeights[0]));  // "0.5761", rounded by hand: right
    QCOMPARE(m->verdictOf(0), std::optional(Verdict::Correct));
    QCOMPARE(m->data(m->indexOfBlank(0), Qt::DisplayRole).toString(), QString("0.5761 ✓"));
    QCOMPARE(p->scoreText(), QString("Score: 1 / 1 (total 3)"));

    typeInto(p, 1, fixed(kCatsWeights[1] + 1e-4));  // "0.2120": one unit off in the last decimal
    QCOMPARE(m->data(m->indexOfBlank(1), Qt::DisplayRole).toString(), QString("0.2120 ✗"));
    QCOMPARE(m->verdictOf(1), std::optional(Verdict::Wrong));
    QVERIFY(m->data(m->indexOfBlank(0), Qt::BackgroundRole) != m->data(m->indexOfBlank(1), Qt::BackgroundRole));
    QCOMPARE(p->scoreText(), QString("Score: 1 / 2 (total 3)"));
    QCOMPARE(p->selectedBlank(), 1);  // a wrong answer brings up its explanation

    for (const QString bad : {"abc", "nan", "inf"}) {
        typeInto(p, 2, bad);
        QCOMPARE(m->verdictOf(2), std::optional(Verdict::NotANumber));
        QVERIFY2(p->messageText().contains("“" + bad + "” is not a number"), qPrintable(p->messageText()));
        QCOMPARE(p->scoreText(), QString("Score: 1 / 2 (total 3)"));  // not counted
        QVERIFY(m->flags(m->indexOfBlank(2)) & Qt::ItemIsEditable);   // still to answer
    }
    typeInto(p, 2, " 0,2119 ");  // a decimal comma and spaces: read as 0.2119, right
    QCOMPARE(m->verdictOf(2), std::optional(Verdict::Correct));
    QCOMPARE(p->scoreText(), QString("Score: 2 / 3 (total 3)"));
    typeInto(p, 1, fixed(kCatsWeights[1]));  // the wrong one corrected: the latest answer counts
    QCOMPARE(p->scoreText(), QString("Score: 3 / 3 (total 3)"));
}

void LabExerciseTest::revealShowsTheExplanationInOrder() {
    ExercisePanel* p = openPanel();
    p->answer(1, "0.3");  // Weights[cats, chase] = 0.2119: wrong
    QCOMPARE(p->selectedBlank(), 1);
    QCOMPARE(p->explanationBox()->heading(), QString("Blank 2 of 3: row 1 (cats), column 2 (chase)"));
    QCOMPARE(p->settings()->languageBox()->currentText(), QString("English"));
    QVERIFY(p->revealedLines().isEmpty());
    QVERIFY(p->explanationBox()->revealButton()->isEnabled());
    // Title, rule, the three exponentials, their sum, the division, the textbook form (heading and
    // two lines) and the value.
    QStringList shown;
    while (p->explanationBox()->revealButton()->isEnabled()) {
        QTest::mouseClick(p->explanationBox()->revealButton(), Qt::LeftButton);
        QCOMPARE(p->revealedLines().size(), shown.size() + 1);
        QCOMPARE(p->revealedLines().mid(0, shown.size()), shown);  // earlier lines stay, in order
        shown = p->revealedLines();
    }
    QCOMPARE(shown.size(), 11);
    QVERIFY2(shown.at(0).startsWith("Weights[cats, chase]") || shown.at(0).contains("[cats, chase]"), qPrintable(shown.at(0)));
    QVERIFY2(shown.at(2).endsWith("for cats = 1"), qPrintable(shown.at(2)));  // exp(2 − 2) = 1, a whole number
    QVERIFY(shown.at(3).endsWith("for chase = " + fixed(std::exp(-1.0))));
    QVERIFY(shown.at(4).endsWith("for mice = " + fixed(std::exp(-1.0))));
    QCOMPARE(shown.at(5), "sum of exponentials = " + fixed(1 + 2 / e));
    QCOMPARE(shown.at(8), QStringLiteral("  A = e¹ / (e² + e¹ + e¹)"));  // the scores of cats: 2, 1, 1
    QCOMPARE(shown.at(10), "value = " + fixed(kCatsWeights[1]));
    QVERIFY(!p->explanationText().contains("Answer:"));
    QTest::mouseClick(p->explanationBox()->answerButton(), Qt::LeftButton);
    QVERIFY(p->explanationText().endsWith("Answer: " + fixed(kCatsWeights[1])));
    QVERIFY(!p->explanationBox()->answerButton()->isEnabled());
    p->table()->setCurrentIndex(p->model()->indexOfBlank(2));  // another blank: from its first line
    QCOMPARE(p->selectedBlank(), 2);
    QVERIFY(p->revealedLines().isEmpty());
}

void LabExerciseTest::wholeStepAndRandomCells() {
    ExercisePanel* p = openPanel();
    p->settings()->stepBox()->setCurrentIndex(p->settings()->stepBox()->findData(static_cast<int>(Step::Scores)));
    p->settings()->hideBox()->setCurrentIndex(static_cast<int>(HideKind::WholeStep));
    p->newExercise();
    QCOMPARE(p->scoreText(), QString("Score: 0 / 0 (total 9)"));
    const int scores[3][3] = {{2, 1, 1}, {1, 2, 0}, {1, 0, 3}};  // X·Xᵀ, by hand
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) p->answer(p->model()->blankAt(r, c), QString::number(scores[r][c]));
    QCOMPARE(p->scoreText(), QString("Score: 9 / 9 (total 9)"));

    p->settings()->hideBox()->setCurrentIndex(static_cast<int>(HideKind::RandomCells));
    p->settings()->countBox()->setValue(4);
    p->settings()->seedBox()->setValue(7);
    p->newExercise();
    QCOMPARE(p->exercise()->blanks.size(), std::size_t{4});
    std::vector<CellRef> first;
    for (const Blank& b : p->exercise()->blanks) first.push_back(b.cell);
    int hidden = 0;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
            const int blank = p->model()->blankAt(r, c);
            hidden += blank >= 0 ? 1 : 0;
            if (blank < 0) QCOMPARE(p->model()->data(p->model()->index(r, c), Qt::DisplayRole).toString(), fixed(scores[r][c]));
        }
    QCOMPARE(hidden, 4);
    p->newExercise();  // the same seed hides the same cells
    for (std::size_t i = 0; i < first.size(); ++i) QVERIFY(p->exercise()->blanks[i].cell == first[i]);

    p->settings()->hideBox()->setCurrentIndex(static_cast<int>(HideKind::OneRow));
    p->settings()->rowBox()->setValue(3);
    p->newExercise();
    QCOMPARE(p->model()->blankAt(2, 2), 2);
    p->answer(2, "3.0001");  // 4 decimals: 3.0001 is a unit off
    QCOMPARE(p->model()->verdictOf(2), std::optional(Verdict::Wrong));
    p->settings()->decimalsBox()->setValue(1);
    p->newExercise();
    p->answer(2, "3.04");  // 1 decimal: within half a unit (0.05)
    QCOMPARE(p->model()->verdictOf(2), std::optional(Verdict::Correct));
}

void LabExerciseTest::maskedCellsAreShownNeverAsked() {
    QVERIFY(window->openBuiltInLesson("causal-mask"));  // "the cat saw the dog": 5 tokens
    ExercisePanel* p = openPanel();
    p->settings()->stepBox()->setCurrentIndex(p->settings()->stepBox()->findData(static_cast<int>(Step::Masked)));
    p->settings()->hideBox()->setCurrentIndex(static_cast<int>(HideKind::WholeStep));
    p->newExercise();
    QCOMPARE(p->scoreText(), QString("Score: 0 / 0 (total 15)"));  // on and below the diagonal: 5·6/2
    ExerciseTableModel* m = p->model();
    for (int r = 0; r < 5; ++r)
        for (int c = r + 1; c < 5; ++c) {  // a later token: masked with −∞, shown and not editable
            QCOMPARE(m->blankAt(r, c), -1);
            QCOMPARE(m->data(m->index(r, c), Qt::DisplayRole).toString(), QString("−∞"));
            QVERIFY(!(m->flags(m->index(r, c)) & Qt::ItemIsEditable));
        }
    p->answer(0, "-inf");  // a student who copies the mask's −∞ into an asked cell: not a number
    QCOMPARE(m->verdictOf(0), std::optional(Verdict::NotANumber));
}

// The step box speaks the interface language (core's catalogue), as the step list does.
void LabExerciseTest::stepsAreNamedInTheInterfaceLanguage() {
    QVERIFY(applyLanguage("zh_CN"));
    QVERIFY(window->openBuiltInLesson("two-heads"));
    ExercisePanel* p = openPanel();
    const QString first = p->settings()->stepBox()->itemText(0);
    // The worksheet is in the interface's language unless the teacher picks the other one.
    const QString sheetLanguage = p->settings()->languageBox()->currentText();
    // A blank is named by its 1-based row and column and their labels: "第 1 行（猫）", never "第 猫 行".
    p->answer(1, "0.3");
    const QString heading = p->explanationBox()->heading();
    QVERIFY(applyLanguage("en"));
    QVERIFY2(first.startsWith(QStringLiteral("嵌入")), qPrintable(first));
    QCOMPARE(sheetLanguage, QStringLiteral("中文"));
    QVERIFY2(heading.contains(QStringLiteral("第 1 行（cats），第 2 列（chase）")), qPrintable(heading));
}

void LabExerciseTest::laterLayersOfferTheirOwnSteps() {
    QVERIFY(window->openBuiltInLesson("two-layers"));
    ExercisePanel* p = openPanel();
    QCOMPARE(p->settings()->layerBox()->maximum(), 2);
    QCOMPARE(p->settings()->stepBox()->itemData(0).toInt(), static_cast<int>(Step::Embedding));
    p->settings()->layerBox()->setValue(2);  // layer 2 starts at its input X₂ = X₁ + output₁
    QCOMPARE(p->settings()->stepBox()->itemData(0).toInt(), static_cast<int>(Step::Input));
    QVERIFY2(p->settings()->stepBox()->itemText(0).startsWith("Input of layer 2"), qPrintable(p->settings()->stepBox()->itemText(0)));
    QCOMPARE(p->settings()->stepBox()->currentData().toInt(), static_cast<int>(Step::Weights));  // the step kept
    p->newExercise();
    QCOMPARE(p->exercise()->spec.layer, 1);
    QCOMPARE(p->exercise()->blanks.at(0).cell.layer, 1);
    QCOMPARE(p->settings()->decimalsBox()->value(), 3);  // the lesson's decimals
}

void LabExerciseTest::refreshKeepsAnswersNewSentenceRebuilds() {
    LabWindow* lab = openLab(window.get(), sessionOf(*window), LabWindow::Exercises);
    ExercisePanel* p = lab->exercisePanel();
    p->answer(0, fixed(kCatsWeights[0]));
    lab->refresh();  // the same run: the answers survive
    QCOMPARE(p->scoreText(), QString("Score: 1 / 1 (total 3)"));
    QCOMPARE(p->model()->verdictOf(0), std::optional(Verdict::Correct));
    window->setSentence("mice chase cats");
    lab = openLab(window.get(), sessionOf(*window), LabWindow::Exercises);
    QCOMPARE(p->scoreText(), QString("Score: 0 / 0 (total 3)"));
    QCOMPARE(p->model()->headerData(0, Qt::Vertical, Qt::DisplayRole).toString(), QString("mice"));
    // Row mice = softmax(mice·mice, mice·chase, mice·cats) = softmax(3, 0, 1).
    p->answer(0, fixed(std::exp(3.0) / (std::exp(3.0) + 1 + e)));
    QCOMPARE(p->scoreText(), QString("Score: 1 / 1 (total 3)"));
}

void LabExerciseTest::markdownAndLatexWorksheetsParseBack() {
    ExercisePanel* p = openPanel();
    const QString md = tmp.filePath("sheet.md");
    QCOMPARE(errorText(p->exportWorksheetTo(md)), QString());
    QCOMPARE(answerKeyPath(md), tmp.filePath("sheet-answers.md"));
    const QString questions = QString::fromUtf8(readAll(md));
    const QString answers = QString::fromUtf8(readAll(answerKeyPath(md)));
    QVERIFY(questions.startsWith("# 1. The first hand exercise"));
    QCOMPARE(markdownRow(questions, "cats"), QStringList({"____", "____", "____"}));
    QCOMPARE(markdownRow(questions, "chase"), QStringList({fixed(kChaseWeights[0]), fixed(kChaseWeights[1]), fixed(kChaseWeights[2])}));
    QVERIFY(!questions.contains(fixed(kCatsWeights[0])));  // the answer is not given away
    QCOMPARE(markdownRow(answers, "cats"), QStringList({fixed(kCatsWeights[0]), fixed(kCatsWeights[1]), fixed(kCatsWeights[2])}));
    QVERIFY(answers.contains("Answer key"));

    const QString tex = tmp.filePath("sheet.tex");
    QCOMPARE(errorText(p->exportWorksheetTo(tex)), QString());
    const QString texQuestions = QString::fromUtf8(readAll(tex));
    const QString texAnswers = QString::fromUtf8(readAll(tmp.filePath("sheet-answers.tex")));
    for (const QString& doc : {texQuestions, texAnswers}) {
        QVERIFY(doc.startsWith("\\documentclass{article}"));
        QVERIFY(doc.trimmed().endsWith("\\end{document}"));
        QCOMPARE(doc.count("\\begin{tabular}"), doc.count("\\end{tabular}"));
    }
    QCOMPARE(latexRow(texQuestions, "cats"), QStringList({"\\_\\_\\_\\_", "\\_\\_\\_\\_", "\\_\\_\\_\\_"}));
    QCOMPARE(latexRow(texAnswers, "cats"), QStringList({fixed(kCatsWeights[0]), fixed(kCatsWeights[1]), fixed(kCatsWeights[2])}));

    p->settings()->languageBox()->setCurrentIndex(1);  // 中文
    const QString zh = tmp.filePath("zh.md");
    QCOMPARE(errorText(p->exportWorksheetTo(zh)), QString());
    const QString zhQuestions = QString::fromUtf8(readAll(zh));
    QVERIFY(zhQuestions.contains("## 已知"));
    QVERIFY(zhQuestions.contains("每个答案保留 4 位小数。"));
    QCOMPARE(markdownRow(zhQuestions, "cats"), QStringList({"____", "____", "____"}));
    QVERIFY(QString::fromUtf8(readAll(tmp.filePath("zh-answers.md"))).contains("答案"));

    QVERIFY(errorText(p->exportWorksheetTo(tmp.filePath("sheet.docx"))).contains("unknown file type"));
    QVERIFY(!p->exportWorksheetTo(tmp.filePath("missing/sheet.md")).ok());
}

void LabExerciseTest::pdfWorksheetsHaveTwoPagesInBothLanguages() {
    ExercisePanel* p = openPanel();
    // Lesson 1's questions (the tokens, the scores, the weights with row cats blank) fit one A4
    // page, and so does the key (three explanations of 8 lines): it starts on a new page, so two.
    for (const int language : {0, 1}) {
        p->settings()->languageBox()->setCurrentIndex(language);
        const QString path = tmp.filePath(QStringLiteral("sheet-%1.pdf").arg(language));
        QCOMPARE(errorText(p->exportWorksheetTo(path)), QString());
        const QByteArray pdf = readAll(path);
        QVERIFY(pdf.startsWith("%PDF"));
        QCOMPARE(pdfPageObjects(pdf), 2);
        QCOMPARE(pdfPagesCount(pdf), 2);
        // The Chinese phrases are drawn with the CJK font (embedded); the English sheet needs none.
        QCOMPARE(pdf.contains("/BaseFont /WenQuanYiMicroHei"), language == 1);
    }
    QCOMPARE(QDir(tmp.path()).entryList({"*.pdf"}, QDir::Files | QDir::Hidden).size(), qsizetype{2});  // no temporary left
}

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    LabExerciseTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_lab_exercise.moc"
