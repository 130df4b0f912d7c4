#pragma once
// Writes a small matrix the way a test's comment shows it: rows({{1, 2}, {3, 4}}); and a
// layer of hand-written attention weights.
#include <initializer_list>
#include <vector>

#include "core/base/matrix.hpp"
#include "core/trace/trace.hpp"

namespace attnscope::testing {

inline Mat rows(std::initializer_list<std::initializer_list<double>> values) {
    Mat m(values.size(), values.begin()->size());
    int r = 0;
    for (const auto& row : values) {
        int c = 0;
        for (const double v : row) m(r, c++) = v;
        ++r;
    }
    return m;
}

// A layer whose heads hold only these T×T weights (what the multi-head views and analyses read).
inline LayerTrace layerOf(const std::vector<Mat>& weights) {
    LayerTrace layer;
    for (const Mat& w : weights) {
        HeadTrace h;
        h.weights = w;
        layer.heads.push_back(h);
    }
    return layer;
}

}  // namespace attnscope::testing
