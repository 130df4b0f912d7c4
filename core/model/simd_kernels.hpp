// The models' element-wise float steps (softmax rows, GELU, LayerNorm rows, residual adds) and
// BF16 row dot products, vectorised for the instruction set chosen at run time (issue 16). The
// build has no -march, so each level is compiled from one generic body into functions with GCC's
// target attribute (simd_kernels.cpp); nothing here is Eigen, so no inline template is built
// twice with two instruction sets. Every function takes the level explicitly (tests run each
// level the CPU can); callers pass activeSimdLevel() (core/model/blas_kernels.hpp).
//
// exp, erf and tanh are the polynomial / rational approximations Eigen's packet math uses
// (Cephes exp, Eigen's fast erf and tanh), a few float ulp from std::exp / std::erf / std::tanh.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/model/blas_kernels.hpp"

namespace attnscope {

// Softmax of row[0..valid) with the scores scaled by `scale` (> 0): exp((x − max)·scale) / sum;
// row[valid..n) is set to 0 (the causal mask's hidden tokens) and −∞ entries get exactly 0.
// Returns false, the row untouched, when the row has no finite maximum (valid = 0, all −∞,
// a +∞ or a NaN): the caller takes the general softmax (core/pipeline/softmax.cpp) for it.
bool softmaxRowScaled(SimdLevel level, float* row, std::size_t n, std::size_t valid, float scale);

void geluErfInPlace(SimdLevel level, float* x, std::size_t n);   // ½x(1 + erf(x/√2))
void geluTanhInPlace(SimdLevel level, float* x, std::size_t n);  // ½x(1 + tanh(√(2/π)(x + 0.044715x³)))
void siluInPlace(SimdLevel level, float* x, std::size_t n);      // x·σ(x) = x / (1 + e^(−x))

// (x − mean)/√(variance + eps)·gamma + beta over one row of n, in place; biased variance (torch).
void layerNormRow(SimdLevel level, float* row, std::size_t n, const float* gamma, const float* beta, float eps);

void addInPlace(SimdLevel level, float* y, const float* x, std::size_t n);  // y += x

// One row of a head's weights for its digest (core/trace/head_digest.cpp), in one pass: returns
// Σ w·ln w over row[0..n) (0·ln 0 = 0; float lanes, Cephes' log) and adds each w to mass[c] in
// double. A row with a negative, NaN or ±∞ weight returns NaN (its mass is added all the same).
float entropyAndMassRow(SimdLevel level, const float* row, std::size_t n, double* mass);

// out[r] = x·w_r for `rows` rows of n bfloat16 words (row-major, maybe at odd addresses): each
// product exact in double, the sums in double, rounded once to float. A tied BF16 embedding
// table's logits for a few rows, read once as it is stored (core/model/blocks.cpp, logitsOf).
void bf16RowDotProducts(SimdLevel level, const double* x, const std::uint8_t* words, std::size_t rows, std::size_t n,
                        float* out);

}  // namespace attnscope
