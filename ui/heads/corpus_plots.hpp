#pragma once
// Corpus statistics as Clark et al. (2019) drew them, in one QCustomPlot with three panels:
//  (a) one chosen statistic per head against its layer: x = layer (heads spread a little around
//      it, so they do not hide each other), y = the head's mean attention, one point per head;
//  (b) each head's mean row entropy, with a mark per layer at the entropy of a uniform row;
//  (c) the offset profile −K … +K of the selected head (bars).
// It renders core's CorpusStats (core/analysis/corpus_stats.hpp) and computes nothing; it
// records what it drew (points, baselines, bars) for tests. Okabe–Ito colours (colour-blind-safe).
#include <QByteArray>
#include <QPointF>
#include <QString>
#include <optional>
#include <vector>

#include "core/analysis/corpus_stats.hpp"

class QCustomPlot;
class QCPAxisRect;
class QCPTextElement;

namespace attnscope {

// The statistics panel (a) can show, in CorpusHeadStats' field order.
enum class CorpusStatistic { First, Last, Punctuation, Previous, Self, Next, SameToken };
inline constexpr int kCorpusStatisticCount = 7;

// "first token ([CLS])", "first token (<s>)", "first token" (no special token, or no statistics yet), …
QString corpusStatisticName(CorpusStatistic statistic, const CorpusStats* stats = nullptr);
double corpusStatisticOf(const CorpusHeadStats& head, CorpusStatistic statistic);  // the field, as is

// One point as drawn: x on the layer axis (1-based, spread), y the value.
struct DrawnCorpusPoint {
    HeadRef head;
    double x = 0, y = 0;
};

class CorpusPlotsBuilder {
public:
    explicit CorpusPlotsBuilder(QCustomPlot* plot);

    // `title` says what ran (source and file). Keeps a selected head that still exists; else none.
    void build(const CorpusStats& stats, CorpusStatistic statistic, const QString& title);
    void setStatistic(CorpusStatistic statistic);  // panel (a) shows another statistic
    void clear(const QString& message);
    void selectHead(std::optional<HeadRef> head);  // panel (c) shows its offsets

    // The head whose point (in (a) or (b)) is within a few pixels of `pixel`.
    std::optional<HeadRef> headAt(const QPointF& pixel) const;
    QPointF scatterPixelOf(const HeadRef& head) const;  // its point in (a) (tests click there)
    QPointF entropyPixelOf(const HeadRef& head) const;  // its point in (b)
    QString hoverText(const QPointF& pixel) const;      // "layer:head  value"

    // "png", "svg" or "pdf" (plotFigureBytes) at the plot's size, at least 960×400; else empty.
    QByteArray figureBytes(const QString& format) const;

    // What is drawn, for tests.
    const std::vector<DrawnCorpusPoint>& scatterPoints() const { return scatter_; }
    const std::vector<DrawnCorpusPoint>& entropyPoints() const { return entropy_; }
    const std::vector<double>& baselines() const { return baselines_; }  // one per layer
    const std::vector<double>& offsetBars() const { return bars_; }      // 2K+1, offset −K first
    std::optional<HeadRef> selectedHead() const { return selected_; }
    CorpusStatistic statistic() const { return statistic_; }
    QCustomPlot* plot() const { return plot_; }
    QString title() const;

private:
    void buildLayout();
    void redraw();
    void drawScatter(const CorpusStats& stats);
    void drawEntropy(const CorpusStats& stats);
    void drawOffsets();
    void drawSelection();
    void setLayerAxes(int layers);
    static std::optional<HeadRef> nearest(const std::vector<DrawnCorpusPoint>& points, const QCPAxisRect* rect,
                                          const QPointF& pixel);

    QCustomPlot* plot_;
    QCPTextElement* title_ = nullptr;
    QCPTextElement* panelTitles_[3] = {nullptr, nullptr, nullptr};
    QCPAxisRect* rects_[3] = {nullptr, nullptr, nullptr};  // (a), (b), (c)
    std::optional<CorpusStats> stats_;  // a copy: L·H small records
    CorpusStatistic statistic_ = CorpusStatistic::First;
    std::vector<DrawnCorpusPoint> scatter_, entropy_;
    std::vector<double> baselines_, bars_;
    std::optional<HeadRef> selected_;
};

}  // namespace attnscope
