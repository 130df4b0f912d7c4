#include "ui/heads/coref_set_row.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

#include "ui/common/job_progress.hpp"

namespace attnscope {

namespace {
const QString kOtherFile = QStringLiteral("<other file>");  // the set box's last entry
}

CorefSetRow::CorefSetRow(QWidget* parent) : QWidget(parent) {
    sets_ = new QComboBox(this);
    sets_->setObjectName("corefSet");
    sets_->addItem(tr("Other file…"), kOtherFile);
    evaluate_ = new QPushButton(tr("Evaluate"), this);
    evaluate_->setObjectName("evaluateHeads");
    evaluate_->setToolTip(evaluateTip());
    control_ = new QCheckBox(tr("Random-weights control"), this);
    control_->setObjectName("randomWeightsControl");
    control_->setToolTip(tr("Also evaluate a copy of the model with every tensor's weights shuffled (with the seed beside), "
                            "and show where its best head lands: a head that does not beat it has not shown it learned "
                            "coreference. Models only; the copy needs the model's size in memory."));
    seed_ = new QSpinBox(this);
    seed_->setObjectName("evaluationSeed");
    seed_->setRange(0, 2147483647);  // as the command line's heads --seed
    seed_->setValue(1);
    seed_->setPrefix(tr("seed "));
    seed_->setToolTip(tr("Seed of the random-weights control's shuffle and of the bootstrap intervals "
                         "(as attnscope heads --seed): the same seed gives the same numbers."));
    progress_ = new JobProgress(tr("sentence %v of %m"), "evaluationProgress", "cancelEvaluation", this);
    message_ = new QLabel(this);
    message_->setObjectName("evaluationMessage");
    message_->setWordWrap(true);
    // Caption, control, … in a margin-less row, as AttentionControls and the lab's ControlRow.
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Coreference set:"), this));
    layout->addWidget(sets_);
    layout->addWidget(control_);
    layout->addWidget(seed_);
    layout->addWidget(evaluate_);
    layout->addWidget(progress_);
    layout->addWidget(message_, 1);
    connect(sets_, &QComboBox::activated, this, &CorefSetRow::onChosen);
    connect(evaluate_, &QPushButton::clicked, this, [this] { emit evaluateRequested(source()); });
    connect(progress_, &JobProgress::cancelRequested, this, &CorefSetRow::cancelRequested);
}

void CorefSetRow::addSource(const QString& label, const QString& source) {
    sets_->insertItem(sets_->count() - 1, label, source);  // before "Other file…"
    if (sets_->currentData().toString() == kOtherFile) sets_->setCurrentIndex(sets_->count() - 2);
}

void CorefSetRow::chooseSource(const QString& source) {
    int index = sets_->findData(source);
    if (index < 0) {
        addSource(QFileInfo(source).fileName(), source);
        index = sets_->findData(source);
        sets_->setItemData(index, source, Qt::ToolTipRole);
    }
    sets_->setCurrentIndex(index);
}

QString CorefSetRow::source() const {
    const QString source = sets_->currentData().toString();
    return source == kOtherFile ? QString() : source;
}

void CorefSetRow::onChosen(int index) {
    if (sets_->itemData(index).toString() != kOtherFile) return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Coreference set"), QString(),
                                                      tr("Coreference sets (*.jsonl);;All files (*)"));
    if (path.isEmpty()) sets_->setCurrentIndex(0);
    else chooseSource(path);
}

QString CorefSetRow::evaluateTip() {
    return tr("Run every sentence of the set and measure how often each head attends most to the gold antecedent.");
}

void CorefSetRow::setEvaluating(bool running) {
    running_ = running;
    evaluate_->setEnabled(!running && unavailable_.isEmpty());
    progress_->setRunning(running);
    if (running) message_->clear();
}

void CorefSetRow::setUnavailable(const QString& why) {
    unavailable_ = why;
    evaluate_->setEnabled(!running_ && why.isEmpty());
    evaluate_->setToolTip(why.isEmpty() ? evaluateTip() : why);
}

void CorefSetRow::setProgress(int done, int total) { progress_->setProgress(done, total); }

void CorefSetRow::showMessage(const QString& text) { message_->setText(text); }
QString CorefSetRow::messageText() const { return message_->text(); }

}  // namespace attnscope
