#include "ui/heads/heads_panel.hpp"

#include <QComboBox>
#include <QFileInfo>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMouseEvent>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>
#include <cmath>
#include <qcustomplot.h>

#include "ui/heads/head_ranking_builder.hpp"
#include "ui/heads/head_stats_model.hpp"

namespace attnscope {

namespace {

constexpr int kTopHeadsListed = 10;
const QString kOtherFile = QStringLiteral("<other file>");  // the set box's last entry

QString percentText(double share) { return QString::number(100 * share, 'f', 1) + "%"; }

QString countText(int correct, const CorefEvaluation& e) {
    return QObject::tr("%1 (%2/%3)").arg(percentText(e.share(correct))).arg(correct).arg(e.evaluated);
}

QString headText(const HeadRef& h) { return QObject::tr("layer %1 · head %2").arg(h.layer + 1).arg(h.head + 1); }

}  // namespace

HeadsPanel::HeadsPanel(QWidget* parent) : QWidget(parent) {
    auto* vertical = new QSplitter(Qt::Vertical, this);
    auto* top = new QWidget(vertical);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(buildSetRow());
    topLayout->addWidget(buildRanking(), 1);
    vertical->addWidget(top);
    vertical->addWidget(buildStatistics());
    vertical->setStretchFactor(0, 3);
    vertical->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(vertical);
    setEvaluating(false);
    clearEvaluation(tr("Choose a coreference set and press Evaluate to rank every head."));
}

HeadsPanel::~HeadsPanel() = default;

QWidget* HeadsPanel::buildSetRow() {
    auto* row = new QWidget(this);
    sets_ = new QComboBox(row);
    sets_->setObjectName("corefSet");
    sets_->addItem(tr("Other file…"), kOtherFile);
    evaluate_ = new QPushButton(tr("Evaluate"), row);
    evaluate_->setObjectName("evaluateHeads");
    evaluate_->setToolTip(tr("Run every sentence of the set and measure how often each head attends most to the gold antecedent."));
    cancel_ = new QPushButton(tr("Cancel"), row);
    cancel_->setObjectName("cancelEvaluation");
    progress_ = new QProgressBar(row);
    progress_->setObjectName("evaluationProgress");
    progress_->setFormat(tr("sentence %v of %m"));
    progress_->setMaximumWidth(260);
    message_ = new QLabel(row);
    message_->setObjectName("evaluationMessage");
    message_->setWordWrap(true);
    // Caption, control, … in a margin-less row, as AttentionControls and the lab's ControlRow.
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Coreference set:"), row));
    layout->addWidget(sets_);
    layout->addWidget(evaluate_);
    layout->addWidget(cancel_);
    layout->addWidget(progress_);
    layout->addWidget(message_, 1);
    connect(sets_, &QComboBox::activated, this, &HeadsPanel::onSetChosen);
    connect(evaluate_, &QPushButton::clicked, this, [this] { emit evaluateRequested(setSource()); });
    connect(cancel_, &QPushButton::clicked, this, &HeadsPanel::cancelRequested);
    return row;
}

QWidget* HeadsPanel::buildRanking() {
    auto* box = new QWidget(this);
    buildRankingPlot(box);
    auto* layout = new QHBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_, 3);
    layout->addLayout(buildRankingSide(box), 1);
    return box;
}

// The heatmap of accuracies: a click selects a head, hovering tells its numbers.
void HeadsPanel::buildRankingPlot(QWidget* box) {
    plot_ = new QCustomPlot(box);
    plot_->setObjectName("headRanking");
    plot_->setMinimumSize(360, 260);
    plot_->setMouseTracking(true);
    builder_ = std::make_unique<HeadRankingBuilder>(plot_);
    connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (event->button() == Qt::LeftButton) onPlotClicked(event->position());
    });
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const QString text = builder_->hoverText(event->position());
        if (text.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(event->globalPosition().toPoint(), text, plot_);
    });
}

// Beside the heatmap: the baselines, the best heads, the selected one, "use best" and exports.
QVBoxLayout* HeadsPanel::buildRankingSide(QWidget* box) {
    baselines_ = new QLabel(box);
    baselines_->setObjectName("baselines");
    baselines_->setWordWrap(true);
    baselines_->setTextFormat(Qt::RichText);
    topHeads_ = new QListWidget(box);
    topHeads_->setObjectName("topHeads");
    selection_ = new QLabel(box);
    selection_->setObjectName("selectedHead");
    selection_->setWordWrap(true);
    bestCount_ = new QSpinBox(box);
    bestCount_->setRange(1, 1);
    bestCount_->setPrefix(tr("best "));
    bestCount_->setToolTip(tr("How many of the best heads the coreference view averages."));
    useBest_ = new QPushButton(tr("Use best head(s) for coreference"), box);
    useBest_->setObjectName("useBestHeads");
    export_ = new QPushButton(tr("Export…"), box);
    export_->setObjectName("exportRanking");
    export_->setMenu(buildExportMenu(export_));
    connect(useBest_, &QPushButton::clicked, this, &HeadsPanel::emitBestHeads);
    connect(topHeads_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (evaluation_ && row >= 0 && row < static_cast<int>(evaluation_->ranking.size()))
            selectHead(evaluation_->ranking[static_cast<std::size_t>(row)].head);
    });
    auto* side = new QVBoxLayout;
    side->addWidget(baselines_);
    side->addWidget(new QLabel(tr("Best heads:"), box));
    side->addWidget(topHeads_, 1);
    side->addWidget(selection_);
    auto* useRow = new QHBoxLayout;
    useRow->addWidget(bestCount_);
    useRow->addWidget(useBest_, 1);
    side->addLayout(useRow);
    side->addWidget(export_);
    return side;
}

QMenu* HeadsPanel::buildExportMenu(QWidget* parent) {
    auto* menu = new QMenu(parent);
    const std::pair<QString, QString> formats[] = {{"png", tr("Heatmap as PNG…")},
                                                   {"svg", tr("Heatmap as SVG…")},
                                                   {"pdf", tr("Heatmap as PDF…")},
                                                   {"csv", tr("Accuracies as CSV…")},
                                                   {"json", tr("Evaluation as JSON…")}};
    for (const auto& [format, text] : formats)
        menu->addAction(text, this, [this, format = format] { emit exportRequested(format); });
    return menu;
}

QWidget* HeadsPanel::buildStatistics() {
    auto* box = new QWidget(this);
    statsCaption_ = new QLabel(box);
    statsCaption_->setObjectName("statsCaption");
    statsCaption_->setWordWrap(true);
    statsModel_ = new HeadStatsModel(box);
    statsProxy_ = new QSortFilterProxyModel(box);
    statsProxy_->setSourceModel(statsModel_);
    statsProxy_->setSortRole(HeadStatsModel::kSortRole);
    statsTable_ = new QTableView(box);
    statsTable_->setObjectName("headStats");
    statsTable_->setModel(statsProxy_);
    statsTable_->setSortingEnabled(true);
    statsTable_->sortByColumn(-1, Qt::AscendingOrder);  // layer by layer until a header is clicked
    statsTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    statsTable_->setSelectionMode(QAbstractItemView::SingleSelection);
    statsTable_->verticalHeader()->hide();
    statsTable_->horizontalHeader()->setStretchLastSection(true);
    connect(statsTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                const int row = statsProxy_->mapToSource(current).row();
                if (row < 0) return;
                const HeadRef head = statsModel_->statistics()[static_cast<std::size_t>(row)].head;
                if (selectedHead() != head) selectHead(head);
            });
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(statsCaption_);
    layout->addWidget(statsTable_, 1);
    return box;
}

void HeadsPanel::addSetSource(const QString& label, const QString& source) {
    sets_->insertItem(sets_->count() - 1, label, source);  // before "Other file…"
    if (sets_->currentData().toString() == kOtherFile) sets_->setCurrentIndex(sets_->count() - 2);
}

void HeadsPanel::chooseSetSource(const QString& source) {
    int index = sets_->findData(source);
    if (index < 0) {
        addSetSource(QFileInfo(source).fileName(), source);
        index = sets_->findData(source);
        sets_->setItemData(index, source, Qt::ToolTipRole);
    }
    sets_->setCurrentIndex(index);
}

QString HeadsPanel::setSource() const {
    const QString source = sets_->currentData().toString();
    return source == kOtherFile ? QString() : source;
}

void HeadsPanel::onSetChosen(int index) {
    if (sets_->itemData(index).toString() != kOtherFile) return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Coreference set"), QString(),
                                                      tr("Coreference sets (*.jsonl);;All files (*)"));
    if (path.isEmpty()) sets_->setCurrentIndex(0);
    else chooseSetSource(path);
}

void HeadsPanel::showEvaluation(std::shared_ptr<const CorefEvaluation> evaluation, const QString& title) {
    evaluation_ = std::move(evaluation);
    if (!evaluation_) return clearEvaluation(title);
    builder_->build(*evaluation_, title);
    showBaselines(*evaluation_);
    showTopHeads(*evaluation_);
    const int heads = evaluation_->layers * evaluation_->headsPerLayer;
    bestCount_->setRange(1, std::max(heads, 1));
    useBest_->setEnabled(heads > 0 && evaluation_->evaluated > 0);
    export_->setEnabled(true);
    showSelection();
}

void HeadsPanel::clearEvaluation(const QString& message) {
    evaluation_.reset();
    builder_->clear(message);
    baselines_->setText(tr("Baselines appear here after an evaluation."));
    topHeads_->clear();
    useBest_->setEnabled(false);
    export_->setEnabled(false);
    showSelection();
}

void HeadsPanel::showBaselines(const CorefEvaluation& e) {
    QString text = tr("<b>%1 of %2 examples evaluated</b> (%3 skipped)<br>")
                       .arg(e.evaluated)
                       .arg(e.outcomes.size())
                       .arg(e.skipped());
    text += tr("Nearest mention: %1<br>").arg(countText(e.nearestCorrect, e));
    text += tr("Rule-based: %1<br>").arg(countText(e.ruleCorrect, e));
    text += tr("Attention rollout: %1").arg(countText(e.rolloutCorrect, e));
    if (!e.ranking.empty()) text += tr("<br>Best head: %1").arg(countText(e.ranking.front().correct, e));
    baselines_->setText(text);
}

void HeadsPanel::showTopHeads(const CorefEvaluation& e) {
    const QSignalBlocker blocker(topHeads_);
    topHeads_->clear();
    const int shown = std::min(kTopHeadsListed, static_cast<int>(e.ranking.size()));
    for (int i = 0; i < shown; ++i) {
        const HeadAccuracy& h = e.ranking[static_cast<std::size_t>(i)];
        topHeads_->addItem(tr("%1. %2 — %3").arg(i + 1).arg(headText(h.head), countText(h.correct, e)));
    }
}

void HeadsPanel::onPlotClicked(const QPointF& pixel) {
    if (const auto head = builder_->headAt(pixel)) selectHead(*head);
}

void HeadsPanel::selectHead(const HeadRef& head) {
    builder_->selectHead(head);
    showSelection();
    selectStatsRow(head);
    if (builder_->selectedHead() || statsModel_->rowOf(head) >= 0) emit headSelected(head);
}

std::optional<HeadRef> HeadsPanel::selectedHead() const { return builder_->selectedHead(); }

void HeadsPanel::showSelection() {
    const auto head = builder_->selectedHead();
    if (!head || !evaluation_) return selection_->setText(tr("Click a cell to select a head."));
    const int correct = static_cast<int>(std::lround(evaluation_->correct(head->layer, head->head)));
    selection_->setText(tr("Selected: %1 — %2").arg(headText(*head), countText(correct, *evaluation_)));
}

// The table follows the heatmap's selection (sorted or not).
void HeadsPanel::selectStatsRow(const HeadRef& head) {
    const int row = statsModel_->rowOf(head);
    if (row < 0) return;
    const QModelIndex index = statsProxy_->mapFromSource(statsModel_->index(row, 0));
    const QSignalBlocker blocker(statsTable_->selectionModel());
    statsTable_->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    // Hidden, the viewport has no height yet: scrolling now would push the first rows out of view.
    if (statsTable_->isVisible()) statsTable_->scrollTo(index);
}

void HeadsPanel::emitBestHeads() {
    if (!evaluation_) return;
    emit useHeadsForCoreference(bestHeads(*evaluation_, bestCount_->value()));
}

void HeadsPanel::setEvaluating(bool running) {
    evaluate_->setEnabled(!running);
    cancel_->setVisible(running);
    progress_->setVisible(running);
    if (running) {
        progress_->setRange(0, 0);  // busy until the first sentence reports
        message_->clear();
    }
}

void HeadsPanel::setProgress(int done, int total) {
    progress_->setRange(0, total);
    progress_->setValue(done);
}

void HeadsPanel::showMessage(const QString& text) { message_->setText(text); }
QString HeadsPanel::messageText() const { return message_->text(); }

void HeadsPanel::showStatistics(std::vector<HeadStatistics> stats, const QString& caption) {
    const auto selected = builder_->selectedHead();
    statsModel_->setStatistics(std::move(stats));
    statsCaption_->setText(caption);
    statsTable_->resizeColumnsToContents();
    if (selected) selectStatsRow(*selected);
}

}  // namespace attnscope
