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
class QPushButton;
class QSpinBox;
class QTableView;

namespace attnscope {

class ExerciseSettings;
class ExerciseTable;
class ExerciseTableModel;
class ExplanationBox;

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

    // For tests and screenshots.
    const Exercise* exercise() const { return exercise_ ? &*exercise_ : nullptr; }
    ExerciseScore score() const;
    ExerciseSettings* settings() const { return settings_; }
    ExplanationBox* explanationBox() const { return explanation_; }
    QTableView* table() const;
    ExerciseTableModel* model() const;
    int selectedBlank() const { return selected_; }
    QStringList revealedLines() const;
    QString scoreText() const;
    QString messageText() const;
    QString explanationText() const;

private:
    void showScore();
    void showExplanation();
    void showMessage(const QString& text, bool problem);
    void onCurrentCell(const QModelIndex& index);
    void exportDialog();

    // Each part (ui/lab/exercise_parts.hpp) owns its controls and stands beside the state it shows.
    Trace trace_;
    int lessonDecimals_ = -1;
    QString title_;
    ExerciseSettings* settings_ = nullptr;
    std::optional<Exercise> exercise_;
    std::optional<ExerciseProgress> progress_;
    ExerciseTable* table_ = nullptr;  // the blanks of exercise_ as filled in progress_
    QLabel* score_ = nullptr;
    int selected_ = -1;               // the blank whose explanation the panel shows
    std::vector<std::string> lines_;  // its explanation (core's explainCell)
    std::size_t revealed_ = 0;        // how many of lines_ are shown
    bool answerShown_ = false;
    ExplanationBox* explanation_ = nullptr;
    QLabel* message_ = nullptr;  // the last check or problem
};

}  // namespace attnscope
