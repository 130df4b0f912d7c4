#pragma once
// Rotary position embedding (RoPE) as Hugging Face applies it (transformers' apply_rotary_pos_emb
// with rotate_half): a head's vector x of width d_k is split in halves, and pair i (i < d_k/2)
// is the two entries x[i] and x[i + d_k/2], rotated by the angle m·θ_i at position m:
//   x'[i]         = x[i]·cos(m·θ_i) − x[i + d_k/2]·sin(m·θ_i)
//   x'[i + d_k/2] = x[i + d_k/2]·cos(m·θ_i) + x[i]·sin(m·θ_i)
// The original paper (Su et al., RoFormer) pairs neighbours instead: pair i is (x[2i], x[2i+1])
// (applyRopeInterleaved), the same rotation on other columns. Lessons offer both pairings.
// θ_i = base^(−2i/d_k), changed by rope_scaling ("linear": θ_i / factor; "llama3": long
// wavelengths / factor, short ones kept, a smooth blend between).
//
// Shape legend: T tokens, d_k query/key width.
#include <utility>

#include "core/base/matrix.hpp"

namespace attnscope {

struct RopeScaling {
    enum class Type { None, Linear, Llama3 } type = Type::None;
    double factor = 1;
    double lowFreqFactor = 1, highFreqFactor = 4;  // llama3
    double originalMaxPositions = 8192;            // llama3: original_max_position_embeddings
};

// θ_0 … θ_{d_k/2 − 1} (1×d_k/2), in double.
RowVec ropeFrequencies(int dK, double base, const RopeScaling& scaling = {});

// cos(m·θ_i) and sin(m·θ_i) for m = 0…T−1: T×(d_k/2) each, angles computed in double.
template <typename Scalar>
struct RopeTables {
    MatOf<Scalar> cos, sin;
};
template <typename Scalar>
RopeTables<Scalar> ropeTables(int T, const RowVec& frequencies);

// Rotates one head's rows in place: x is T×d_k (a head's columns of Q or K, used in place).
template <typename Scalar>
void applyRope(Eigen::Ref<MatOf<Scalar>, 0, Eigen::OuterStride<>> x, const RopeTables<Scalar>& tables);

// The same rotation with the paper's pairing: pair i is (x[2i], x[2i+1]), turned by m·θ_i.
template <typename Scalar>
void applyRopeInterleaved(Eigen::Ref<MatOf<Scalar>, 0, Eigen::OuterStride<>> x, const RopeTables<Scalar>& tables);

// The columns of pair i in a head of width 2·half: (i, i + half), or (2i, 2i+1) interleaved.
inline std::pair<int, int> ropePairColumns(int i, int half, bool interleaved) {
    return interleaved ? std::pair{2 * i, 2 * i + 1} : std::pair{i, i + half};
}

}  // namespace attnscope
