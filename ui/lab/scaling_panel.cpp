#include "ui/lab/scaling_panel.hpp"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "core/kernels/vector_state.hpp"
#include "ui/lab/control_row.hpp"
#include "ui/lab/figure_export.hpp"
#include "ui/lab/lab_plots.hpp"
#include "ui/lab/plot_cards.hpp"

namespace attnscope {

namespace {

constexpr int kRuns = 5;   // runs per dimension of the sweep
constexpr int kKeys = 50;  // keys per run

QString settingName(bool scaled) { return scaled ? QObject::tr("scaled by 1/√d") : QObject::tr("unscaled"); }

// Log axes cannot show 0 (a gradient that underflowed): such points are left out, and said so.
void addPositive(DrawnSeries& s, double x, double y, int& leftOut) {
    if (y > 0) {
        s.x.push_back(x);
        s.y.push_back(y);
    } else ++leftOut;
}

}  // namespace

ScalingPanel::ScalingPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildControls());
    auto* grid = new QGridLayout;
    const QSize cardSize(320, 240);
    grid->addWidget(curveCard(this, sweepPlot_, "scaling-sweep", cardSize), 0, 0, 2, 1);
    grid->addWidget(curveCard(this, histogramPlot_, "scaling-histogram", cardSize), 0, 1);
    grid->addWidget(curveCard(this, entropyPlot_, "scaling-entropies", cardSize), 1, 1);
    grid->setColumnStretch(0, 3);
    grid->setColumnStretch(1, 2);
    layout->addLayout(grid, 1);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    layout->addWidget(summary_);
    refreshSweep();
}

ScalingPanel::~ScalingPanel() = default;

QWidget* ScalingPanel::buildControls() {
    ControlRow row(this);
    seed_ = spinBox(row.box(), 0, kMaxSeed, 2017);  // the reference experiment's seed (tests/core/test_lab_scaling.cpp)
    dimension_ = new QComboBox(row.box());
    for (const int d : powersOfTwoDimensions()) dimension_->addItem(QString::number(d), d);
    dimension_->setCurrentText(QStringLiteral("1024"));
    head_ = spinBox(row.box(), 1, 1, 1);
    row.add(tr("q and %1 keys from N(0, 1), %2 runs per d, seed").arg(kKeys).arg(kRuns), seed_)
        .add(tr("Distribution of q·k at d ="), dimension_)
        .add(tr("Sentence: layer 1, head"), head_);
    connect(seed_, &QSpinBox::valueChanged, this, &ScalingPanel::refreshSweep);
    connect(dimension_, &QComboBox::currentIndexChanged, this, &ScalingPanel::refreshHistogram);
    connect(head_, &QSpinBox::valueChanged, this, &ScalingPanel::refreshEntropies);
    return row.done();
}

void ScalingPanel::setTrace(const Trace& trace) {
    trace_ = trace;
    head_->setRange(1, std::max(trace_.headCount(), 1));
    refreshEntropies();
}

void ScalingPanel::refreshSweep() {
    const auto seed = static_cast<std::uint64_t>(seed_->value());
    const int generation = ++sweepGeneration_;
    sweepRunning_ = true;
    summary_->setText(tr("Running the experiment for seed %1…").arg(seed));
    // The worker owns nothing of the panel: it fills a shared result the GUI thread swaps in.
    auto result = std::make_shared<std::vector<ScalingSetting>>();
    QThread* worker = QThread::create([result, seed] {
        clearUpperVectorState();  // core's SSE2 code at full speed whatever Qt's code left behind
        *result = scalingSweep(powersOfTwoDimensions(), kRuns, kKeys, seed);
    });
    connect(worker, &QThread::finished, this, [this, result, seed, generation] {
        if (generation == sweepGeneration_) showSweep(std::move(*result), seed);
    });
    connect(worker, &QThread::finished, worker, &QObject::deleteLater);
    worker->start();
}

void ScalingPanel::showSweep(std::vector<ScalingSetting> sweep, std::uint64_t seed) {
    sweep_ = std::move(sweep);
    sweepRunning_ = false;
    sweepPlot_->begin(tr("Largest softmax gradient vs d (seed %1)").arg(seed), tr("dimension d"),
                      tr("largest |∂yᵢ/∂sⱼ|"), true, true);
    int leftOut = 0;
    for (const bool scaled : {false, true}) {
        DrawnSeries median{tr("median, %1").arg(settingName(scaled)), {}, {}, DrawnSeries::Line};
        DrawnSeries runs{tr("each run, %1").arg(settingName(scaled)), {}, {}, DrawnSeries::Points};
        for (const ScalingSetting& s : sweep_) {
            if (s.scaled != scaled) continue;
            addPositive(median, s.dimension, s.median, leftOut);
            for (const double g : s.largestGradients) addPositive(runs, s.dimension, g, leftOut);
        }
        sweepPlot_->add(median, labColour(scaled ? 0 : 1));
        sweepPlot_->add(runs, labColour(scaled ? 0 : 1));
    }
    sweepPlot_->setLegendBelow(2);  // the runs' points reach the lower left too: unscaled and scaled a row each
    sweepPlot_->finish();
    const ScalingSetting* unscaled1000 = nullptr;
    const ScalingSetting* scaled1000 = nullptr;
    for (const ScalingSetting& s : sweep_)
        if (s.dimension == 1024) (s.scaled ? scaled1000 : unscaled1000) = &s;
    QString text = tr("At d = 1024 the median largest gradient is %1 unscaled and %2 scaled: without the division "
                      "the softmax saturates and stops learning.")
                       .arg(QString::number(unscaled1000->median, 'e', 1), QString::number(scaled1000->median, 'e', 1));
    if (leftOut > 0) text += tr(" %1 values were exactly 0 (underflow) and cannot be drawn on a log scale.").arg(leftOut);
    summary_->setText(text);
    refreshHistogram();
}

void ScalingPanel::refreshHistogram() {
    const int d = dimension_->currentData().toInt();
    const auto seed = static_cast<std::uint64_t>(seed_->value());
    histogramPlot_->begin(tr("q·k at d = %1 (%2 runs × %3 keys)").arg(d).arg(kRuns).arg(kKeys), tr("score"),
                          tr("count"));
    for (const bool scaled : {false, true}) {
        const Histogram h = histogram(sweepScores(d, scaled, kRuns, kKeys, seed), 20);
        DrawnSeries bars{settingName(scaled), {}, {}, DrawnSeries::Steps};
        for (int b = 0; b < static_cast<int>(h.counts.size()); ++b) {
            bars.x.push_back(h.centre(b));
            bars.y.push_back(h.counts[b]);
        }
        histogramPlot_->add(bars, labColour(scaled ? 0 : 1));
    }
    histogramPlot_->setLegendBelow();  // the unscaled bars reach both upper corners
    histogramPlot_->finish();
}

void ScalingPanel::refreshEntropies() {
    entropyPlot_->begin(tr("Row entropy on the sentence (layer 1, head %1)").arg(head_->value()), QString(),
                        tr("entropy (nats)"));
    if (trace_.layers.empty() || trace_.tokenCount() == 0) {
        entropyPlot_->finish();
        return;
    }
    const ScalingComparison c = compareScaling(trace_.layers.at(0).heads.at(head_->value() - 1));
    QStringList labels;
    for (const Token& t : trace_.tokens) labels << QString::fromStdString(t.text);
    for (const bool scaled : {false, true}) {
        const Mat& entropies = scaled ? c.scaledEntropies : c.unscaledEntropies;  // T×1
        DrawnSeries s{scaled ? tr("with 1/√d_k (÷%1)").arg(c.divisor, 0, 'g', 4) : tr("without scaling"), {}, {},
                      DrawnSeries::Line};
        for (int i = 0; i < static_cast<int>(entropies.rows()); ++i) {
            s.x.push_back(i);
            s.y.push_back(entropies(i, 0));
        }
        entropyPlot_->add(s, labColour(scaled ? 0 : 1));
    }
    entropyPlot_->setXLabels(labels);
    entropyPlot_->setLegendBelow();  // the first tokens' points sit where any corner of the axes would be
    entropyPlot_->finish();
}

QString ScalingPanel::summaryText() const { return summary_->text(); }

}  // namespace attnscope
