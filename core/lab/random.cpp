#include "core/lab/random.hpp"

#include <cmath>

namespace attnscope {

std::uint64_t LabRandom::nextBits() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

double LabRandom::uniform() { return static_cast<double>(nextBits() >> 11) * 0x1.0p-53; }

double LabRandom::normal() {
    const double u1 = 1.0 - uniform();  // (0, 1]: the logarithm stays finite
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

Mat LabRandom::normalMatrix(Eigen::Index rows, Eigen::Index cols) {
    Mat m(rows, cols);
    for (Eigen::Index r = 0; r < rows; ++r)
        for (Eigen::Index c = 0; c < cols; ++c) m(r, c) = normal();
    return m;
}

}  // namespace attnscope
