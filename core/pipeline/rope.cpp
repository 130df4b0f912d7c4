// Rotary position embedding (see rope.hpp).  Shapes: T tokens, d_k query/key width.
#include "core/pipeline/rope.hpp"

#include <cmath>
#include <numbers>

namespace attnscope {

namespace {

// transformers' _compute_llama3_parameters: wavelengths longer than the original context / low
// are divided by the factor, shorter than the original context / high are kept, and the ones
// between blend the two smoothly.
double llama3Frequency(double theta, const RopeScaling& s) {
    const double wavelength = 2 * std::numbers::pi / theta;
    const double lowWavelength = s.originalMaxPositions / s.lowFreqFactor;
    const double highWavelength = s.originalMaxPositions / s.highFreqFactor;
    if (wavelength > lowWavelength) return theta / s.factor;
    if (wavelength < highWavelength) return theta;
    const double smooth = (s.originalMaxPositions / wavelength - s.lowFreqFactor) / (s.highFreqFactor - s.lowFreqFactor);
    return (1 - smooth) * theta / s.factor + smooth * theta;
}

// Turns pair i of every row m, its columns (a, b) from ropePairColumns, by m·θ_i:
// (a, b) → (a·cos − b·sin, b·cos + a·sin).
template <typename Scalar>
void rotatePairs(Eigen::Ref<MatOf<Scalar>, 0, Eigen::OuterStride<>> x, const RopeTables<Scalar>& tables, bool interleaved) {
    const int half = static_cast<int>(tables.cos.cols());
    for (Eigen::Index m = 0; m < x.rows(); ++m)
        for (int i = 0; i < half; ++i) {
            const auto [first, second] = ropePairColumns(i, half, interleaved);
            const Scalar a = x(m, first), b = x(m, second);
            const Scalar c = tables.cos(m, i), s = tables.sin(m, i);
            x(m, first) = a * c - b * s;
            x(m, second) = b * c + a * s;
        }
}

}  // namespace

RowVec ropeFrequencies(int dK, double base, const RopeScaling& scaling) {
    RowVec theta(dK / 2);  // 1×d_k/2
    for (int i = 0; i < dK / 2; ++i) {
        const double plain = 1.0 / std::pow(base, static_cast<double>(2 * i) / dK);
        switch (scaling.type) {
            case RopeScaling::Type::None: theta(i) = plain; break;
            case RopeScaling::Type::Linear: theta(i) = plain / scaling.factor; break;
            case RopeScaling::Type::Llama3: theta(i) = llama3Frequency(plain, scaling); break;
        }
    }
    return theta;
}

template <typename Scalar>
RopeTables<Scalar> ropeTables(int T, const RowVec& frequencies) {
    const Eigen::Index half = frequencies.size();
    RopeTables<Scalar> t{MatOf<Scalar>(T, half), MatOf<Scalar>(T, half)};  // T×d_k/2 each
    for (int m = 0; m < T; ++m)
        for (Eigen::Index i = 0; i < half; ++i) {
            const double angle = m * frequencies(i);  // m·θ_i
            t.cos(m, i) = static_cast<Scalar>(std::cos(angle));
            t.sin(m, i) = static_cast<Scalar>(std::sin(angle));
        }
    return t;
}
template RopeTables<double> ropeTables(int, const RowVec&);
template RopeTables<float> ropeTables(int, const RowVec&);

template <typename Scalar>
void applyRope(Eigen::Ref<MatOf<Scalar>, 0, Eigen::OuterStride<>> x, const RopeTables<Scalar>& tables) {
    rotatePairs<Scalar>(x, tables, false);
}
template void applyRope(Eigen::Ref<MatOf<double>, 0, Eigen::OuterStride<>>, const RopeTables<double>&);
template void applyRope(Eigen::Ref<MatOf<float>, 0, Eigen::OuterStride<>>, const RopeTables<float>&);

template <typename Scalar>
void applyRopeInterleaved(Eigen::Ref<MatOf<Scalar>, 0, Eigen::OuterStride<>> x, const RopeTables<Scalar>& tables) {
    rotatePairs<Scalar>(x, tables, true);
}
template void applyRopeInterleaved(Eigen::Ref<MatOf<double>, 0, Eigen::OuterStride<>>, const RopeTables<double>&);

}  // namespace attnscope
