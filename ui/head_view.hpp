#pragma once
// The head view, as bertviz draws it: the tokens twice, in two columns (left: the token that
// attends, the query; right: the token attended to, the key), and a line from left i to right j
// for every head whose weight w(i, j) is at least kMinWeight, with opacity w / scale max and one
// colour per head (several heads = several colours). Hover a left token to see only its lines,
// a right token to see only the lines into it.
//
// Lines below kMinWeight (0.01) are skipped: at 512 tokens a row spreads most of its weight in
// tiny amounts that would be invisible anyway, and skipping them keeps painting fast. Painting
// also culls to the scrolled-to part of the canvas (rows of kRowHeight px in a QScrollArea).
// The numbers (hidden tokens, renormalising, aggregates, scale maxima) come from
// core/analysis/head_summary.hpp.
#include <QColor>
#include <QRect>
#include <QWidget>
#include <optional>
#include <vector>

#include "core/trace.hpp"
#include "ui/attention_options.hpp"

class QHBoxLayout;
class QLabel;
class QScrollArea;
class QToolButton;

namespace attnscope {

class TokenLinesCanvas;

struct DrawnLine {
    int from = 0;       // query token (index into trace.tokens)
    int to = 0;         // key token (index into trace.tokens)
    int head = 0;       // HeadView::kAggregateHead for the mean / max over the selected heads
    double weight = 0;  // the weight shown (after hiding / renormalising)
    double alpha = 0;   // opacity, weight / scale max, at most 1
};

struct HoveredToken {
    enum Side { Left, Right } side = Left;
    int token = 0;  // index into trace.tokens
    bool operator==(const HoveredToken&) const = default;
};

class HeadView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kAggregateHead = -1;
    static constexpr double kMinWeight = 0.01;
    static constexpr int kRowHeight = 18;

    explicit HeadView(QWidget* parent = nullptr);
    ~HeadView() override;

    // `trace` must stay alive until the next showTrace. Empty `heads`: every head.
    void showTrace(const Trace& trace, int layer, std::vector<int> heads, const AttentionViewOptions& options);
    void showTrace(const Trace& trace, int layer, const AttentionViewOptions& options);  // every head
    void setOptions(const AttentionViewOptions& options);
    void setHeads(std::vector<int> heads);
    const AttentionViewOptions& options() const { return options_; }
    const std::vector<int>& heads() const { return heads_; }
    int layer() const { return layer_; }

    // What is drawn, for tests: every line shown in the current hover state (painting further
    // culls to the visible rows; see paintedLineCount).
    const std::vector<DrawnLine>& drawnLines() const { return shown_; }
    std::optional<HoveredToken> hoveredToken() const { return hovered_; }
    void setHoveredToken(std::optional<HoveredToken> token);
    const std::vector<int>& shownTokens() const { return keep_; }  // display order
    QRect tokenRect(HoveredToken::Side side, int token) const;      // canvas() coordinates
    int paintedLineCount() const;                                   // lines the last paint drew
    QString caption() const;
    QWidget* canvas() const;
    QScrollArea* scrollArea() const { return scroll_; }

    static QColor headColour(int head);

signals:
    void headsChanged(const std::vector<int>& heads);  // the user toggled a head button

private:
    friend class TokenLinesCanvas;
    void rebuild();
    void addLines(const Mat& shown, int head, double scaleMax);
    double scaleFor(const Mat& shown, double layerMax) const;
    void filterByHover();
    void rebuildHeadButtons();
    void toggleHead(int head, bool on);
    QString describe() const;

    const Trace* trace_ = nullptr;
    int layer_ = 0;
    std::vector<int> heads_;
    AttentionViewOptions options_;
    std::vector<int> keep_;
    std::vector<int> rowOf_;  // token → display row, -1 when hidden
    std::vector<DrawnLine> all_;
    std::vector<DrawnLine> shown_;
    std::optional<HoveredToken> hovered_;
    QLabel* caption_ = nullptr;
    QHBoxLayout* headButtons_ = nullptr;
    std::vector<QToolButton*> buttons_;
    QScrollArea* scroll_ = nullptr;
    TokenLinesCanvas* canvas_ = nullptr;
};

}  // namespace attnscope
