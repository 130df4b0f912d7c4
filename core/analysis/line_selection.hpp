#pragma once
// Which weights the head view draws as lines. A fixed floor (0.01) leaves a 512-token layer
// blank, where a weight averages 0.002: a line is drawn when its weight reaches the floor OR is
// among the `topK` largest of its row (the query token's strongest links), so every token still
// shows where it looks.
#include <vector>

#include "core/base/matrix.hpp"
#include "core/trace/attention_weights.hpp"

namespace attnscope {

struct LineFilter {
    double minWeight = 0.01;  // drawn from this weight up (1 or more: none by weight)
    int topK = 0;             // and each row's k largest (0: off)
    bool operator==(const LineFilter&) const = default;
};

// Per row of `weights`, the smallest weight drawn: min(minWeight, the row's k-th largest).
// A line is drawn when w ≥ its row's threshold and w > 0 (ties at the k-th weight are all drawn;
// NaN never is). Empty for an empty matrix.
std::vector<double> rowLineThresholds(GridRef weights, const LineFilter& filter);

// Whether w is drawn in a row with `threshold` (see above).
inline bool drawsLine(double w, double threshold) { return w >= threshold && w > 0; }

}  // namespace attnscope
