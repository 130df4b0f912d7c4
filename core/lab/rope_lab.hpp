#pragma once
// Lab ▸ Positional encoding, the RoPE page: why rotary encoding keeps relative positions in the
// score while added sinusoids do not, the frequency bands θ_i, and Llama 3's scaling of the long
// wavelengths. The rotation itself is core/pipeline/rope (the one the lessons and models use).
//
// Shape legend: d_k query/key width (even), m, n positions, s a shift.
#include <vector>

#include "core/base/matrix.hpp"
#include "core/base/result.hpp"
#include "core/pipeline/rope.hpp"

namespace attnscope {

// One shift s: q at position m + s against k at position n + s.
struct RopeShiftRow {
    int shift = 0;
    double ropeScore = 0;      // RoPE(q, m+s) · RoPE(k, n+s)
    double sinusoidScore = 0;  // (q + PE(m+s)) · (k + PE(n+s)), PE the sinusoidal encoding of width d_k
};

struct RopeShiftDemo {
    int m = 0, n = 0;
    std::vector<RopeShiftRow> rows;  // s = 0 … maxShift
    double ropeSpread = 0;           // max − min of ropeScore over the shifts (0 up to rounding)
    double sinusoidSpread = 0;       // max − min of sinusoidScore (it moves with the positions)
};

// q and k: 1×d_k each, d_k even, 2 … 256; 0 ≤ m, n ≤ 8192; 0 ≤ maxShift ≤ 4096. RoPE with θ_i = base^(−2i/d_k) and
// the Hugging Face pairing. Error naming what is wrong (widths, odd d_k, a negative position).
Result<RopeShiftDemo> ropeShiftDemo(const RowVec& q, const RowVec& k, int m, int n, int maxShift, double base);

// Band i: θ_i and its wavelength 2π/θ_i (positions per full turn), before and after `scaling`.
struct RopeBand {
    int index = 0;
    double theta = 0, wavelength = 0;
    double scaledTheta = 0, scaledWavelength = 0;
};
std::vector<RopeBand> ropeBands(int dK, double base, const RopeScaling& scaling);

// Llama 3.1's rope_scaling: factor 8, low_freq_factor 1, high_freq_factor 4, original context 8192.
RopeScaling llama3Scaling();

// The page's tables as matrices, for the figure cards' CSV, JSON and .npy export:
// shifts: one row per shift [s, m + s, n + s, RoPE score, sinusoid score] ((maxShift+1)×5);
// bands: one row per band [i, θ_i, wavelength, scaled θ_i, scaled wavelength] ((d_k/2)×5), the pair i
// counted from 1 as people count (θ_1 = 1).
Mat ropeShiftTable(const RopeShiftDemo& demo);
Mat ropeBandsTable(const std::vector<RopeBand>& bands);

}  // namespace attnscope
