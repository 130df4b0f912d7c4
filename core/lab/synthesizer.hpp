#pragma once
// Synthesizer attention (Tay et al. 2020, "Synthesizer: Rethinking Self-Attention in
// Transformers") beside dot-product attention: score matrices B that do not compare tokens with
// each other. Each B is T×T; softmax of each row gives the weights, as for dot-product scores.
//
//   dot product        B = Q·Kᵀ/√d_k                  compares every pair of tokens
//   Dense              Bᵢ = relu(xᵢ·W₁ + b₁)·W₂ + b₂   row i from token i alone
//   Random             B = R                           ignores the tokens entirely
//   Factorized Dense   Bᵢ = tile(relu(xᵢ·W_A), b) ⊙ repeat(relu(xᵢ·W_B), a)   (a·b = ℓ)
//   Factorized Random  B = R₁·R₂ᵀ                      a fixed low-rank matrix
//   Mixture            B = Σ αᵢ·Bᵢ with Σ αᵢ = 1
// The model has room for ℓ tokens (the lesson's maximum length); a sentence of T ≤ ℓ tokens uses
// the first T columns (and, for Random, the first T rows).
//
// Shape legend: T tokens, d model width, ℓ maximum length, a·b = ℓ the factors, r the rank.
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/matrix.hpp"
#include "core/base/result.hpp"
#include "core/text/language.hpp"

namespace attnscope {

// Every weight, drawn from N(0, σ²) by LabRandom(seed) in the order listed, σ = 1/√(fan-in).
struct SynthesizerWeights {
    int length = 0;                // ℓ
    int factorA = 0, factorB = 0;  // a, b with a·b = ℓ
    int rank = 0;                  // r
    std::uint64_t seed = 0;
    Mat w1;  RowVec b1;            // d×d, 1×d
    Mat w2;  RowVec b2;            // d×ℓ, 1×ℓ
    Mat random;                    // ℓ×ℓ  R
    Mat wA, wB;                    // d×a, d×b
    Mat r1, r2;                    // ℓ×r  R₁, R₂
};
Result<SynthesizerWeights> makeSynthesizerWeights(int d, int length, int factorA, int rank, std::uint64_t seed);

Mat denseScores(const Mat& X, const SynthesizerWeights& w);             // T×d → T×T
Mat randomScores(int T, const SynthesizerWeights& w);                    // T×T
Mat factorizedDenseScores(const Mat& X, const SynthesizerWeights& w);   // T×d → T×T
Mat factorizedRandomScores(int T, const SynthesizerWeights& w);          // T×T
// Σ αᵢ·Bᵢ; the α must be finite, ≥ 0, one per matrix and sum to 1 (within 1e-9).
// Slider positions (≥ 0) scaled to sum to 1; all equal when every position is 0.
std::vector<double> normalizedAlphas(const std::vector<double>& positions);
Result<Mat> mixtureScores(const std::vector<Mat>& scores, const std::vector<double>& alphas);

struct SynthesizerVariant {
    std::string name;  // "Dot product", "Dense", … (core's catalogue, in the language asked for)
    Mat scores;        // T×T  B
    Mat weights;       // T×T  softmax of each row of B
};
// Every variant for X (T×d) and the dot-product scores already scaled (T×T, e.g. a head's
// scaledScores from the lesson's Trace); the mixture over the five with `alphas`. `mask` (T×T,
// 0 keeps, −∞ hides; empty: none, e.g. the head's mask) is added to every variant before its softmax.
Result<std::vector<SynthesizerVariant>> synthesizerVariants(const Mat& X, const Mat& dotProductScores,
                                                            const Mat& mask, const SynthesizerWeights& w,
                                                            const std::vector<double>& alphas,
                                                            Language language = Language::English);

}  // namespace attnscope
