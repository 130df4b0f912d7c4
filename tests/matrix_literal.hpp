#pragma once
// Writes a small matrix the way a test's comment shows it: rows({{1, 2}, {3, 4}}).
#include <initializer_list>

#include "core/matrix.hpp"

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

}  // namespace attnscope::testing
