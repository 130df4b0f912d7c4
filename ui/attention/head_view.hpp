#pragma once
// The head view, as bertviz draws it: the tokens twice, in two columns (left: the token that
// attends, the query; right: the token attended to, the key), and a line from left i to right j
// for every head whose weight w(i, j) passes the line filter, with opacity w / scale max and one
// colour per head (several heads = several colours). Hover a left token to see only its lines,
// a right token to see only the lines into it.
//
// Lines below the filter's floor (kMinWeight = 0.01 at first, set in the view) are skipped, except
// each token's k strongest when "strongest per token" is on: at 512 tokens a row spreads most of
// its weight in amounts of ~0.002, so a floor alone leaves the view blank (core/analysis/line_selection).
//
// Long inputs stay responsive (12 heads × 512 tokens is ~25,000 lines on a canvas ~9,000 px
// tall): the list of lines and the picture of them are made on a worker thread (QThreadPool).
// The lines come out of showTrace / setOptions / setHeads at once when the layer is small;
// otherwise drawnLines() is empty until the worker delivers them. The picture of every line is
// rendered once per (lines, canvas size) into a cached QImage by the worker (progress shown on
// the canvas, the previous picture stretched meanwhile); painting blits the visible part of it
// and draws the visible token labels. Hovering dims the picture and draws only the hovered
// token's lines on top: directly when they are a few hundred, else as another picture from the
// worker (the dimmed picture shows meanwhile). The numbers (hidden tokens, renormalising,
// aggregates, scale maxima) come from core/analysis/head_summary.hpp.
//
// Rows are as tall as the font needs (View ▸ Zoom scales it), so 512 tokens scroll (wheel,
// scroll bar, keys). Lines leaving the visible rows are cut at its edge, where a mark in the
// head's colour and a count ("12 lines to tokens above") say that they go on. A focus token
// (clicked, or chosen in the focus bar) shows only its lines, into it and out of it; hovering
// shows another token's for a while; Esc clears. The focus stays across layer and head changes.
#include <QColor>
#include <QImage>
#include <QRect>
#include <QThreadPool>
#include <QWidget>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/analysis/line_selection.hpp"
#include "core/trace/trace.hpp"
#include "ui/attention/attention_options.hpp"

class QDoubleSpinBox;
class QHBoxLayout;
class QLabel;
class QScrollArea;
class QSpinBox;
class QToolButton;

namespace attnscope {

class TokenLinesCanvas;
class TokenFocusBar;

struct DrawnLine {
    int from = 0;       // query token (index into trace.tokens)
    int to = 0;         // key token (index into trace.tokens)
    int head = 0;       // HeadView::kAggregateHead for the mean / max over the selected heads
    double weight = 0;  // the weight shown (after hiding / renormalising)
    double alpha = 0;   // opacity, weight / scale max, at most 1
};

struct HoveredToken {
    enum Side { Left, Right, Both } side = Left;  // Both: the focus token (lines out of and into it)
    int token = 0;  // index into trace.tokens
    bool operator==(const HoveredToken&) const = default;
};

// A label the last paint drew, for tests: the text's own bounds, not its cell.
struct HeadViewLabel {
    int token = 0;
    HoveredToken::Side side = HoveredToken::Left;
    QRect bounds;  // canvas() coordinates
};

// Where lines leave the visible rows, for tests and the marks. `above` / `below`: lines on screen
// with an end above / below the visible rows (a line may count in both); with a focus or hovered
// token, its lines off screen too.
struct EdgeMarks {
    struct Mark {
        bool top = true;
        int x = 0;       // canvas() coordinates, the line's crossing of the edge (bucketed)
        int head = 0;
        int lines = 0;   // lines crossing in this bucket
    };
    int above = 0, below = 0;
    std::vector<Mark> marks;
};

class HeadView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kAggregateHead = -1;
    static constexpr double kMinWeight = 0.01;
    static constexpr int kRowHeight = 18;  // at least; taller when the font is (rowHeight())

    explicit HeadView(QWidget* parent = nullptr);
    ~HeadView() override;

    // `trace` must stay alive until the next showTrace. Empty `heads`: every head.
    void showTrace(const Trace& trace, int layer, std::vector<int> heads, const AttentionViewOptions& options);
    void showTrace(const Trace& trace, int layer, const AttentionViewOptions& options);  // every head
    void setOptions(const AttentionViewOptions& options);
    void setHeads(std::vector<int> heads);
    const AttentionViewOptions& options() const { return options_; }
    // Which weights are lines: the floor and "strongest per token" controls above the canvas.
    void setLineFilter(const LineFilter& filter);
    const LineFilter& lineFilter() const { return filter_; }
    const std::vector<int>& heads() const { return heads_; }
    int layer() const { return layer_; }

    // What is drawn, for tests: every line shown in the current hover state (the cached picture
    // holds all of them; see paintedLineCount for the part a paint showed). Empty while the
    // worker is still extracting the lines of a large layer.
    const std::vector<DrawnLine>& drawnLines() const { return active() ? shown_ : *all_; }
    std::optional<HoveredToken> hoveredToken() const { return hovered_; }
    void setHoveredToken(std::optional<HoveredToken> token);
    // The focus token (index into trace.tokens): only its lines, both ways; scrolled into view.
    // Nothing when hidden or out of range. Survives layer and head changes.
    void setFocusToken(std::optional<int> token);
    std::optional<int> focusToken() const;
    int rowHeight() const;
    std::pair<int, int> paintedRows() const;  // display rows the last paint covered (-1, -1: none)
    const std::vector<HeadViewLabel>& drawnLabels() const;
    const EdgeMarks& edgeMarks() const;  // of the last paint
    const std::vector<int>& shownTokens() const { return keep_; }  // display order
    QRect tokenRect(HoveredToken::Side side, int token) const;      // canvas() coordinates
    // Lines the last paint showed: of the cached picture, those crossing the painted rows (none
    // while it is being rendered); when hovering, the hovered token's lines drawn over it.
    int paintedLineCount() const;
    QString caption() const;
    QWidget* canvas() const;
    QScrollArea* scrollArea() const { return scroll_; }

    // `paper`: what the lines are drawn on (the mean/max colour contrasts with it).
    static QColor headColour(int head, QColor paper = Qt::white);

protected:
    void keyPressEvent(QKeyEvent* event) override;  // Esc clears the focus token
    bool event(QEvent* event) override;             // ... before a window's Esc shortcut takes it

signals:
    void headsChanged(const std::vector<int>& heads);  // the user toggled a head button

private:
    friend class TokenLinesCanvas;
    // What the cached picture was rendered for.
    struct ImageKey {
        std::uint64_t lines = 0;  // linesGeneration_
        // The picture covers canvas y windowTop … windowTop + height: the whole band, or for a
        // long input (tens of thousands of px) a few screens around the visible rows.
        int width = 0, height = 0, top = 0, rowHeight = kRowHeight;
        double dpr = 1;
        QRgb base = 0;
        int windowTop = 0;
        bool operator==(const ImageKey&) const = default;
    };
    void rebuild();
    void cancelWork(bool wait);
    void acceptLines(std::uint64_t generation, std::shared_ptr<const std::vector<DrawnLine>> lines);
    void requestImage(const ImageKey& key);
    void acceptImage(const ImageKey& key, QImage image);
    void acceptProgress(const ImageKey& key, int percent);
    void requestHoverImage(const ImageKey& key, const HoveredToken& token);
    void acceptHoverImage(const ImageKey& key, const HoveredToken& token, QImage image);
    void filterByHover();
    std::optional<HoveredToken> active() const { return hovered_ ? hovered_ : focus_; }  // hover wins
    void rebuildHeadButtons();
    QLayout* buildFilterRow();
    void toggleHead(int head, bool on);
    QString describe() const;

    const Trace* trace_ = nullptr;
    int layer_ = 0;
    std::vector<int> heads_;
    AttentionViewOptions options_;
    LineFilter filter_{kMinWeight, 0};
    QDoubleSpinBox* floor_ = nullptr;
    QSpinBox* topK_ = nullptr;
    std::vector<int> keep_;
    std::vector<int> rowOf_;  // token → display row, -1 when hidden
    std::shared_ptr<const std::vector<DrawnLine>> all_;  // never null
    std::vector<DrawnLine> shown_;                        // the hovered token's lines
    std::optional<HoveredToken> hovered_;
    std::optional<HoveredToken> focus_;  // side Both
    TokenFocusBar* focusBar_ = nullptr;
    std::uint64_t linesGeneration_ = 0;
    bool linesPending_ = false;  // the worker is extracting the lines
    QImage linesImage_;          // every line, between the token columns (may be stale: see imageKey_)
    ImageKey imageKey_;
    std::optional<ImageKey> pendingImage_;  // being rendered by the worker
    int renderPercent_ = 0;
    // Hovering a token with many lines ([SEP] at 512 tokens: thousands): the dimmed picture with
    // those lines on top, rendered by the worker too.
    QImage hoverImage_;
    std::optional<std::pair<ImageKey, HoveredToken>> hoverKey_, pendingHover_;
    std::shared_ptr<std::atomic<bool>> linesCancel_;
    std::shared_ptr<std::atomic<bool>> renderCancel_;
    QThreadPool pool_;  // one worker: lines, then their picture
    QLabel* caption_ = nullptr;
    QHBoxLayout* headButtons_ = nullptr;
    std::vector<QToolButton*> buttons_;
    QScrollArea* scroll_ = nullptr;
    TokenLinesCanvas* canvas_ = nullptr;
};

}  // namespace attnscope
