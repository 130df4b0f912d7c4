#include "ui/lab/exercise_panel.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QVBoxLayout>
#include <cmath>

#include "core/trace/explain.hpp"
#include "ui/common/file_write.hpp"
#include "ui/lab/exercise_model.hpp"
#include "ui/lab/exercise_parts.hpp"
#include "ui/lab/worksheet_export.hpp"
#include "ui/common/core_language.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/theme_colors.hpp"

namespace attnscope {

ExercisePanel::ExercisePanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    settings_ = new ExerciseSettings(trace_, this);
    layout->addWidget(settings_);
    auto* middle = new QHBoxLayout;
    table_ = new ExerciseTable(this);
    explanation_ = new ExplanationBox(this);
    middle->addWidget(table_, 3);
    middle->addWidget(explanation_, 2);
    layout->addLayout(middle, 1);
    score_ = new QLabel(this);
    score_->setStyleSheet(QStringLiteral("font-weight: bold"));
    message_ = new QLabel(this);
    message_->setTextFormat(Qt::PlainText);  // it quotes what the student typed, "<b>" included
    message_->setWordWrap(true);
    layout->addWidget(score_);
    layout->addWidget(message_);
    connect(settings_, &ExerciseSettings::newExerciseRequested, this, &ExercisePanel::newExercise);
    connect(settings_, &ExerciseSettings::exportRequested, this, &ExercisePanel::exportDialog);
    connect(model(), &ExerciseTableModel::answerTyped, this, &ExercisePanel::answer);
    connect(table_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { onCurrentCell(current); });
    connect(explanation_, &ExplanationBox::revealRequested, this, &ExercisePanel::revealNextStep);
    connect(explanation_, &ExplanationBox::answerRequested, this, &ExercisePanel::showAnswer);
    showScore();
    showExplanation();
}

void ExercisePanel::setTrace(const Trace& trace, int decimals, const QString& title) {
    title_ = title;
    if (exercise_ && decimals == lessonDecimals_ && sameRun(trace, trace_)) return;  // keep the answers
    trace_ = trace;
    lessonDecimals_ = decimals;
    exercise_.reset();  // it belonged to the old run
    progress_.reset();
    model()->clear();
    selectBlank(-1);
    settings_->followTrace(decimals);
    newExercise();
}

void ExercisePanel::newExercise() {
    auto made = makeExercise(trace_, settings_->spec());
    if (!made) {
        showMessage(tr("No exercise: %1").arg(coreErrorText(made.error())), true);
        return;
    }
    model()->clear();  // it points into the exercise about to be replaced
    exercise_ = std::move(made).value();
    progress_.emplace(*exercise_);
    model()->show(&trace_, &*exercise_);
    selected_ = -1;
    selectBlank(0);
    showScore();
    showMessage(tr("Fill in the %n blank cell(s): double-click or start typing, then press Enter.", nullptr,
                   static_cast<int>(exercise_->blanks.size())),
                false);
}

void ExercisePanel::answer(int blank, const QString& typed) {
    if (!exercise_ || blank < 0 || blank >= static_cast<int>(exercise_->blanks.size())) return;
    const Blank& b = exercise_->blanks[static_cast<std::size_t>(blank)];
    const AnswerCheck check = checkAnswer(*exercise_, b, typed.toStdString());
    progress_->record(static_cast<std::size_t>(blank), check.verdict);
    model()->setAnswer(blank, typed, check.verdict);
    showScore();
    const QString cell = QStringLiteral("[%1, %2]").arg(model()->headerData(b.cell.row, Qt::Vertical, Qt::DisplayRole).toString(),
                                                        model()->headerData(b.cell.col, Qt::Horizontal, Qt::DisplayRole).toString());
    switch (check.verdict) {
        case Verdict::Correct:
            showMessage(tr("✓ %1 is right for %2.").arg(typed.trimmed(), cell), false);
            break;
        case Verdict::Wrong:
            showMessage(tr("✗ %1 is not right for %2: try again, or reveal the explanation step by step.").arg(typed.trimmed(), cell), true);
            selectBlank(blank);
            break;
        case Verdict::NotANumber:
            showMessage(tr("“%1” is not a number: type digits with a decimal point or comma, e.g. %2. Not counted.")
                            .arg(typed.trimmed(), qs(formatNumber(0.5, exercise_->spec.decimals))),
                        true);
            break;
    }
}

void ExercisePanel::selectBlank(int blank) {
    if (blank == selected_) return;
    selected_ = blank;
    lines_.clear();
    revealed_ = 0;
    answerShown_ = false;
    if (exercise_ && blank >= 0 && blank < static_cast<int>(exercise_->blanks.size())) {
        auto explanation = explainCell(trace_, exercise_->blanks[static_cast<std::size_t>(blank)].cell, exercise_->spec.decimals,
                                       coreLanguage());
        if (explanation) lines_ = explanation.value().lines;
        else lines_ = {coreErrorString(explanation.error())};
        const CellRef& c = exercise_->blanks[static_cast<std::size_t>(blank)].cell;
        // Rows and columns by number (1-based) and by label: "row 小" reads as nonsense in Chinese.
        explanation_->setHeading(tr("Blank %1 of %2: row %3 (%4), column %5 (%6)")
                                     .arg(blank + 1)
                                     .arg(exercise_->blanks.size())
                                     .arg(c.row + 1)
                                     .arg(model()->headerData(c.row, Qt::Vertical, Qt::DisplayRole).toString())
                                     .arg(c.col + 1)
                                     .arg(model()->headerData(c.col, Qt::Horizontal, Qt::DisplayRole).toString()));
    } else {
        selected_ = -1;
        explanation_->setHeading(tr("Select a blank cell."));
    }
    showExplanation();
}

void ExercisePanel::onCurrentCell(const QModelIndex& index) {
    const int blank = index.isValid() ? model()->blankAt(index.row(), index.column()) : -1;
    if (blank >= 0) selectBlank(blank);
}

void ExercisePanel::revealNextStep() {
    if (revealed_ < lines_.size()) ++revealed_;
    showExplanation();
}

void ExercisePanel::showAnswer() {
    if (selected_ < 0) return;
    answerShown_ = true;
    showExplanation();
}

QStringList ExercisePanel::revealedLines() const {
    QStringList shown;
    for (std::size_t i = 0; i < revealed_; ++i) shown << qs(lines_[i]);
    return shown;
}

void ExercisePanel::showExplanation() {
    QStringList text = revealedLines();
    if (selected_ >= 0 && revealed_ < lines_.size())
        text << tr("… step %1 of %2").arg(revealed_ + 1).arg(lines_.size());
    if (answerShown_ && exercise_)
        text << tr("Answer: %1").arg(qs(formatNumber(exercise_->blanks[static_cast<std::size_t>(selected_)].answer,
                                                     exercise_->spec.decimals)));
    explanation_->showLines(text, selected_ >= 0 && revealed_ < lines_.size(), selected_ >= 0 && !answerShown_);
}

QString ExercisePanel::explanationText() const { return explanation_->text(); }

ExerciseScore ExercisePanel::score() const { return progress_ ? progress_->score() : ExerciseScore{}; }

void ExercisePanel::showScore() {
    const ExerciseScore s = score();
    score_->setText(tr("Score: %1 / %2 (total %3)").arg(s.correct).arg(s.attempted).arg(s.total));
}

QString ExercisePanel::scoreText() const { return score_->text(); }

void ExercisePanel::showMessage(const QString& text, bool problem) {
    theme::setThemedStyleSheet(message_, problem ? QStringLiteral("color: {errorText}") : QString());
    message_->setText(text);
}

QString ExercisePanel::messageText() const { return message_->text(); }

WorksheetPhrases ExercisePanel::phrases() const { return settings_->phrases(); }

Result<void> ExercisePanel::exportWorksheetTo(const QString& path) const {
    if (!exercise_) return Error{path.toStdString(), tr("there is no exercise to export").toStdString()};
    return saveWorksheet(trace_, *exercise_, title_, phrases(), path);
}

void ExercisePanel::exportDialog() {
    const QString path = askWorksheetPath(this, QStringLiteral("worksheet.md"));
    if (path.isEmpty()) return;
    if (const auto written = exportWorksheetTo(path); !written.ok()) {
        QMessageBox::warning(this, tr("Export failed"), errorText(written));
        return;
    }
    showMessage(worksheetWrittenText(path), false);
}

QTableView* ExercisePanel::table() const { return table_; }
ExerciseTableModel* ExercisePanel::model() const { return table_->exerciseModel(); }

}  // namespace attnscope
