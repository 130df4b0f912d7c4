// The float32 building blocks (see blocks.hpp).
//
// Shape legend: T tokens, d model width, d_ff feed-forward width, V vocabulary size.
#include "core/model/blocks.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <numeric>

#include "core/model/bf16_products.hpp"
#include "core/model/safetensors.hpp"
#include "core/model/sgemm.hpp"
#include "core/model/simd_kernels.hpp"
#include "core/pipeline/steps.hpp"

#ifdef ATTNSCOPE_HAVE_OPENBLAS
#include <cblas.h>  // OpenBLAS: CPU-dispatched SGEMM kernels (see the top-level CMakeLists.txt)
#endif

namespace attnscope {

void gemmEigen(Eigen::Index m, Eigen::Index n, Eigen::Index k, const float* A, Eigen::Index lda, const float* B,
               Eigen::Index ldb, bool transB, float beta, float* C, Eigen::Index ldc) {
    using Stride = Eigen::OuterStride<>;
    const Eigen::Map<const MatF, 0, Stride> a(A, m, k, Stride(lda));
    Eigen::Map<MatF, 0, Stride> c(C, m, n, Stride(ldc));
    if (beta == 0.0f) c.setZero();
    if (transB)
        c.noalias() += a * Eigen::Map<const MatF, 0, Stride>(B, n, k, Stride(ldb)).transpose();
    else
        c.noalias() += a * Eigen::Map<const MatF, 0, Stride>(B, k, n, Stride(ldb));
}

// The same for the large products (the projections and the feed-forward layers): OpenBLAS when the
// build found it (its kernel chosen for the running CPU at load time, threaded), else Eigen. The
// per-head attention products use it too (multiHeadAttentionInto).
void gemm(Eigen::Index m, Eigen::Index n, Eigen::Index k, const float* A, Eigen::Index lda, const float* B,
          Eigen::Index ldb, bool transB, float beta, float* C, Eigen::Index ldc) {
#ifdef ATTNSCOPE_HAVE_OPENBLAS
    cblas_sgemm(CblasRowMajor, CblasNoTrans, transB ? CblasTrans : CblasNoTrans, static_cast<blasint>(m),
                static_cast<blasint>(n), static_cast<blasint>(k), 1.0f, A, static_cast<blasint>(lda), B,
                static_cast<blasint>(ldb), beta, C, static_cast<blasint>(ldc));
#else
    gemmEigen(m, n, k, A, lda, B, ldb, transB, beta, C, ldc);
#endif
}

int productThreads() { return productThreadCount(); }  // one setting governs every product (bench/README.md)

namespace {

// Word i of 16-bit weights in the mapping, which may hold them at odd offsets.
inline std::uint16_t wordAt(const std::uint8_t* words, std::size_t i) {
    std::uint16_t bits = 0;
    std::memcpy(&bits, words + 2 * i, 2);
    return bits;
}

// bfloat16 words → floats: a bfloat16 is a float's upper half. In blocks of a fixed length and
// apart from the F16 branch so that the compiler vectorises it (widening feeds every product of
// a BF16 checkpoint: scalar, it was 6 % of a 512-token run of Qwen2.5-0.5B). Not inlined: inlined
// into rowsInto, GCC dropped the __restrict and kept the loop scalar.
[[gnu::noinline]] void widenBf16(const std::uint8_t* __restrict words, std::size_t n, float* __restrict out) {
    const auto widenOne = [&](std::size_t i) {
        const std::uint32_t wide = static_cast<std::uint32_t>(wordAt(words, i)) << 16;
        std::memcpy(out + i, &wide, sizeof wide);
    };
    constexpr std::size_t kBlock = 1024;
    std::size_t start = 0;
    for (; start + kBlock <= n; start += kBlock)
        for (std::size_t i = 0; i < kBlock; ++i) widenOne(start + i);
    for (std::size_t i = start; i < n; ++i) widenOne(i);
}

// A 16-bit weight widened for one product: the calling thread's buffer, reused by every product
// it runs (at most the largest matrix a layer or a logits block holds, never the whole model).
// Widened on every product thread: on one, it was 12 % of a 512-token run of Llama-3.2-1B
// while the other core waited. The buffer only grows: a vector resized from a layer's smaller
// matrix to its larger one zero-filled the difference first (2.6 % of a 512-token run of
// Qwen2.5-0.5B on one thread, every element then written over).
const float* widened(const MatrixRef& W) {
    if (W.data) return W.data;
    thread_local std::vector<float> buffer;
    const auto n = static_cast<std::size_t>(W.rows * W.cols);
    if (buffer.size() < n) buffer.resize(n);
    float* out = buffer.data();
    forEachSlice(n, 1, [&](std::size_t begin, std::size_t end) { W.elementsInto(begin, end - begin, out + begin); });
    return out;
}

// Y = bias + X·op(W) for the projections and feed-forward layers: BF16 weights in BF16 where that
// path is chosen (bf16_products.hpp), else our own kernel where it beats OpenBLAS (sgemm.hpp,
// ownSgemmWins), else gemm. Those two add to Y, which starts as the bias or zeros; without a bias
// OpenBLAS writes Y itself (beta 0): zeroing it first, on one thread, was 1.4 % of a 512-token run
// of Qwen2.5-0.5B.
void weightProduct(const MatF& X, const MatrixRef& W, bool transB, const VectorRef& bias, MatF& Y) {
    const int threads = productThreads();
    const bool ours = ownSgemmWins(X.rows(), Y.cols(), X.cols(), transB, threads);
    const bool overwrite = !bias.data && !ours && !multipliedInBf16(W);
    if (bias.data) Y.rowwise() = bias.view();
    else if (!overwrite) Y.setZero();
    if (bf16ProductInto(X, W, transB, Y)) return;
    const SgemmArgs args{X.rows(), Y.cols(), X.cols(), X.data(), X.cols(), widened(W), W.cols, transB, Y.data(), Y.cols()};
    if (ours && ownSgemm(args, threads)) return;
    gemm(args.m, args.n, args.k, args.a, args.lda, args.b, args.ldb, transB, overwrite ? 0.0f : 1.0f, args.c, args.ldc);
}

}  // namespace

void linearInto(const MatF& X, const LinearRef& layer, MatF& Y) {
    Y.resize(X.rows(), layer.weight.rows);  // T×out; no reallocation when the buffer already fits
    weightProduct(X, layer.weight, true, layer.bias, Y);  // W out×in
}

void conv1dInto(const MatF& X, const LinearRef& layer, MatF& Y) {
    Y.resize(X.rows(), layer.weight.cols);  // T×out
    weightProduct(X, layer.weight, false, layer.bias, Y);  // W in×out
}

namespace {

// A decoder's next token reads a tied BF16 table (Qwen2.5-0.5B's 272 MB, Llama-3.2-1B's 525 MB)
// for one row: up to this many rows, each table row's dot products read its words once
// (bf16RowDotProducts, in double), not a block widened to floats, written and read again by a
// product: 0.12 s of Qwen2.5-0.5B's 2.3 s to its first heatmap at 512 tokens. More rows (the
// logit lens) go through the products, which reuse each widened block.
constexpr Eigen::Index kRowDotsUpTo = 4;
constexpr std::size_t kRowDotsBlockBytes = std::size_t{8} << 20;  // released a block at a time, as below

MatF bf16Logits(const MatF& X, const MatrixRef& table, const std::function<void(const void*, std::size_t)>& releasePages) {
    const auto n = static_cast<std::size_t>(table.cols);
    MatF logits(X.rows(), table.rows);                       // n×V
    const Eigen::MatrixXd rows = X.cast<double>().transpose();  // d×n: column j is X's row j
    const auto blockRows = static_cast<Eigen::Index>(std::max<std::size_t>(1, kRowDotsBlockBytes / (2 * n)));
    const SimdLevel level = activeSimdLevel();
    for (Eigen::Index r0 = 0; r0 < table.rows; r0 += blockRows) {
        const MatrixRef part = table.rowBlock(r0, std::min(blockRows, table.rows - r0));
        for (Eigen::Index j = 0; j < X.rows(); ++j)
            runInSlices(static_cast<std::size_t>(part.rows), 256, productThreads(), [&](std::size_t begin, std::size_t end) {
                bf16RowDotProducts(level, rows.col(j).data(), part.halves + 2 * begin * n, end - begin, n,
                                   logits.row(j).data() + r0 + static_cast<Eigen::Index>(begin));
            });
        if (releasePages) releasePages(part.bytes(), part.byteCount());
    }
    return logits;
}

}  // namespace

// In blocks of rows when the pages are released or the table is 16-bit (a widened block, never
// the whole table: Qwen's 151,936 × 896 would be 545 MB of floats).
MatF logitsOf(const MatF& X, const MatrixRef& table, const std::function<void(const void*, std::size_t)>& releasePages) {
    if (table.halves && table.dtype == DType::BF16 && X.rows() <= kRowDotsUpTo) return bf16Logits(X, table, releasePages);
    MatF logits(X.rows(), table.rows);  // n×V, no bias
    if (!releasePages && table.data) {
        weightProduct(X, table, true, {}, logits);
        return logits;
    }
    // Blocks of about 1 MiB of floats: a 16-bit table's block, widened, is still in the cache when
    // the product reads it (8,192 rows, 28 MB for Qwen2.5-0.5B, went to memory and back).
    const Eigen::Index blockRows = std::max<Eigen::Index>(64, (Eigen::Index{1} << 18) / std::max<Eigen::Index>(1, table.cols));
    MatF block;
    for (Eigen::Index r0 = 0; r0 < table.rows; r0 += blockRows) {
        const MatrixRef part = table.rowBlock(r0, std::min(blockRows, table.rows - r0));
        block.resize(X.rows(), part.rows);  // n×rows of the logits
        weightProduct(X, part, true, {}, block);
        logits.middleCols(r0, part.rows) = block;
        if (releasePages) releasePages(part.bytes(), part.byteCount());
    }
    return logits;
}

MatF linear(const MatF& X, const LinearRef& layer) {
    MatF Y;
    linearInto(X, layer, Y);
    return Y;
}

MatF conv1d(const MatF& X, const LinearRef& layer) {
    MatF Y;
    conv1dInto(X, layer, Y);
    return Y;
}

std::size_t LayerBuffers::floats() const {
    std::size_t n = 0;
    for (const MatF* m : {&q, &k, &v, &qkv, &normed, &context, &attended, &inner, &gate, &out})
        n += static_cast<std::size_t>(m->size());
    return n;
}

LayerBuffers& threadLayerBuffers() {
    thread_local LayerBuffers buffers;  // the window's model worker keeps its own across runs
    return buffers;
}

// The element-wise steps run on the SIMD level chosen at start-up (core/model/simd_kernels.hpp):
// Eigen here is compiled for SSE2 only (no -march). They run in slices on every product thread
// (forEachSlice): on one, the activations, the gate's product, RoPE and the norms were 1.3 s of
// Llama-3.2-1B's 4,096-token forward pass while the other core waited. Each element (each row of
// a norm) is computed as on one thread: the results are the same bits.
void forEachSlice(std::size_t n, std::size_t itemSize, const std::function<void(std::size_t, std::size_t)>& slice) {
    constexpr std::size_t kGrainFloats = std::size_t{1} << 15;  // 128 KB: a slice is worth a wake-up
    runInSlices(n, std::max<std::size_t>(1, kGrainFloats / std::max<std::size_t>(itemSize, 1)), productThreads(), slice);
}

namespace {

void activateSlice(float* x, std::size_t n, Activation activation) {
    const SimdLevel level = activeSimdLevel();
    switch (activation) {
        case Activation::GeluErf: geluErfInPlace(level, x, n); return;
        case Activation::GeluTanh: geluTanhInPlace(level, x, n); return;
        case Activation::Relu: {
            Eigen::Map<Eigen::ArrayXf> a(x, static_cast<Eigen::Index>(n));
            a = a.cwiseMax(0.0f);
            return;
        }
        case Activation::Silu: siluInPlace(level, x, n); return;
    }
}

}  // namespace

void layerNorm(MatF& X, const LayerNormRef& norm, float eps) {
    const SimdLevel level = activeSimdLevel();
    const auto n = static_cast<std::size_t>(X.cols());
    forEachSlice(static_cast<std::size_t>(X.rows()), n, [&](std::size_t r0, std::size_t r1) {
        for (auto r = static_cast<Eigen::Index>(r0); r < static_cast<Eigen::Index>(r1); ++r)  // row-major: rows contiguous
            layerNormRow(level, X.row(r).data(), n, norm.gamma.data, norm.beta.data, eps);
    });
}

void rmsNorm(MatF& X, const VectorRef& weight, float eps, bool plusOne) {
    const auto w = weight.view().array();  // 1×n
    forEachSlice(static_cast<std::size_t>(X.rows()), static_cast<std::size_t>(X.cols()), [&](std::size_t r0, std::size_t r1) {
        for (auto r = static_cast<Eigen::Index>(r0); r < static_cast<Eigen::Index>(r1); ++r) {
            auto row = X.row(r).array();
            const float meanSquare = row.square().mean();
            row *= 1.0f / std::sqrt(meanSquare + eps);
            if (plusOne) row *= 1.0f + w;
            else row *= w;
        }
    });
}

// Both GELUs use Eigen's erf / tanh approximations (a few float ulp from std::erf / std::tanh),
// vectorised: the scalar std::erf took 33 ms of a 400 ms bert-base forward pass (docs/models.md).
void geluErf(MatF& X) { activate(X, Activation::GeluErf); }

void geluTanh(MatF& X) { activate(X, Activation::GeluTanh); }

// Vectorised at the run's level: Eigen's exp here is SSE2 only (3.4 % of a 4,096-token Qwen run).
void silu(MatF& X) { activate(X, Activation::Silu); }

void activate(MatF& X, Activation activation) {
    forEachSlice(static_cast<std::size_t>(X.size()), 1, [&](std::size_t b, std::size_t e) { activateSlice(X.data() + b, e - b, activation); });
}

// act(gate) ⊙ up in one pass over each slice, then down.
void gatedMlpInto(const MatF& X, const LinearRef& gate, const LinearRef& up, const LinearRef& down, Activation act,
                  LayerBuffers& b, MatF& out) {
    linearInto(X, gate, b.gate);  // T×d_ff
    linearInto(X, up, b.inner);   // T×d_ff
    forEachSlice(static_cast<std::size_t>(b.gate.size()), 1, [&](std::size_t begin, std::size_t end) {
        const auto n = static_cast<Eigen::Index>(end - begin);
        activateSlice(b.gate.data() + begin, end - begin, act);
        Eigen::Map<Eigen::ArrayXf>(b.inner.data() + begin, n) *= Eigen::Map<const Eigen::ArrayXf>(b.gate.data() + begin, n);
    });
    linearInto(b.inner, down, out);  // T×d
}

void softmaxRows(MatF& X) { softmaxRowsInPlace(X, nullptr); }  // the lessons' softmax, in float

MatF gatherRows(const MatrixRef& table, const std::vector<int>& rows) {
    MatF out(static_cast<Eigen::Index>(rows.size()), table.cols);
    for (std::size_t i = 0; i < rows.size(); ++i)
        table.rowsInto(rows[i], 1, out.data() + static_cast<Eigen::Index>(i) * table.cols);  // only the rows read
    return out;
}

MatrixRef MatrixRef::rowBlock(Eigen::Index first, Eigen::Index count) const {
    MatrixRef block = *this;
    block.rows = count;
    if (data) block.data = data + first * cols;
    else block.halves = halves + 2 * first * cols;
    return block;
}

void MatrixRef::rowsInto(Eigen::Index first, Eigen::Index count, float* out) const {
    elementsInto(static_cast<std::size_t>(first * cols), static_cast<std::size_t>(count * cols), out);
}

void MatrixRef::elementsInto(std::size_t first, std::size_t n, float* out) const {
    if (data) {
        std::memcpy(out, data + first, n * sizeof(float));
        return;
    }
    const std::uint8_t* words = halves + 2 * first;
    if (dtype == DType::BF16) {
        widenBf16(words, n, out);
        return;
    }
    for (std::size_t i = 0; i < n; ++i) out[i] = halfToFloat(wordAt(words, i));
}

MatF MatrixRef::rowsAsFloat(Eigen::Index first, Eigen::Index count) const {
    MatF out(count, cols);
    rowsInto(first, count, out.data());
    return out;
}

std::size_t MatrixRef::byteCount() const {
    return static_cast<std::size_t>(rows * cols) * (data ? sizeof(float) : 2);
}

Mat toDouble(const MatF& m) { return m.cast<double>(); }

Prediction predictionFrom(int position, RowVecF logits, int topK) {
    Prediction p;
    p.position = position;
    const float top = logits.maxCoeff();
    const double total = (logits.array() - top).cast<double>().exp().sum();
    std::vector<int> order(static_cast<std::size_t>(logits.size()));
    std::iota(order.begin(), order.end(), 0);
    const auto k = std::min<std::size_t>(static_cast<std::size_t>(std::max(topK, 0)), order.size());
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                      [&](int a, int b) { return logits(a) > logits(b) || (logits(a) == logits(b) && a < b); });
    for (std::size_t i = 0; i < k; ++i) {
        const float logit = logits(order[i]);
        p.top.push_back(TokenScore{order[i], static_cast<float>(std::exp(double(logit - top)) / total), logit});
    }
    p.logits = std::move(logits);
    return p;
}

namespace {

constexpr Eigen::Index kCheckBlock = 4096;
constexpr std::size_t kCheckSlice = 64 * kCheckBlock;  // 512 KB of words

// Whether any of a block's words has its exponent all ones (±∞ or NaN): no early exit, so that
// the compiler vectorises it.
bool blockHasNonFinite16(const std::uint8_t* words, std::uint16_t exponent) {
    unsigned flags = 0;
    for (Eigen::Index i = 0; i < kCheckBlock; ++i)
        flags |= static_cast<unsigned>((wordAt(words, static_cast<std::size_t>(i)) & exponent) == exponent);
    return flags != 0;
}

// Whole blocks first; a bad block, and the tail, word by word.
std::optional<Eigen::Index> firstNonFinite16In(const std::uint8_t* words, Eigen::Index n, std::uint16_t exponent) {
    Eigen::Index start = 0;
    while (start + kCheckBlock <= n && !blockHasNonFinite16(words + 2 * start, exponent)) start += kCheckBlock;
    for (Eigen::Index i = start; i < n; ++i)
        if ((wordAt(words, static_cast<std::size_t>(i)) & exponent) == exponent) return i;
    return std::nullopt;
}

}  // namespace

// Every weight of a checkpoint is checked at load: word by word this was 0.6 s of Qwen2.5-0.5B's
// start, on one thread 6 % of Llama-3.2-1B's at 512 tokens. In slices of whole blocks on every
// product thread; the first bad word of the first slice that has one.
std::optional<Eigen::Index> firstNonFinite16(const std::uint8_t* words, Eigen::Index n, DType dtype) {
    const std::uint16_t exponent = dtype == DType::BF16 ? 0x7F80 : 0x7C00;  // all ones: ±∞ or NaN
    std::atomic<Eigen::Index> first{n};
    runInSlices(static_cast<std::size_t>(n), kCheckSlice, productThreads(), [&](std::size_t begin, std::size_t end) {
        const auto b = static_cast<Eigen::Index>(begin);
        const auto bad = firstNonFinite16In(words + 2 * begin, static_cast<Eigen::Index>(end) - b, exponent);
        if (!bad) return;
        Eigen::Index seen = first.load();
        while (b + *bad < seen && !first.compare_exchange_weak(seen, b + *bad)) {}
    });
    const Eigen::Index found = first.load();
    return found < n ? std::optional<Eigen::Index>(found) : std::nullopt;
}

}  // namespace attnscope
