#pragma once
// The teaching lab's random numbers, fully specified so a seed shown on screen reproduces the
// same numbers on any machine and compiler (std::normal_distribution is implementation-defined):
//   uniform: SplitMix64 (Steele, Lea & Flood 2014), the top 53 bits as a double in [0, 1);
//   normal:  Box–Muller, z = √(−2 ln u₁) · cos(2π u₂) with u₁ taken as 1 − u (never 0).
#include <cstdint>

#include "core/base/matrix.hpp"

namespace attnscope {

class LabRandom {
public:
    explicit LabRandom(std::uint64_t seed) : state_(seed) {}
    std::uint64_t nextBits();
    double uniform();   // [0, 1)
    double normal();    // N(0, 1)
    Mat normalMatrix(Eigen::Index rows, Eigen::Index cols);  // row by row, left to right

private:
    std::uint64_t state_;
};

}  // namespace attnscope
