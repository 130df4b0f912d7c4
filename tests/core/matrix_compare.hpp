#pragma once
// Matrix comparison for tests: on mismatch, reports the largest difference and the first
// mismatching cells, then fails hard. Infinities match only the same infinity.
#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>
#include <string>

#include "core/base/matrix.hpp"
#include "core/trace/attention_weights.hpp"

namespace attnscope::testing {

struct MatrixDiff {
    bool equal = true;
    std::string report;
};

inline bool cellsMatch(double expected, double actual, double tolerance) {
    if (std::isnan(expected) || std::isnan(actual)) return std::isnan(expected) && std::isnan(actual);
    if (std::isinf(expected) || std::isinf(actual)) return expected == actual;
    return std::abs(expected - actual) <= tolerance;
}

inline MatrixDiff compareMatrices(const Mat& expected, const Mat& actual, double tolerance,
                                  const std::string& what) {
    std::ostringstream out;
    out.precision(12);
    if (expected.rows() != actual.rows() || expected.cols() != actual.cols()) {
        out << what << ": shape differs, expected " << expected.rows() << "x" << expected.cols() << ", found "
            << actual.rows() << "x" << actual.cols();
        return {false, out.str()};
    }
    double largest = 0;
    int mismatches = 0;
    std::ostringstream cells;
    cells.precision(12);
    for (Eigen::Index r = 0; r < expected.rows(); ++r)
        for (Eigen::Index c = 0; c < expected.cols(); ++c) {
            const double e = expected(r, c), a = actual(r, c);
            if (cellsMatch(e, a, tolerance)) continue;
            const double diff = std::isfinite(e) && std::isfinite(a) ? std::abs(e - a) : INFINITY;
            largest = std::max(largest, diff);
            if (++mismatches <= 5) cells << "\n  (" << r << ", " << c << "): expected " << e << ", found " << a;
        }
    if (mismatches == 0) return {};
    out << what << ": " << mismatches << " cells differ by more than " << tolerance << "; largest difference "
        << largest << "; first mismatches:" << cells.str();
    return {false, out.str()};
}

// Attention weights in either precision (a float read as double is its exact value).
inline MatrixDiff compareMatrices(GridRef expected, GridRef actual, double tolerance, const std::string& what) {
    return compareMatrices(expected.toMat(), actual.toMat(), tolerance, what);
}

}  // namespace attnscope::testing

#define REQUIRE_MATRIX_NEAR(expected, actual, tolerance)                                               \
    do {                                                                                               \
        const auto diff_ = ::attnscope::testing::compareMatrices((expected), (actual), (tolerance),    \
                                                                 #actual);                             \
        INFO(diff_.report);                                                                            \
        REQUIRE(diff_.equal);                                                                          \
    } while (0)
