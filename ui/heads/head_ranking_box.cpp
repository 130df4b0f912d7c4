#include "ui/heads/head_ranking_box.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMouseEvent>
#include <QPushButton>
#include <QSpinBox>
#include <QToolTip>
#include <QVBoxLayout>
#include <cmath>
#include <qcustomplot.h>

#include "ui/heads/head_ranking_builder.hpp"

namespace attnscope {

namespace {

constexpr int kTopHeadsListed = 10;

QString percentText(double share) { return QString::number(100 * share, 'f', 1) + "%"; }

// "60.0% [20.0%, 100.0%] (3/5)": the accuracy, its bootstrap interval and the count.
QString scoreText(double accuracy, const Interval& interval, const QString& correct, int evaluated) {
    return QObject::tr("%1 [%2, %3] (%4/%5)")
        .arg(percentText(accuracy), percentText(interval.low), percentText(interval.high), correct)
        .arg(evaluated);
}

QString scoreText(const BaselineScore& b, const CorefEvaluation& e) {
    const bool whole = b.correct == std::floor(b.correct);
    return scoreText(b.accuracy, b.interval, QString::number(b.correct, 'f', whole ? 0 : 2), e.evaluated);
}

QString scoreText(const HeadAccuracy& h, const CorefEvaluation& e) {
    const QString text = scoreText(h.accuracy, h.interval, QString::number(h.correct), e.evaluated);
    return h.aboveRule() ? text + " ▲" : text;
}

const HeadAccuracy* rankedHead(const CorefEvaluation& e, const HeadRef& head) {
    for (const HeadAccuracy& h : e.ranking)
        if (h.head == head) return &h;
    return nullptr;
}

QString headText(const HeadRef& h) { return QObject::tr("layer %1 · head %2").arg(h.layer + 1).arg(h.head + 1); }

}  // namespace

BestHeadsRow::BestHeadsRow(QWidget* parent) : QWidget(parent) {
    count_ = new QSpinBox(this);
    count_->setRange(1, 1);
    count_->setPrefix(tr("best "));
    count_->setToolTip(tr("How many of the best heads the coreference view averages."));
    use_ = new QPushButton(tr("Use best head(s) for coreference"), this);
    use_->setObjectName("useBestHeads");
    export_ = new QPushButton(tr("Export…"), this);
    export_->setObjectName("exportRanking");
    export_->setMenu(buildExportMenu(export_));
    connect(use_, &QPushButton::clicked, this, [this] { emit useRequested(count_->value()); });
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    auto* useRow = new QHBoxLayout;
    useRow->addWidget(count_);
    useRow->addWidget(use_, 1);
    column->addLayout(useRow);
    column->addWidget(export_);
}

QMenu* BestHeadsRow::buildExportMenu(QWidget* parent) {
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

void BestHeadsRow::showEvaluated(int heads, bool usable) {
    count_->setRange(1, std::max(heads, 1));
    use_->setEnabled(usable);
    export_->setEnabled(true);
}

void BestHeadsRow::clear() {
    use_->setEnabled(false);
    export_->setEnabled(false);
}

HeadRankingBox::HeadRankingBox(QWidget* parent) : QWidget(parent) {
    buildPlot();
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(builder_->plot(), 3);
    layout->addLayout(buildSide(), 1);
}

HeadRankingBox::~HeadRankingBox() = default;

QCustomPlot* HeadRankingBox::plot() const { return builder_->plot(); }

// The heatmap of accuracies: a click selects a head, hovering tells its numbers.
void HeadRankingBox::buildPlot() {
    auto* plot = new QCustomPlot(this);
    plot->setObjectName("headRanking");
    plot->setMinimumSize(360, 180);  // beside the statistics at 1280×720 (taller left the panel cut)
    plot->setMouseTracking(true);
    builder_ = std::make_unique<HeadRankingBuilder>(plot);
    connect(plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (event->button() != Qt::LeftButton) return;
        if (const auto head = builder_->headAt(event->position())) emit headClicked(*head);
    });
    connect(plot, &QCustomPlot::mouseMove, this, [this, plot](QMouseEvent* event) {
        const QString text = builder_->hoverText(event->position());
        if (text.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(event->globalPosition().toPoint(), text, plot);
    });
}

// Beside the heatmap: the baselines, the best heads, the selected one, "use best" and exports.
QVBoxLayout* HeadRankingBox::buildSide() {
    baselines_ = new QLabel(this);
    baselines_->setObjectName("baselines");
    baselines_->setWordWrap(true);
    baselines_->setTextFormat(Qt::RichText);
    topHeads_ = new QListWidget(this);
    topHeads_->setObjectName("topHeads");
    selection_ = new QLabel(this);
    selection_->setObjectName("selectedHead");
    selection_->setWordWrap(true);
    best_ = new BestHeadsRow(this);
    connect(best_, &BestHeadsRow::useRequested, this, [this](int count) {
        if (evaluation_) emit useHeadsForCoreference(bestHeads(*evaluation_, count));
    });
    connect(best_, &BestHeadsRow::exportRequested, this, &HeadRankingBox::exportRequested);
    connect(topHeads_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (evaluation_ && row >= 0 && row < static_cast<int>(evaluation_->ranking.size()))
            emit headClicked(evaluation_->ranking[static_cast<std::size_t>(row)].head);
    });
    auto* side = new QVBoxLayout;
    side->addWidget(baselines_);
    side->addWidget(new QLabel(tr("Best heads:"), this));
    side->addWidget(topHeads_, 1);
    side->addWidget(selection_);
    side->addWidget(best_);
    return side;
}

void HeadRankingBox::showEvaluation(std::shared_ptr<const CorefEvaluation> evaluation, const QString& title) {
    evaluation_ = std::move(evaluation);
    if (!evaluation_) return clearEvaluation(title);
    builder_->build(*evaluation_, title);
    showBaselines(*evaluation_);
    showTopHeads(*evaluation_);
    const int heads = evaluation_->layers * evaluation_->headsPerLayer;
    best_->showEvaluated(heads, heads > 0 && evaluation_->evaluated > 0);
    showSelection();
}

void HeadRankingBox::clearEvaluation(const QString& message) {
    evaluation_.reset();
    builder_->clear(message);
    baselines_->setText(tr("Baselines appear here after an evaluation."));
    topHeads_->clear();
    best_->clear();
    showSelection();
}

void HeadRankingBox::showBaselines(const CorefEvaluation& e) {
    QString text = tr("<b>%1 of %2 examples evaluated</b> (%3 skipped)<br>")
                       .arg(e.evaluated)
                       .arg(e.outcomes.size())
                       .arg(e.skipped());
    text += tr("Random candidate (expected): %1<br>").arg(scoreText(e.random, e));
    text += tr("First candidate: %1<br>").arg(scoreText(e.first, e));
    text += tr("Nearest mention: %1<br>").arg(scoreText(e.nearest, e));
    text += tr("Rule-based: %1<br>").arg(scoreText(e.rule, e));
    text += tr("Attention rollout: %1").arg(scoreText(e.rollout, e));
    if (!e.ranking.empty()) text += tr("<br>Best head: %1").arg(scoreText(e.ranking.front(), e));
    text += tr("<br><small>[ ]: %1% bootstrap interval over the examples, %2 resamples, seed %3. "
               "▲: significantly above the rule baseline (paired), not corrected for choosing among %4 heads.</small>")
                .arg(std::lround(100 * e.bootstrap.level))
                .arg(e.bootstrap.resamples)
                .arg(e.bootstrap.seed)
                .arg(e.ranking.size());
    baselines_->setText(text);
}

void HeadRankingBox::showControl(const std::optional<ControlComparison>& control) {
    if (!control || !evaluation_) return;
    baselines_->setText(baselines_->text() +
                        tr("<br><b>Random-weights control</b> (weights shuffled, seed %1): best head %2 — %3, would rank "
                           "%4 among the trained heads")
                            .arg(control->seed)
                            .arg(headText(control->best.head), scoreText(control->best, *evaluation_))
                            .arg(control->trainedAbove + 1));
}

void HeadRankingBox::showTopHeads(const CorefEvaluation& e) {
    const QSignalBlocker blocker(topHeads_);
    topHeads_->clear();
    const int shown = std::min(kTopHeadsListed, static_cast<int>(e.ranking.size()));
    for (int i = 0; i < shown; ++i) {
        const HeadAccuracy& h = e.ranking[static_cast<std::size_t>(i)];
        topHeads_->addItem(tr("%1. %2 — %3").arg(i + 1).arg(headText(h.head), scoreText(h, e)));
    }
}

void HeadRankingBox::selectHead(std::optional<HeadRef> head) {
    builder_->selectHead(head);
    showSelection();
}

std::optional<HeadRef> HeadRankingBox::selectedHead() const { return builder_->selectedHead(); }

void HeadRankingBox::showSelection() {
    const auto head = builder_->selectedHead();
    if (!head || !evaluation_) return selection_->setText(tr("Click a cell to select a head."));
    const HeadAccuracy* ranked = rankedHead(*evaluation_, *head);
    if (!ranked) return selection_->setText(tr("Click a cell to select a head."));
    selection_->setText(tr("Selected: %1 — %2").arg(headText(*head), scoreText(*ranked, *evaluation_)));
}

}  // namespace attnscope
