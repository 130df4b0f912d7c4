// The RoPE page of Lab ▸ Positional encoding (see rope_lab.hpp).  Shapes: d_k width, m, n positions.
#include "core/lab/rope_lab.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/pipeline/steps.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope {

namespace {

constexpr int kLargestPosition = 8192;
constexpr int kLargestShift = 4096;
constexpr int kLargestWidth = 256;

// Every position 0 … last holding x: (last+1)×d_k.
Mat repeated(const RowVec& x, int last) { return x.replicate(last + 1, 1); }

double spread(const std::vector<RopeShiftRow>& rows, double RopeShiftRow::*field) {
    const auto [low, high] = std::minmax_element(rows.begin(), rows.end(),
                                                 [&](const RopeShiftRow& a, const RopeShiftRow& b) { return a.*field < b.*field; });
    return (*high).*field - (*low).*field;
}

Result<void> checkPosition(const char* where, int value, int largest) {
    if (value >= 0 && value <= largest) return {};
    return Error{where, errorText(ErrorId::ExpectedFound, errorText(ErrorId::Range, 0, largest), value)};
}

}  // namespace

Result<RopeShiftDemo> ropeShiftDemo(const RowVec& q, const RowVec& k, int m, int n, int maxShift, double base) {
    if (k.size() != q.size())
        return Error{"k", errorText(ErrorId::ExpectedFound, errorText(ErrorId::CountNumbers, q.size()), k.size())};
    if (q.size() < 2 || q.size() > kLargestWidth)
        return Error{"q", errorText(ErrorId::ExpectedFound, errorText(ErrorId::CountNumbers, errorText(ErrorId::Range, 2, kLargestWidth)), q.size())};
    if (q.size() % 2 != 0) return Error{"q", errorText(ErrorId::RopeOddWidth, q.size())};
    if (auto e = checkPosition("m", m, kLargestPosition); !e.ok()) return e.error();
    if (auto e = checkPosition("n", n, kLargestPosition); !e.ok()) return e.error();
    if (auto e = checkPosition("shift", maxShift, kLargestShift); !e.ok()) return e.error();
    const int d = static_cast<int>(q.size()), last = std::max(m, n) + maxShift;
    const RopeTables<double> tables = ropeTables<double>(last + 1, ropeFrequencies(d, base));
    Mat turnedQ = repeated(q, last), turnedK = repeated(k, last);  // (last+1)×d_k: q (k) at every position
    applyRope<double>(turnedQ, tables);
    applyRope<double>(turnedK, tables);
    const Mat pe = sinusoidalEncoding(last + 1, d);  // (last+1)×d_k
    RopeShiftDemo demo{m, n, {}, 0, 0};
    for (int s = 0; s <= maxShift; ++s) {
        const double rope = turnedQ.row(m + s).dot(turnedK.row(n + s));
        const double sinusoid = (q + pe.row(m + s)).dot(k + pe.row(n + s));
        demo.rows.push_back({s, rope, sinusoid});
    }
    demo.ropeSpread = spread(demo.rows, &RopeShiftRow::ropeScore);
    demo.sinusoidSpread = spread(demo.rows, &RopeShiftRow::sinusoidScore);
    return demo;
}

std::vector<RopeBand> ropeBands(int dK, double base, const RopeScaling& scaling) {
    const RowVec plain = ropeFrequencies(dK, base), scaled = ropeFrequencies(dK, base, scaling);  // 1×d_k/2
    std::vector<RopeBand> bands;
    const double turn = 2 * std::numbers::pi;
    for (Eigen::Index i = 0; i < plain.size(); ++i)
        bands.push_back({static_cast<int>(i), plain(i), turn / plain(i), scaled(i), turn / scaled(i)});
    return bands;
}

RopeScaling llama3Scaling() { return RopeScaling{RopeScaling::Type::Llama3, 8, 1, 4, 8192}; }

Mat ropeShiftTable(const RopeShiftDemo& demo) {
    Mat table(static_cast<Eigen::Index>(demo.rows.size()), 5);  // (maxShift+1)×5
    for (std::size_t r = 0; r < demo.rows.size(); ++r) {
        const RopeShiftRow& row = demo.rows[r];
        table.row(static_cast<Eigen::Index>(r)) << row.shift, demo.m + row.shift, demo.n + row.shift, row.ropeScore, row.sinusoidScore;
    }
    return table;
}

Mat ropeBandsTable(const std::vector<RopeBand>& bands) {
    Mat table(static_cast<Eigen::Index>(bands.size()), 5);  // (d_k/2)×5
    for (std::size_t r = 0; r < bands.size(); ++r) {
        const RopeBand& b = bands[r];
        table.row(static_cast<Eigen::Index>(r)) << b.index + 1, b.theta, b.wavelength, b.scaledTheta, b.scaledWavelength;
    }
    return table;
}

}  // namespace attnscope
