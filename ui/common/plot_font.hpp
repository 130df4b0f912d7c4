#pragma once
// A QCustomPlot's axes, titles, legend, colour scale and text items take their fonts once, when
// they are made; a plot that follows its widget's font (View ▸ Zoom reaching a window through the
// application font) scales all of them, and its minimum size, by the change of the widget's font.
class QCustomPlot;

namespace attnscope {

// From now on `plot` rescales its fonts on every font change, keeps its minimum height (as set
// now, for text of `laidOutForPoints`) grown by as much as its font is larger than that, and
// shrinks a title wider than the plot until it fits.
void followWidgetFont(QCustomPlot* plot, double laidOutForPoints);

// The plot property (an int) naming how many labelled rows the plot shows: a following plot keeps
// a line of its tick labels' height for each.
inline constexpr const char* kLabelledRows = "labelledRows";

}  // namespace attnscope
