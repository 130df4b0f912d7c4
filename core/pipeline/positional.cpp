// Positional encoding.  Shapes: T tokens, d model width.
#include <cmath>

#include "core/pipeline/steps.hpp"

namespace attnscope {

Mat sinusoidalEncoding(int T, int d) {
    Mat pe(T, d);  // T×d
    for (int pos = 0; pos < T; ++pos) {
        for (int c = 0; c < d; ++c) {
            const int pair = c / 2;  // columns 2i and 2i+1 share one frequency
            const double angle = pos / std::pow(10000.0, 2.0 * pair / d);
            pe(pos, c) = (c % 2 == 0) ? std::sin(angle) : std::cos(angle);
        }
    }
    return pe;
}

}  // namespace attnscope
