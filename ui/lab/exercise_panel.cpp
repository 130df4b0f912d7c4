#include "ui/lab/exercise_panel.hpp"

#include <QComboBox>
#include <algorithm>
#include <cmath>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>
#include <QSignalBlocker>

#include "core/trace/explain.hpp"
#include "ui/common/file_write.hpp"
#include "ui/lab/control_row.hpp"
#include "ui/lab/exercise_model.hpp"
#include "ui/lab/worksheet_export.hpp"
#include "ui/common/qt_text.hpp"

namespace attnscope {

ExercisePanel::ExercisePanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildControls());
    auto* middle = new QHBoxLayout;
    model_ = new ExerciseTableModel(this);
    table_ = new QTableView(this);
    table_->setModel(model_);
    table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                            QAbstractItemView::AnyKeyPressed | QAbstractItemView::SelectedClicked);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->horizontalHeader()->setMinimumSectionSize(120);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    middle->addWidget(table_, 3);
    middle->addWidget(buildExplanation(), 2);
    layout->addLayout(middle, 1);
    score_ = new QLabel(this);
    score_->setStyleSheet(QStringLiteral("font-weight: bold"));
    message_ = new QLabel(this);
    message_->setTextFormat(Qt::PlainText);  // it quotes what the student typed, "<b>" included
    message_->setWordWrap(true);
    layout->addWidget(score_);
    layout->addWidget(message_);
    connect(model_, &ExerciseTableModel::answerTyped, this, &ExercisePanel::answer);
    connect(table_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { onCurrentCell(current); });
    updateControls();
    showScore();
    showExplanation();
}

QWidget* ExercisePanel::buildControls() {
    auto* box = new QWidget(this);
    auto* grid = new QGridLayout(box);
    grid->setContentsMargins(0, 0, 0, 0);
    layer_ = spinBox(box, 1, 1, 1);
    head_ = spinBox(box, 1, 1, 1);
    step_ = new QComboBox(box);
    decimals_ = spinBox(box, 0, 8, 4);
    hide_ = new QComboBox(box);
    hide_->addItems({tr("Whole step"), tr("One row"), tr("Random cells")});  // the order of HideKind
    hide_->setCurrentIndex(static_cast<int>(HideKind::OneRow));
    row_ = spinBox(box, 1, 1, 1);
    count_ = spinBox(box, 1, 10'000, 4);
    seed_ = spinBox(box, 0, kMaxSeed, 1);
    seed_->setToolTip(tr("The same seed hides the same cells: a class can share an exercise"));
    auto* create = new QPushButton(tr("New exercise"), box);
    language_ = new QComboBox(box);
    language_->addItems({QStringLiteral("English"), QStringLiteral("中文")});
    auto* exportSheet = new QPushButton(tr("Export worksheet…"), box);
    exportSheet->setToolTip(tr("NAME.md / NAME.tex with NAME-answers beside it, or one PDF (answer key on a new page)"));

    const auto add = [&](int row, int col, const QString& label, QWidget* w) {
        grid->addWidget(new QLabel(label, box), row, col, Qt::AlignRight);
        grid->addWidget(w, row, col + 1, qobject_cast<QSpinBox*>(w) ? Qt::AlignLeft : Qt::Alignment());  // numbers stay narrow
    };
    add(0, 0, tr("Layer"), layer_);
    add(0, 2, tr("Head"), head_);
    add(0, 4, tr("Step"), step_);
    add(0, 6, tr("Decimals"), decimals_);
    grid->addWidget(create, 0, 8);
    add(1, 0, tr("Hide"), hide_);
    add(1, 2, tr("Row"), row_);
    add(1, 4, tr("Random cells"), count_);
    add(1, 6, tr("Seed"), seed_);
    auto* sheet = new QHBoxLayout;
    sheet->addWidget(new QLabel(tr("Worksheet"), box));
    sheet->addWidget(language_);
    sheet->addWidget(exportSheet);
    grid->addLayout(sheet, 1, 8);
    grid->setColumnStretch(5, 1);

    connect(layer_, &QSpinBox::valueChanged, this, [this] { fillSteps(); });
    connect(step_, &QComboBox::currentIndexChanged, this, [this] { updateControls(); });
    connect(hide_, &QComboBox::currentIndexChanged, this, [this] { updateControls(); });
    connect(create, &QPushButton::clicked, this, &ExercisePanel::newExercise);
    connect(exportSheet, &QPushButton::clicked, this, &ExercisePanel::exportDialog);
    return box;
}

QWidget* ExercisePanel::buildExplanation() {
    auto* box = new QGroupBox(tr("Explanation of the selected blank"), this);
    auto* column = new QVBoxLayout(box);
    explanationTitle_ = new QLabel(box);
    explanationTitle_->setTextFormat(Qt::PlainText);  // token labels may hold any character
    explanationTitle_->setWordWrap(true);
    explanation_ = new QPlainTextEdit(box);
    explanation_->setReadOnly(true);
    explanation_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    reveal_ = new QPushButton(tr("Reveal next step"), box);
    showAnswer_ = new QPushButton(tr("Show answer"), box);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(reveal_);
    buttons->addWidget(showAnswer_);
    buttons->addStretch(1);
    column->addWidget(explanationTitle_);
    column->addWidget(explanation_, 1);
    column->addLayout(buttons);
    connect(reveal_, &QPushButton::clicked, this, &ExercisePanel::revealNextStep);
    connect(showAnswer_, &QPushButton::clicked, this, &ExercisePanel::showAnswer);
    return box;
}

void ExercisePanel::setTrace(const Trace& trace, int decimals, const QString& title) {
    title_ = title;
    if (exercise_ && decimals == lessonDecimals_ && sameRun(trace, trace_)) return;  // keep the answers
    trace_ = trace;
    lessonDecimals_ = decimals;
    exercise_.reset();  // it belonged to the old run
    progress_.reset();
    model_->clear();
    selectBlank(-1);
    decimals_->setValue(decimals);
    layer_->setRange(1, std::max(trace_.layerCount(), 1));
    head_->setRange(1, std::max(trace_.headCount(), 1));
    fillSteps();
    newExercise();
}

void ExercisePanel::fillSteps() {
    const QVariant kept = step_->currentData();
    QSignalBlocker block(step_);
    step_->clear();
    const int layer = layer_->value() - 1;
    if (layer < trace_.layerCount())
        for (const Step s : stepsOf(trace_, layer)) step_->addItem(qs(stepTitleIn(trace_, s, layer)), static_cast<int>(s));
    int at = step_->findData(kept.isValid() ? kept : QVariant(static_cast<int>(Step::Weights)));
    if (at < 0) at = step_->findData(static_cast<int>(Step::Weights));
    step_->setCurrentIndex(std::max(at, 0));
    updateControls();
}

void ExercisePanel::updateControls() {
    const HideKind hide = static_cast<HideKind>(hide_->currentIndex());
    row_->setEnabled(hide == HideKind::OneRow);
    count_->setEnabled(hide == HideKind::RandomCells);
    seed_->setEnabled(hide == HideKind::RandomCells);
    const ExerciseSpec spec = specFromControls();
    head_->setEnabled(isPerHead(spec.step) && trace_.headCount() > 1);
    if (spec.layer < trace_.layerCount() && (!isPerHead(spec.step) || spec.head < trace_.headCount()))
        row_->setMaximum(std::max<int>(1, static_cast<int>(stepMatrix(trace_, spec.step, spec.layer, spec.head).rows())));
}

ExerciseSpec ExercisePanel::specFromControls() const {
    ExerciseSpec spec;
    spec.step = step_->currentData().isValid() ? static_cast<Step>(step_->currentData().toInt()) : Step::Weights;
    spec.layer = layer_->value() - 1;
    spec.head = head_->value() - 1;
    spec.hide = static_cast<HideKind>(hide_->currentIndex());
    spec.row = row_->value() - 1;
    spec.count = count_->value();
    spec.seed = static_cast<std::uint64_t>(seed_->value());
    spec.decimals = decimals_->value();
    return spec;
}

void ExercisePanel::newExercise() {
    auto made = makeExercise(trace_, specFromControls());
    if (!made) {
        showMessage(tr("No exercise: %1").arg(qs(made.error().text())), true);
        return;
    }
    model_->clear();  // it points into the exercise about to be replaced
    exercise_ = std::move(made).value();
    progress_.emplace(*exercise_);
    model_->show(&trace_, &*exercise_);
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
    model_->setAnswer(blank, typed, check.verdict);
    showScore();
    const QString cell = QStringLiteral("[%1, %2]").arg(model_->headerData(b.cell.row, Qt::Vertical, Qt::DisplayRole).toString(),
                                                        model_->headerData(b.cell.col, Qt::Horizontal, Qt::DisplayRole).toString());
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
        auto explanation = explainCell(trace_, exercise_->blanks[static_cast<std::size_t>(blank)].cell, exercise_->spec.decimals);
        if (explanation) lines_ = explanation.value().lines;
        else lines_ = {explanation.error().text()};
        const CellRef& c = exercise_->blanks[static_cast<std::size_t>(blank)].cell;
        explanationTitle_->setText(tr("Blank %1 of %2: row %3, column %4")
                                       .arg(blank + 1)
                                       .arg(exercise_->blanks.size())
                                       .arg(model_->headerData(c.row, Qt::Vertical, Qt::DisplayRole).toString(),
                                            model_->headerData(c.col, Qt::Horizontal, Qt::DisplayRole).toString()));
    } else {
        selected_ = -1;
        explanationTitle_->setText(tr("Select a blank cell."));
    }
    showExplanation();
}

void ExercisePanel::onCurrentCell(const QModelIndex& index) {
    const int blank = index.isValid() ? model_->blankAt(index.row(), index.column()) : -1;
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
    explanation_->setPlainText(text.join('\n'));
    reveal_->setEnabled(selected_ >= 0 && revealed_ < lines_.size());
    showAnswer_->setEnabled(selected_ >= 0 && !answerShown_);
}

QString ExercisePanel::explanationText() const { return explanation_->toPlainText(); }

ExerciseScore ExercisePanel::score() const { return progress_ ? progress_->score() : ExerciseScore{}; }

void ExercisePanel::showScore() {
    const ExerciseScore s = score();
    score_->setText(tr("Score: %1 / %2 (total %3)").arg(s.correct).arg(s.attempted).arg(s.total));
}

QString ExercisePanel::scoreText() const { return score_->text(); }

void ExercisePanel::showMessage(const QString& text, bool problem) {
    message_->setStyleSheet(problem ? QStringLiteral("color: #b00020") : QString());
    message_->setText(text);
}

QString ExercisePanel::messageText() const { return message_->text(); }

WorksheetPhrases ExercisePanel::phrases() const {
    return language_->currentIndex() == 1 ? chineseWorksheetPhrases() : WorksheetPhrases{};
}

Result<void> ExercisePanel::exportWorksheetTo(const QString& path) const {
    if (!exercise_) return Error{path.toStdString(), tr("there is no exercise to export").toStdString()};
    return saveWorksheet(trace_, *exercise_, title_, phrases(), path);
}

void ExercisePanel::exportDialog() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export worksheet"), QDir::home().filePath(QStringLiteral("worksheet.md")),
        tr("Markdown: NAME.md and NAME-answers.md (*.md);;LaTeX: NAME.tex and NAME-answers.tex (*.tex);;"
           "PDF: questions, then the answer key on a new page (*.pdf)"));
    if (path.isEmpty()) return;
    if (const auto written = exportWorksheetTo(path); !written.ok()) {
        QMessageBox::warning(this, tr("Export failed"), errorText(written));
        return;
    }
    const bool twoFiles = QFileInfo(path).suffix().toLower() != "pdf";
    showMessage(twoFiles ? tr("Wrote %1 and %2").arg(path, answerKeyPath(path)) : tr("Wrote %1").arg(path), false);
}

void ExercisePanel::showDemo() {
    if (!exercise_ || exercise_->blanks.size() < 2) return;
    const int decimals = exercise_->spec.decimals;
    const double unit = std::pow(10.0, -decimals);
    answer(0, qs(formatNumber(exercise_->blanks[0].answer, decimals)));
    answer(1, qs(formatNumber(exercise_->blanks[1].answer + unit, decimals)));  // one unit off: wrong
    for (int i = 0; i < 5; ++i) revealNextStep();
}

}  // namespace attnscope
