// Hand-rounding.  Works on any shape.
#include <cmath>

#include "core/pipeline/steps.hpp"

namespace attnscope {

double roundTo(double value, int decimals) {
    if (!std::isfinite(value)) return value;
    const double factor = std::pow(10.0, decimals);
    // std::round rounds halves away from zero, as a calculator does. The nudge of a few ulps
    // keeps values such as 0.125 (stored as 0.12499999…) rounding the way they are written.
    const double scaled = value * factor;
    const double nudged = scaled + std::copysign(std::abs(scaled) * 4e-16, scaled);
    return std::round(nudged) / factor;
}

Mat roundTo(const Mat& m, int decimals) {
    return m.unaryExpr([decimals](double v) { return roundTo(v, decimals); });
}

}  // namespace attnscope
