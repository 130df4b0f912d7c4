#pragma once
// Axis labels of a heatmap thinned to what fits: every n-th token, n chosen from the axis font's
// metrics and the pixels one cell takes at the current zoom, so no two labels overlap at any zoom
// or font size; every token labelled once zoomed in enough, or once a slightly smaller font does.
#include <QFont>
#include <QStringList>
#include <vector>

class QCPAxis;

namespace attnscope {

// One label as drawn: its token (0-based in the axis' list) and the pixel interval it occupies
// along its axis (upright bottom labels: their width; left labels: their height; labels slanted
// by −45°: the band their line height takes, measured along the axis).
struct DrawnLabel {
    int token = 0;
    QString text;
    double from = 0;
    double to = 0;
};

// The pixel interval a label of `text` drawn at `center` occupies along an axis (see DrawnLabel);
// `alongText` is true for a bottom (key) axis, whose labels run along the axis when upright.
struct LabelExtent {
    double from = 0;
    double to = 0;
};
LabelExtent labelExtent(const QFont& font, const QString& text, double center, bool alongText, double rotation);

// Below this share of the plot's font labels are thinned instead of made smaller.
inline constexpr double kSmallestLabelShare = 0.8;

// Labels `axis` with every n-th of `labels` inside its current range, n the smallest step at
// which neighbours keep a gap, in `plotFont` or, where that labels every token in view, a font
// down to kSmallestLabelShare of it (set as the axis' tick label font); returns what it drew, in
// order. The axis' range and rotation must be set, and its axis rect laid out.
std::vector<DrawnLabel> thinLabels(QCPAxis* axis, const QStringList& labels, const QFont& plotFont);

// The step used (1 = every token) for labels needing `extent` pixels each, one cell being
// `pixelsPerCell` wide; `gap` pixels kept between neighbours.
int labelStep(double pixelsPerCell, double extent, double gap);

}  // namespace attnscope
