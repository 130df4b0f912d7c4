#pragma once
// Lab ▸ Exercises (issue 5 §6–7): a step of the lesson's run with chosen cells hidden (a whole
// step, one row, or seeded random cells), typed answers checked by core/lab/exercise with the
// tolerance of the chosen decimals, a score, the explanation of a blank revealed line by line,
// and worksheet export (Markdown, LaTeX, PDF; English or Chinese phrases).
#include <QLocale>
#include <QStringList>
#include <QWidget>
#include <optional>
#include <string>
#include <vector>

#include "core/lab/exercise.hpp"
#include "core/lab/worksheet.hpp"
#include "core/trace/trace.hpp"
#include "ui/lab/lab_panel.hpp"

class QComboBox;
class QLabel;
class QModelIndex;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace attnscope {

class ExerciseTableModel;

class ExercisePanel : public QWidget, public LabPanel {
    Q_OBJECT
public:
    explicit ExercisePanel(QWidget* parent = nullptr);
    void setInput(const LabInput& input) override {
        setTrace(input.trace, input.decimals, QString::fromStdString(input.lesson.title.in(QLocale().name().toStdString())));
    }

    // The lesson's run, its decimals and title. A new run (other numbers) rebuilds the exercise;
    // the same run again keeps the student's answers.
    void setTrace(const Trace& trace, int decimals, const QString& title);
    // A new exercise from the controls; on error the message shows and the last exercise stays.
    void newExercise();

    // What the student does (the table's editor commits through answer()).
    void answer(int blank, const QString& typed);
    void selectBlank(int blank);
    void revealNextStep();
    void showAnswer();
    // Writes the worksheet of the current exercise (see ui/lab/worksheet_export.hpp for the files);
    // empty on success, else the reason.
    Result<void> exportWorksheetTo(const QString& path) const;
    WorksheetPhrases phrases() const;  // the chosen language's
    // For the screenshots: one answer right, one wrong, and that one's explanation partly revealed.
    void showDemo();

    // For tests and screenshots.
    const Exercise* exercise() const { return exercise_ ? &*exercise_ : nullptr; }
    ExerciseScore score() const;
    QComboBox* stepBox() const { return step_; }
    QComboBox* hideBox() const { return hide_; }
    QComboBox* languageBox() const { return language_; }
    QSpinBox* layerBox() const { return layer_; }
    QSpinBox* headBox() const { return head_; }
    QSpinBox* rowBox() const { return row_; }
    QSpinBox* countBox() const { return count_; }
    QSpinBox* seedBox() const { return seed_; }
    QSpinBox* decimalsBox() const { return decimals_; }
    QPushButton* revealButton() const { return reveal_; }
    QPushButton* answerButton() const { return showAnswer_; }
    QTableView* table() const { return table_; }
    ExerciseTableModel* model() const { return model_; }
    int selectedBlank() const { return selected_; }
    QStringList revealedLines() const;
    QString scoreText() const;
    QString messageText() const;
    QString explanationText() const;

private:
    QWidget* buildControls();
    QWidget* buildExplanation();
    void fillSteps();
    void updateControls();
    ExerciseSpec specFromControls() const;
    void showScore();
    void showExplanation();
    void showMessage(const QString& text, bool problem);
    void onCurrentCell(const QModelIndex& index);
    void exportDialog();

    Trace trace_;
    int lessonDecimals_ = -1;
    QString title_;
    std::optional<Exercise> exercise_;
    std::optional<ExerciseProgress> progress_;
    int selected_ = -1;               // the blank whose explanation the panel shows
    std::vector<std::string> lines_;  // its explanation (core's explainCell)
    std::size_t revealed_ = 0;        // how many of lines_ are shown
    bool answerShown_ = false;

    // The child widgets it reads or updates after building them (such lists look alike in every
    // panel by shape; each holds its own widgets: nothing to share).
    QSpinBox* layer_ = nullptr;
    QSpinBox* head_ = nullptr;
    QComboBox* step_ = nullptr;
    QSpinBox* decimals_ = nullptr;
    QComboBox* hide_ = nullptr;
    QSpinBox* row_ = nullptr;
    QSpinBox* count_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QComboBox* language_ = nullptr;
    QTableView* table_ = nullptr;
    ExerciseTableModel* model_ = nullptr;
    QLabel* score_ = nullptr;
    QLabel* message_ = nullptr;
    QLabel* explanationTitle_ = nullptr;
    QPlainTextEdit* explanation_ = nullptr;
    QPushButton* reveal_ = nullptr;
    QPushButton* showAnswer_ = nullptr;
};

}  // namespace attnscope
