#pragma once
// The parts of the Exercises panel (ExercisePanel ties them to the exercise it holds):
//  - ExerciseSettings: what to ask (layer, head, step, decimals) and what to hide (a whole step,
//    one row, random cells with a seed), "New exercise", the worksheet language and export;
//  - ExerciseTable: the step's matrix with the blanks to fill in (its ExerciseTableModel);
//  - ExplanationBox: the explanation of the selected blank, revealed line by line.
#include <QGroupBox>
#include <QStringList>
#include <QTableView>
#include <QWidget>

#include "core/lab/exercise.hpp"
#include "core/lab/worksheet.hpp"
#include "core/trace/trace.hpp"

class QComboBox;
class QLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace attnscope {

class ExerciseTableModel;

class ExerciseSettings : public QWidget {
    Q_OBJECT
public:
    // `trace` is the panel's run; the step list and the ranges follow it.
    explicit ExerciseSettings(const Trace& trace, QWidget* parent = nullptr);

    void followTrace(int decimals);  // after the run changed: ranges, steps, the lesson's decimals
    ExerciseSpec spec() const;
    WorksheetPhrases phrases() const;  // the chosen language's

    QComboBox* stepBox() const { return target_.step; }
    QComboBox* hideBox() const { return hiding_.kind; }
    QComboBox* languageBox() const { return language_; }
    QSpinBox* layerBox() const { return target_.layer; }
    QSpinBox* headBox() const { return target_.head; }
    QSpinBox* rowBox() const { return hiding_.row; }
    QSpinBox* countBox() const { return hiding_.count; }
    QSpinBox* seedBox() const { return hiding_.seed; }
    QSpinBox* decimalsBox() const { return target_.decimals; }

signals:
    void newExerciseRequested();
    void exportRequested();

private:
    // Which cells the exercise asks for: one step of one head of one layer, at these decimals.
    struct Target {
        QSpinBox* layer = nullptr;
        QSpinBox* head = nullptr;
        QComboBox* step = nullptr;
        QSpinBox* decimals = nullptr;
    };
    // Which of them are blank: the HideKind and its row, or how many random cells from which seed.
    struct Hiding {
        QComboBox* kind = nullptr;
        QSpinBox* row = nullptr;
        QSpinBox* count = nullptr;
        QSpinBox* seed = nullptr;
    };

    void buildTarget();
    void buildHiding();
    void layOut(QLayout* flow, QWidget* create, QWidget* exportSheet);
    void fillSteps();
    void updateControls();

    const Trace& trace_;
    Target target_;
    Hiding hiding_;
    QComboBox* language_ = nullptr;
};

// The table of the exercise: typed answers are edited in place (any key starts editing).
class ExerciseTable : public QTableView {
    Q_OBJECT
public:
    explicit ExerciseTable(QWidget* parent = nullptr);
    ExerciseTableModel* exerciseModel() const { return model_; }

private:
    ExerciseTableModel* model_ = nullptr;
};

class ExplanationBox : public QGroupBox {
    Q_OBJECT
public:
    explicit ExplanationBox(QWidget* parent = nullptr);

    void setHeading(const QString& text);  // which blank it explains
    QString heading() const;
    // The lines shown so far and which of the two buttons still have something to show.
    void showLines(const QStringList& lines, bool canReveal, bool canShowAnswer);
    QString text() const;

    QPushButton* revealButton() const { return reveal_; }
    QPushButton* answerButton() const { return answer_; }

signals:
    void revealRequested();
    void answerRequested();

private:
    QLabel* heading_ = nullptr;
    QPlainTextEdit* text_ = nullptr;
    QPushButton* reveal_ = nullptr;
    QPushButton* answer_ = nullptr;
};

}  // namespace attnscope
