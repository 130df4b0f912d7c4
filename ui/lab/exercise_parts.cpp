#include "ui/lab/exercise_parts.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>

#include "core/text/messages.hpp"
#include "core/trace/explain.hpp"
#include "ui/common/core_language.hpp"
#include "ui/common/flow_layout.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/lab/control_row.hpp"
#include "ui/lab/exercise_model.hpp"

namespace attnscope {

ExerciseSettings::ExerciseSettings(const Trace& trace, QWidget* parent) : QWidget(parent), trace_(trace) {
    buildTarget();
    buildHiding();
    auto* create = new QPushButton(tr("New exercise"), this);
    language_ = new QComboBox(this);
    language_->addItems({QStringLiteral("English"), QStringLiteral("中文")});
    language_->setCurrentIndex(coreLanguage() == Language::Chinese ? 1 : 0);  // the interface's language first
    auto* exportSheet = new QPushButton(tr("Export worksheet…"), this);
    exportSheet->setToolTip(tr("NAME.md / NAME.tex with NAME-answers beside it, or one PDF (answer key on a new page)"));
    layOut(new FlowLayout(this), create, exportSheet);
    connect(create, &QPushButton::clicked, this, &ExerciseSettings::newExerciseRequested);
    connect(exportSheet, &QPushButton::clicked, this, &ExerciseSettings::exportRequested);
    updateControls();
}

void ExerciseSettings::buildTarget() {
    target_.layer = spinBox(this, 1, 1, 1);
    target_.head = spinBox(this, 1, 1, 1);
    target_.step = new QComboBox(this);
    target_.decimals = spinBox(this, 0, 8, 4);
    connect(target_.layer, &QSpinBox::valueChanged, this, [this] { fillSteps(); });
    connect(target_.step, &QComboBox::currentIndexChanged, this, [this] { updateControls(); });
}

void ExerciseSettings::buildHiding() {
    hiding_.kind = new QComboBox(this);
    hiding_.kind->addItems({tr("Whole step"), tr("One row"), tr("Random cells")});  // the order of HideKind
    hiding_.kind->setCurrentIndex(static_cast<int>(HideKind::OneRow));
    hiding_.row = spinBox(this, 1, 1, 1);
    hiding_.count = spinBox(this, 1, 10'000, 4);
    hiding_.seed = spinBox(this, 0, kMaxSeed, 1);
    hiding_.seed->setToolTip(tr("The same seed hides the same cells: a class can share an exercise"));
    connect(hiding_.kind, &QComboBox::currentIndexChanged, this, [this] { updateControls(); });
}

// Two rows on one grid, so that the captions of what to ask and what to hide line up.
// Left to right, onto further lines when the page is narrower (a projector's zoom); each caption
// stays with its control.
void ExerciseSettings::layOut(QLayout* flow, QWidget* create, QWidget* exportSheet) {
    const auto add = [&](const QString& label, std::initializer_list<QWidget*> widgets) {
        auto* group = new QWidget(this);
        auto* row = new QHBoxLayout(group);
        row->setContentsMargins(0, 0, 0, 0);
        if (!label.isEmpty()) row->addWidget(new QLabel(label, group));
        for (QWidget* w : widgets) {
            w->setParent(group);
            row->addWidget(w);
        }
        flow->addWidget(group);
    };
    add(tr("Layer"), {target_.layer});
    add(tr("Head"), {target_.head});
    add(tr("Step"), {target_.step});
    add(tr("Decimals"), {target_.decimals});
    add(QString(), {create});
    add(tr("Hide"), {hiding_.kind});
    add(tr("Row"), {hiding_.row});
    add(tr("Random cells"), {hiding_.count});
    add(tr("Seed"), {hiding_.seed});
    add(tr("Worksheet"), {language_, exportSheet});
}

void ExerciseSettings::followTrace(int decimals) {
    target_.decimals->setValue(decimals);
    target_.layer->setRange(1, std::max(trace_.layerCount(), 1));
    target_.head->setRange(1, std::max(trace_.headCount(), 1));
    fillSteps();
}

void ExerciseSettings::fillSteps() {
    QComboBox* step = target_.step;
    const QVariant kept = step->currentData();
    QSignalBlocker block(step);
    step->clear();
    const int layer = target_.layer->value() - 1;
    if (layer < trace_.layerCount())
        for (const Step s : stepsOf(trace_, layer)) step->addItem(qs(stepTitleIn(trace_, s, layer, coreLanguage())), static_cast<int>(s));
    int at = step->findData(kept.isValid() ? kept : QVariant(static_cast<int>(Step::Weights)));
    if (at < 0) at = step->findData(static_cast<int>(Step::Weights));
    step->setCurrentIndex(std::max(at, 0));
    updateControls();
}

void ExerciseSettings::updateControls() {
    const HideKind hide = static_cast<HideKind>(hiding_.kind->currentIndex());
    hiding_.row->setEnabled(hide == HideKind::OneRow);
    hiding_.count->setEnabled(hide == HideKind::RandomCells);
    hiding_.seed->setEnabled(hide == HideKind::RandomCells);
    const ExerciseSpec s = spec();
    target_.head->setEnabled(isPerHead(s.step) && trace_.headCount() > 1);
    if (s.layer < trace_.layerCount() && (!isPerHead(s.step) || s.head < trace_.headCount()))
        hiding_.row->setMaximum(std::max<int>(1, static_cast<int>(stepMatrix(trace_, s.step, s.layer, s.head).rows())));
}

ExerciseSpec ExerciseSettings::spec() const {
    ExerciseSpec spec;
    const QVariant step = target_.step->currentData();
    spec.step = step.isValid() ? static_cast<Step>(step.toInt()) : Step::Weights;
    spec.layer = target_.layer->value() - 1;
    spec.head = target_.head->value() - 1;
    spec.decimals = target_.decimals->value();
    spec.hide = static_cast<HideKind>(hiding_.kind->currentIndex());
    spec.row = hiding_.row->value() - 1;
    spec.count = hiding_.count->value();
    spec.seed = static_cast<std::uint64_t>(hiding_.seed->value());
    return spec;
}

WorksheetPhrases ExerciseSettings::phrases() const {
    return language_->currentIndex() == 1 ? chineseWorksheetPhrases() : WorksheetPhrases{};
}

ExerciseTable::ExerciseTable(QWidget* parent) : QTableView(parent) {
    model_ = new ExerciseTableModel(this);
    setModel(model_);
    setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                    QAbstractItemView::AnyKeyPressed | QAbstractItemView::SelectedClicked);
    setSelectionMode(QAbstractItemView::SingleSelection);
    horizontalHeader()->setMinimumSectionSize(120);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

ExplanationBox::ExplanationBox(QWidget* parent) : QGroupBox(tr("Explanation of the selected blank"), parent) {
    auto* column = new QVBoxLayout(this);
    heading_ = new QLabel(this);
    heading_->setTextFormat(Qt::PlainText);  // token labels may hold any character
    heading_->setWordWrap(true);
    text_ = new QPlainTextEdit(this);
    text_->setReadOnly(true);
    text_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    reveal_ = new QPushButton(tr("Reveal next step"), this);
    answer_ = new QPushButton(tr("Show answer"), this);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(reveal_);
    buttons->addWidget(answer_);
    buttons->addStretch(1);
    column->addWidget(heading_);
    column->addWidget(text_, 1);
    column->addLayout(buttons);
    connect(reveal_, &QPushButton::clicked, this, &ExplanationBox::revealRequested);
    connect(answer_, &QPushButton::clicked, this, &ExplanationBox::answerRequested);
}

void ExplanationBox::setHeading(const QString& text) { heading_->setText(text); }

QString ExplanationBox::heading() const { return heading_->text(); }

void ExplanationBox::showLines(const QStringList& lines, bool canReveal, bool canShowAnswer) {
    text_->setPlainText(lines.join('\n'));
    reveal_->setEnabled(canReveal);
    answer_->setEnabled(canShowAnswer);
}

QString ExplanationBox::text() const { return text_->toPlainText(); }

}  // namespace attnscope
