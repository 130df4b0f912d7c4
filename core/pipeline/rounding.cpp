// Hand-rounding.  Works on any shape.
#include <cmath>

#include "core/pipeline/steps.hpp"

namespace attnscope {

double roundTo(double value, int decimals) {
    if (!std::isfinite(value)) return value;
    const double factor = std::pow(10.0, decimals);
    // A student decides halves on the decimal value they wrote, e.g. −1.5 + 1.35 = −0.15 → −0.2,
    // while the double holds −0.1499999999999999. Snapping to six further decimals first
    // recovers the written value; std::round then rounds halves away from zero, as a calculator.
    const double scaled = value * factor;
    const double snapped = std::round(scaled * 1e6) / 1e6;
    return std::round(snapped) / factor;
}

Mat roundTo(const Mat& m, int decimals) {
    return m.unaryExpr([decimals](double v) { return roundTo(v, decimals); });
}

}  // namespace attnscope
