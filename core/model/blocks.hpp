#pragma once
// The float32 building blocks every family's forward pass is made of: projections (nn.Linear,
// GPT-2's Conv1D), a language-model head over a whole vocabulary, LayerNorm and RMSNorm, the
// activations and gated MLPs, row gathering, top-k predictions. Nothing here knows a family.
//
// Shape legend: T tokens, d model width, d_ff feed-forward width, V vocabulary size.
#include <functional>
#include <optional>
#include <vector>

#include "core/base/matrix.hpp"
#include "core/model/tensor_store.hpp"

namespace attnscope {

enum class Activation { GeluErf, GeluTanh, Relu, Silu };

// A weight matrix as the checkpoint stores it, owned by the TensorStore: floats (zero-copy for
// F32 files) or, for F16/BF16, the 16-bit words in the mapping, which the products widen to float
// a matrix at a time into a reused buffer: a BF16 model is never held twice (issue 25).
struct MatrixRef {
    const float* data = nullptr;           // F32; nullptr for 16-bit words
    Eigen::Index rows = 0, cols = 0;
    const std::uint8_t* halves = nullptr;  // F16/BF16 words, row-major, when data is nullptr
    DType dtype = DType::F32;

    bool present() const { return data != nullptr || halves != nullptr; }
    MatrixRef rowBlock(Eigen::Index first, Eigen::Index count) const;  // rows first…first+count−1, in place
    // Rows first…first+count−1 as floats into `out` (count×cols, row-major): a copy or a widening.
    void rowsInto(Eigen::Index first, Eigen::Index count, float* out) const;
    // Elements first…first+count−1 in row-major order, the same way (a slice of a widening).
    void elementsInto(std::size_t first, std::size_t count, float* out) const;
    MatF rowsAsFloat(Eigen::Index first, Eigen::Index count) const;  // count×cols
    MatF toFloat() const { return rowsAsFloat(0, rows); }            // rows×cols (Trace slices, small tables)
    const void* bytes() const { return data ? static_cast<const void*>(data) : halves; }
    std::size_t byteCount() const;  // rows·cols·(4 or 2)
};
struct VectorRef {
    const float* data = nullptr;
    Eigen::Index size = 0;
    ConstRowVecMapF view() const { return ConstRowVecMapF(data, size); }
};
// HF nn.Linear: weight [out, in], y = x·Wᵀ + b. GPT-2 Conv1D: weight [in, out], y = x·W + b.
// bias.data == nullptr: no bias (Llama's projections).
struct LinearRef {
    MatrixRef weight;
    VectorRef bias;
};
struct LayerNormRef {
    VectorRef gamma, beta;  // RMSNorm: gamma only
};

MatF linear(const MatF& X, const LinearRef& layer);  // T×in · (out×in)ᵀ + b → T×out
MatF conv1d(const MatF& X, const LinearRef& layer);  // T×in · in×out + b → T×out
// The same into a caller's buffer, resized only when its shape differs: a buffer reused across
// layers and runs costs no allocation and no page faults.
void linearInto(const MatF& X, const LinearRef& layer, MatF& Y);
void conv1dInto(const MatF& X, const LinearRef& layer, MatF& Y);
// X·tableᵀ (n×d · (V×d)ᵀ → n×V): a language-model head's logits over a whole vocabulary, through
// the projections' kernels (GPT-2's 154 MB table took ~30 ms a run as an Eigen matrix-vector
// product). With `releasePages` (RunControl's, set when a run releases its weights), the table's
// pages are let go block by block as soon as they are read, so the whole table is never resident
// on top of the Trace (GPT-2's window at 512 tokens: +98 MB at its peak otherwise).
MatF logitsOf(const MatF& X, const MatrixRef& table,
              const std::function<void(const void*, std::size_t)>& releasePages = {});
// One layer's intermediates (T×d, T×3d, T×d_ff), reused by every layer the calling thread runs,
// in this run and the next: at 512 tokens fresh ones page-faulted ~180 MB per bert-base run.
struct LayerBuffers {
    MatF q, k, v, qkv, normed, context, attended, inner, gate, out;
    std::size_t floats() const;  // held by all of them
};
LayerBuffers& threadLayerBuffers();
void layerNorm(MatF& X, const LayerNormRef& norm, float eps);  // each row, in place
// RMSNorm, each row in place: x / √(mean(x²) + eps) · w, computed in float as transformers'
// LlamaRMSNorm (which works in float32 whatever the weights' type). `plusOne`: Gemma's (1 + w).
void rmsNorm(MatF& X, const VectorRef& weight, float eps, bool plusOne = false);
void geluErf(MatF& X);   // x·Φ(x) = ½x(1 + erf(x/√2))
void geluTanh(MatF& X);  // ½x(1 + tanh(√(2/π)(x + 0.044715x³))), GPT-2's "gelu_new"
void silu(MatF& X);      // x·σ(x)
void activate(MatF& X, Activation activation);
// The gated MLPs (SwiGLU: silu, GeGLU: gelu_tanh): down(act(gate(X)) ⊙ up(X)), T×d → T×d.
void gatedMlpInto(const MatF& X, const LinearRef& gate, const LinearRef& up, const LinearRef& down, Activation act,
                  LayerBuffers& b, MatF& out);
void softmaxRows(MatF& X);  // each row, in place; -inf entries get 0
MatF gatherRows(const MatrixRef& table, const std::vector<int>& rows);  // |rows|×cols

// Converts a float matrix for the Trace.
Mat toDouble(const MatF& m);

struct TokenScore {
    int id = -1;
    float probability = 0;
    float logit = 0;
};
struct Prediction {
    int position = 0;              // the token whose output is read (decoders: predicts position + 1)
    std::vector<TokenScore> top;   // best first
    RowVecF logits;                // 1×V
};
// logits 1×V → the top-k tokens by probability (softmax over the whole vocabulary).
Prediction predictionFrom(int position, RowVecF logits, int topK);

// The index of the first NaN or ±∞ among n 16-bit words, if any (used on every F16/BF16 weight; floats:
// firstNonFinite in core/base/finite.hpp).
std::optional<Eigen::Index> firstNonFinite16(const std::uint8_t* words, Eigen::Index n, DType dtype);

// Row-major single-precision product C = A·op(B) + beta·C with leading dimensions (the row
// strides), so head slices of Q, K, V and of the context are used in place. A: m×k; op(B): k×n
// (B stored n×k when transB); C: m×n. `gemm`: OpenBLAS when the build found it, else Eigen.
void gemm(Eigen::Index m, Eigen::Index n, Eigen::Index k, const float* A, Eigen::Index lda, const float* B,
          Eigen::Index ldb, bool transB, float beta, float* C, Eigen::Index ldc);
void gemmEigen(Eigen::Index m, Eigen::Index n, Eigen::Index k, const float* A, Eigen::Index lda, const float* B,
               Eigen::Index ldb, bool transB, float beta, float* C, Eigen::Index ldc);
int productThreads();  // one setting governs every product (bench/README.md)
// slice(begin, end) over n items of `itemSize` floats each, on every product thread in slices of
// whole items, at least 128 KB each (fewer items: the calling thread alone). For element-wise
// steps, which would otherwise leave the other core idle between the products.
void forEachSlice(std::size_t n, std::size_t itemSize, const std::function<void(std::size_t, std::size_t)>& slice);

}  // namespace attnscope
