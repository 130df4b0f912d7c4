// Multi-head attention of the real models (see attention.hpp).
//
// Shape legend: T tokens, H query heads, H_kv key/value heads, d_k head width.
#include "core/model/attention.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>

#include "core/kernels/zero_pages.hpp"
#include "core/model/sgemm.hpp"
#include "core/model/simd_kernels.hpp"
#include "core/pipeline/attention_kernel.hpp"

namespace attnscope {

MatF slidingWindowMask(Eigen::Index T, int window) {
    MatF mask = causalMask<float>(static_cast<int>(T));  // T×T, -inf above the diagonal
    if (window <= 0) return mask;
    for (Eigen::Index i = window; i < T; ++i) mask.row(i).head(i - window + 1).setConstant(-std::numeric_limits<float>::infinity());
    return mask;
}

namespace {

// A block of a head's T_q×T_k grid: query rows r0…r1−1 against keys c0…c1−1.
struct GridBlock {
    Eigen::Index r0 = 0, r1 = 0, c0 = 0, c1 = 0;
    Eigen::Index rows() const { return r1 - r0; }
    Eigen::Index cols() const { return c1 - c0; }
};

// One thread's products for heads that run side by side (multiHeadAttentionInto): our own
// kernels on one thread at the SIMD level in force, never OpenBLAS's pool (two threads calling it
// at once were 2–3× slower, bench/README.md); Eigen where no kernel of ours runs. Both products
// take the A·B kernel's broadcast tiles (the scores as Q_h·(K_hᵀ): as dot products of d_k = 64
// terms each, adding up the partial sums would cost as much) on the head's operands copied out
// first (HeadOperands): in the layer's T×(H·d_k) matrices a head's rows lie 2–8 KB apart (K_hᵀ's
// 16 KB at 4,096 tokens), on the same few L1 sets, and a tile's rows evicted each other
// (`attnscope_forward_bench --attention`).
struct OneThreadProducts {
    SimdLevel level = SimdLevel::Sse2;

    // Keys a panel of K_hᵀ holds: a multiple of the A·B tiles' width (4 vectors at AVX-512) that
    // divides kCausalBlockRows, so a causal block's keys start on a panel.
    static constexpr Eigen::Index kKeyPanel = 64;

    // The calling thread's copies of one head's operands, reused head after head.
    struct HeadOperands {
        MatF q;                       // T_q×d_k, rows contiguous
        std::vector<float> keyPanels;  // K_hᵀ: panel p holds keys p·kKeyPanel… as d_k×kKeyPanel
        MatF v;                       // T_k×d_k, rows contiguous
        MatF diagonal;                // a causal block's own keys' scores, rows×rows (scoresUpToToken)
        Eigen::Index dk = 0;
    };
    static HeadOperands& operands() {
        thread_local HeadOperands head;
        return head;
    }
    static HeadOperands& queriesAndKeys(const ConstHeadView<float>& q, const ConstHeadView<float>& k) {
        HeadOperands& head = operands();
        head.q = q;
        head.dk = k.cols();
        const Eigen::Index panels = (k.rows() + kKeyPanel - 1) / kKeyPanel;
        head.keyPanels.resize(static_cast<std::size_t>(panels * head.dk * kKeyPanel));
        for (Eigen::Index j = 0; j < k.rows(); ++j) {  // key j → panel j / P, column j % P
            float* column = head.keyPanels.data() + (j / kKeyPanel) * head.dk * kKeyPanel + j % kKeyPanel;
            for (Eigen::Index kk = 0; kk < head.dk; ++kk) column[kk * kKeyPanel] = k(j, kk);
        }
        return head;
    }
    static const MatF& values(const ConstHeadView<float>& v) {
        HeadOperands& head = operands();
        head.v = v;
        return head.v;
    }

    // The scores of block b: rows r0…r1−1 of C start at `rows` (ldc apart), key `firstKey` at
    // column 0; panel by panel of keys (each product's B is one panel, d_k×kKeyPanel contiguous).
    void scoreBlock(const HeadOperands& head, const GridBlock& b, float* rows, Eigen::Index ldc,
                    Eigen::Index firstKey = 0) const {
        for (Eigen::Index p = b.c0 / kKeyPanel; p * kKeyPanel < b.c1; ++p) {
            const Eigen::Index from = std::max(b.c0, p * kKeyPanel), to = std::min(b.c1, (p + 1) * kKeyPanel);
            const float* panel = head.keyPanels.data() + p * head.dk * kKeyPanel;
            product({b.rows(), to - from, head.dk, head.q.data() + b.r0 * head.dk, head.dk, panel + (from - p * kKeyPanel),
                     kKeyPanel, false, rows + (from - firstKey), ldc, true});
        }
    }
    void scores(const ConstHeadView<float>& q, const ConstHeadView<float>& k, const std::vector<GridBlock>& blocks,
                MatF& out) const {
        const HeadOperands& head = queriesAndKeys(q, k);
        for (const GridBlock& b : blocks) scoreBlock(head, b, out.data() + b.r0 * out.cols(), out.cols());
    }
    // A causal head's visible blocks with no score written past a row's own token: the block's
    // own keys r0…r1−1 are scored in the thread's small square and each row's part up to its token
    // copied out (the same products on the same panels: the same bits). Kept weights give back the
    // pages past each token (releaseHidden); the square written in place faulted them in again at
    // every rebuild in the same buffer, and they were given back again: about 12,000 page faults a
    // Llama-3.2-1B layer switch at 4,096 tokens, where a page boundary falls between a token and
    // its block's end (bench/README.md "A layer switch that faults in no page").
    void scoresUpToToken(const ConstHeadView<float>& q, const ConstHeadView<float>& k,
                         const std::vector<GridBlock>& blocks, MatF& out) const {
        HeadOperands& head = queriesAndKeys(q, k);
        for (const GridBlock& b : blocks) {
            float* rows = out.data() + b.r0 * out.cols();
            scoreBlock(head, GridBlock{b.r0, b.r1, b.c0, std::min(b.r0, b.c1)}, rows, out.cols());  // keys every row sees
            if (b.c1 <= b.r0) continue;
            head.diagonal.resize(b.rows(), b.c1 - b.r0);  // rows×rows: keys r0…r1−1
            scoreBlock(head, GridBlock{b.r0, b.r1, b.r0, b.c1}, head.diagonal.data(), head.diagonal.cols(), b.r0);
            for (Eigen::Index i = 0; i < b.rows(); ++i)  // row r0 + i sees keys r0…r0 + i
                std::copy_n(head.diagonal.row(i).data(), std::min(i + 1, head.diagonal.cols()), rows + i * out.cols() + b.r0);
        }
    }
    // Rows r0…r1−1 of A_h·V_h, T×d_k, from the block's weights: its rows start at `rows` (ldw apart).
    void weightedSumBlock(const float* rows, Eigen::Index ldw, const MatF& v, const GridBlock& b,
                          HeadOutView<float> out) const {
        product({b.rows(), v.cols(), b.cols(), rows + b.c0, ldw, v.data() + b.c0 * v.cols(), v.cols(), false,
                 out.data() + b.r0 * out.outerStride(), out.outerStride(), true});
    }
    void weightedSum(const MatF& weights, const ConstHeadView<float>& v, const std::vector<GridBlock>& blocks,
                     HeadOutView<float> out) const {
        const MatF& values = OneThreadProducts::values(v);
        for (const GridBlock& b : blocks) weightedSumBlock(weights.data() + b.r0 * weights.cols(), weights.cols(), values, b, out);
    }
    void product(const SgemmArgs& p) const {
        if (sgemmOnLevel(level, p)) return;
        gemmEigen(p.m, p.n, p.k, p.a, p.lda, p.b, p.ldb, p.transB, p.overwrite ? 0.0f : 1.0f, p.c, p.ldc);
    }
};

// Causal heads are computed in blocks of this many query rows, each against the keys it can see:
// the grid's upper triangle (all hidden) is skipped but for the diagonal blocks' halves
// (T / 2 · kCausalBlockRows products of d_k terms, 3 % of the grid at 4,096 tokens).
constexpr Eigen::Index kCausalBlockRows = 128;

// The models' arithmetic for the attention kernel: float, each head's two products as SGEMMs
// on the head's columns of Q, K, V and of the context in place (`product`: gemm, or `oneThread`'s
// when heads run side by side); no hand-rounding.
struct ModelArithmetic {
    decltype(&gemm) product;
    std::optional<OneThreadProducts> oneThread;

    // softmax(scores/√d_k + mask) with the scaling and the mask folded into one vectorised pass
    // a row, for both records (the Full record's scaled and masked scores are computed apart, to
    // be shown), so a layer shows the same weights however much of it the Trace keeps. A causal
    // mask is known by its shape: row i keeps columns 0…i.
    bool causal = false;
    SimdLevel level = SimdLevel::Sse2;
    int window = 0;  // > 0: a causal sliding window, row i keeps columns i − W + 1 … i
    // Every score is recorded (HeadRecord::Everything: the Trace shows the hidden ones too); else
    // a causal head's scores are computed only where a row can see (visibleBlocks), the other
    // blocks (hiddenBlocks) left unset.
    bool everyScore = true;
    // The weights are kept (a layer rebuilt to be shown, not digested and dropped): a causal row's
    // zeros are given back as whole pages (core/kernels/zero_pages.hpp), about half the layer.
    // Not for the digests' scratch, reused head after head: it would fault the pages in again.
    bool releaseHidden = false;

    std::size_t firstVisible(std::size_t i) const {
        const auto w = static_cast<std::size_t>(window);
        return window > 0 && i + 1 > w ? i + 1 - w : 0;
    }

    // The blocks of the T_q×T_k grid whose weights can be non-zero: the whole grid, or for a causal
    // head each block of rows r0…r1−1 against keys firstVisible(r0)…r1−1.
    std::vector<GridBlock> visibleBlocks(Eigen::Index rows, Eigen::Index cols) const {
        if (!causal) return {GridBlock{0, rows, 0, cols}};
        std::vector<GridBlock> blocks;
        for (Eigen::Index r0 = 0; r0 < rows; r0 += kCausalBlockRows) {
            const Eigen::Index r1 = std::min(rows, r0 + kCausalBlockRows);
            const auto c0 = std::min(cols, static_cast<Eigen::Index>(firstVisible(static_cast<std::size_t>(r0))));
            blocks.push_back(GridBlock{r0, r1, c0, std::min(cols, r1)});
        }
        return blocks;
    }

    // The rest of the grid: each block of rows' keys before firstVisible(r0) and from r1 on.
    std::vector<GridBlock> hiddenBlocks(Eigen::Index rows, Eigen::Index cols) const {
        std::vector<GridBlock> blocks;
        for (const GridBlock& b : visibleBlocks(rows, cols)) {
            if (b.c0 > 0) blocks.push_back(GridBlock{b.r0, b.r1, 0, b.c0});
            if (b.c1 < cols) blocks.push_back(GridBlock{b.r0, b.r1, b.c1, cols});
        }
        return blocks;
    }

    // The visible blocks first, in the same products whatever the record, so a layer's weights
    // are the same bits whether its hidden scores are computed (to be shown) or not.
    void scores(const ConstHeadView<float>& q, const ConstHeadView<float>& k, MatF& out) const {
        out.resize(q.rows(), k.rows());  // T_q×T_k = Q_h·K_hᵀ; a hidden score left unset is never read
        std::vector<GridBlock> blocks = visibleBlocks(q.rows(), k.rows());
        if (everyScore)
            for (const GridBlock& b : hiddenBlocks(q.rows(), k.rows())) blocks.push_back(b);
        if (oneThread && causal && releaseHidden && !everyScore) return oneThread->scoresUpToToken(q, k, blocks, out);
        if (oneThread) return oneThread->scores(q, k, blocks, out);
        for (const GridBlock& b : blocks)
            product(b.rows(), b.cols(), q.cols(), q.data() + b.r0 * q.outerStride(), q.outerStride(),
                    k.data() + b.c0 * k.outerStride(), k.outerStride(), true, 0.0f, out.data() + b.r0 * out.cols() + b.c0,
                    out.cols());
    }
    // A_h·V_h over the visible blocks only: a causal row's weights past its token are exactly 0.
    void weightedSum(const MatF& weights, const ConstHeadView<float>& v, HeadOutView<float> out) const {
        const std::vector<GridBlock> blocks = visibleBlocks(weights.rows(), weights.cols());
        if (oneThread) return oneThread->weightedSum(weights, v, blocks, out);
        for (const GridBlock& b : blocks)  // rows r0…r1−1: T×T · T×d_k → T×d_k
            product(b.rows(), v.cols(), b.cols(), weights.data() + b.r0 * weights.cols() + b.c0, weights.cols(),
                    v.data() + b.c0 * v.outerStride(), v.outerStride(), false, 0.0f,
                    out.data() + b.r0 * out.outerStride(), out.outerStride());
    }
    template <typename M>
    void round(M&&) const {}

    void weightsFromScores(const HeadInput<float>& in, HeadScratch<float>& s) const {
        const auto cols = static_cast<std::size_t>(s.scores.cols());  // T_q×T_k, in place
        const bool otherMask = !causal && in.mask.size() > 0;  // none today: the general steps
        const bool readByWeightedSum = !in.ablated && in.outputWanted;
        for (Eigen::Index i = 0; i < s.scores.rows(); ++i) {
            float* row = s.scores.row(i).data();
            if (otherMask) {
                softmaxRowInGeneral(in, row, s.scores.cols(), i);
                continue;
            }
            const auto index = static_cast<std::size_t>(i);
            // Written by the softmax (zeros past the token); the rest is given back as pages.
            const std::size_t written = !releaseHidden      ? cols
                                        : readByWeightedSum ? blockEnd(index, cols)
                                                            : visibleEnd(index, cols);
            if (softmaxRow(in, row, cols, index, written) && written < cols)
                zeroHidden(row + written, cols - written);
        }
        if (releaseHidden) releaseQueuedPages();  // before A·V reads the diagonal blocks' hidden keys
        s.weights.swap(s.scores);
    }
    std::size_t visibleEnd(std::size_t i, std::size_t cols) const { return causal ? std::min(cols, i + 1) : cols; }
    // The end of row i's visible block (visibleBlocks): A·V reads the block's hidden keys too, so
    // they are written as zeros, and pages are given back only past it. A released page that A·V
    // read was mapped to the kernel's zero page, and the next layer's scores written there took a
    // copy-on-write fault with a TLB shootdown on both cores (an IPI, slow in a VM): a quarter of
    // a kept layer's attention at 4,096 tokens. Without A·V (a long run's layer rebuilt for its
    // weights, an ablated head) pages go from the token on: about 1 MB a head less.
    std::size_t blockEnd(std::size_t i, std::size_t cols) const {
        if (!causal) return cols;
        const auto rows = static_cast<std::size_t>(kCausalBlockRows);
        return std::min(cols, (i / rows + 1) * rows);
    }
    // Row i's weights from its scores, in place: 0 before the window's start, the softmax of what
    // it sees, 0 from there to `written`. False: the row had no finite maximum and took the
    // general softmax over all its `cols`.
    bool softmaxRow(const HeadInput<float>& in, float* row, std::size_t cols, std::size_t i, std::size_t written) const {
        const std::size_t valid = visibleEnd(i, cols);
        const std::size_t first = firstVisible(i);
        if (softmaxRowScaled(level, row + first, written - first, valid - first, 1.0f / in.divisor)) {
            zeroHidden(row, first);  // after: a general row writes these itself (queued pages would drop it)
            return true;
        }
        softmaxRowInGeneral(in, row, static_cast<Eigen::Index>(cols), static_cast<Eigen::Index>(i));
        return false;
    }
    // The same arithmetic for a head whose weights are kept in a layer otherwise digested.
    ModelArithmetic keepingWeights() const {
        ModelArithmetic keeping = *this;
        keeping.releaseHidden = causal;
        return keeping;
    }
    void zeroHidden(float* from, std::size_t count) const {
        if (releaseHidden) zeroQueueingPages(from, count);
        else std::fill(from, from + count, 0.0f);
    }
    // A row without a finite maximum (a NaN, ±∞): the kernel's own steps, for that row only.
    void softmaxRowInGeneral(const HeadInput<float>& in, float* data, Eigen::Index cols, Eigen::Index i) const {
        Eigen::Map<MatF> weights(data, 1, cols);
        MatF row = weights / in.divisor;  // 1×T_k
        if (causal) hideAsMasked(in, row, i);
        else if (in.mask.size() > 0) row += in.mask.row(i);
        softmaxRowsInPlace(row, nullptr);
        weights = row;
    }

    // A long run's causal head, digested as it is computed (LayerDetail::Summary, heads side by
    // side): each block of query rows is scored, turned into weights, multiplied by V and digested
    // while it is in the cache, in `rows` (kCausalBlockRows × T_k), never in a T×T grid, which
    // the scores, the softmax, A·V and the digest's two passes each read from memory (a head is
    // 64 MB at 4,096 tokens). The same products on the same blocks, the same softmax and the
    // same digest sums as attendHead then digestOf: the same bits (tests/core/test_heads_side_by_side.cpp).
    HeadDigest attendDigesting(const HeadInput<float>& in, HeadOutView<float> out, MatF& rows) const {
        const Eigen::Index T = in.q.rows(), Tk = in.k.rows();
        HeadDigestBuilder digest(T, Tk, causal);
        const OneThreadProducts::HeadOperands& head = OneThreadProducts::queriesAndKeys(in.q, in.k);
        const MatF& values = OneThreadProducts::values(in.v);
        rows.resize(std::min(T, kCausalBlockRows), Tk);
        const bool silent = in.ablated || !in.outputWanted;
        if (silent) out.setZero();  // as attendHead: ablated, (0·A)·V = 0
        for (const GridBlock& b : visibleBlocks(T, Tk)) {
            oneThread->scoreBlock(head, b, rows.data(), Tk);  // rows r0…r1−1, keys c0…c1−1
            for (Eigen::Index i = b.r0; i < b.r1; ++i) {
                float* row = rows.data() + (i - b.r0) * Tk;
                const bool seen = softmaxRow(in, row, static_cast<std::size_t>(Tk), static_cast<std::size_t>(i),
                                             static_cast<std::size_t>(b.c1));
                digest.addRow(i, row, seen ? b.c1 : Tk);  // 0 past c1, or a general row written whole
            }
            if (!silent) oneThread->weightedSumBlock(rows.data(), Tk, values, b, out);
        }
        return digest.finish();
    }
    // Row i's hidden scores as adding the causal mask makes them: −∞, or NaN where the score is NaN
    // or +∞. Keys past i are scored here when the visible blocks skipped them (a rare row).
    void hideAsMasked(const HeadInput<float>& in, MatF& row, Eigen::Index i) const {
        constexpr float inf = std::numeric_limits<float>::infinity();
        const auto first = static_cast<Eigen::Index>(firstVisible(static_cast<std::size_t>(i)));
        row.leftCols(std::min(first, row.cols())).setConstant(-inf);  // zeroed by weightsFromScores
        for (Eigen::Index j = i + 1; j < row.cols(); ++j) {
            const float score = everyScore ? row(0, j) : in.q.row(i).dot(in.k.row(j)) / in.divisor;
            row(0, j) = std::isnan(score) || score == inf ? std::numeric_limits<float>::quiet_NaN() : -inf;
        }
    }
};


// The heads' T×T scratch and the causal mask: kept by the calling thread across layers and runs
// (the mask rebuilt only when T changes), so no layer allocates or page-faults them again. The
// mask is made only for a Full record, which shows it: the folded softmax knows a causal row by
// its index (at 4,096 tokens the mask is 64 MB).
struct AttentionScratch {
    HeadScratch<float> head;
    MatF blockRows;  // kCausalBlockRows×T_k: a digested head's block of rows (attendDigesting)
    MatF causalMask;
    int window = 0;  // of causalMask
};

AttentionScratch& threadScratch() {
    thread_local AttentionScratch scratch;  // each head thread has its own
    return scratch;
}

const MatF& causalMaskOf(AttentionScratch& scratch, Eigen::Index T, int window) {
    if (scratch.causalMask.rows() != T || scratch.window != window) {
        scratch.causalMask = slidingWindowMask(T, window);  // T×T
        scratch.window = window;
    }
    return scratch.causalMask;
}


// Heads side by side from this many tokens, one thread each at a time (heads h ≡ part mod parts):
// below it a head is a few microseconds and OpenBLAS's own threads inside each product serve.
constexpr Eigen::Index kHeadThreadsFrom = 128;

// Fresh HeadTraces, each keeping the float weight buffer its head held (a recycled layer's, see
// core/model/recycled_weights.hpp): recordWeights swaps it into the thread's scratch for the next
// head, so a rebuilt layer faults in no new T×T pages. Every head's weights are written over.
// Returns the buffers past the layer's heads (a spare head's) for the heads computed again.
std::vector<MatF> resetHeadsKeepingBuffers(LayerTrace& layer, int heads) {
    std::vector<MatF> buffers;
    for (HeadTrace& head : layer.heads)
        if (head.weights.isFloat() && head.weights.size() > 0) buffers.push_back(std::move(head.weights.floatStorage()));
    layer.heads.assign(static_cast<std::size_t>(heads), HeadTrace{});
    const std::size_t seeded = std::min(buffers.size(), layer.heads.size());
    for (std::size_t h = 0; h < seeded; ++h) layer.heads[h].weights.floatStorage().swap(buffers[h]);
    buffers.erase(buffers.begin(), buffers.begin() + static_cast<std::ptrdiff_t>(seeded));
    return buffers;
}

// The heads of the first pass whose weights HeadsFirst::onComputed took: computed again, each in
// a spare buffer while there is one.
std::vector<bool> takenHeads(LayerTrace& layer, const std::vector<bool>& first, std::vector<MatF>& spares) {
    std::vector<bool> taken(first.size(), false);
    for (std::size_t h = 0; h < first.size(); ++h) {
        taken[h] = first[h] && layer.heads[h].weights.size() == 0;
        if (!taken[h] || spares.empty()) continue;
        layer.heads[h].weights.floatStorage().swap(spares.back());
        spares.pop_back();
    }
    return taken;
}

// The head's scores go into the T×T_k buffer it held (a recycled layer's): attendHead swaps the
// scores into the weights and the weights into the Trace, so the buffer the scratch had comes back
// to it, and each head ends in its own buffer. (Computing in the scratch's buffer instead lent
// each head's to the head two after it, and a thread's first two heads took fresh pages: four
// 64 MB buffers of page faults at 4,096 tokens on two threads, a quarter of a layer switch.)
void computeInOwnBuffer(HeadScratch<float>& scratch, HeadTrace& head, Eigen::Index T, Eigen::Index Tk) {
    if (!head.weights.isFloat()) return;
    MatF& own = head.weights.floatStorage();
    if (own.rows() == T && own.cols() == Tk) scratch.scores.swap(own);
}

// From kHeadThreadsFrom tokens a head's products run on our one-thread kernels, where one runs.
bool ownHeadKernels(Eigen::Index tokens) { return tokens >= kHeadThreadsFrom && activeSimdLevel() != SimdLevel::Sse2; }

}  // namespace

int headThreadsFor(Eigen::Index tokens, int heads) {
    const int threads = productThreads();
    return threads >= 2 && ownHeadKernels(tokens) ? std::min(threads, heads) : 1;
}

void multiHeadAttentionInto(const MatF& Q, const MatF& K, const MatF& V, const AttentionShape& shape,
                            LayerDetail detail, LayerTrace& layer, const HeadsAsked& asked, MatF& context,
                            std::vector<HeadDigest>* digests) {
    const int heads = shape.heads;
    const Eigen::Index T = Q.rows(), dk = Q.cols() / heads;
    const float divisor = shape.divisor > 0 ? shape.divisor : std::sqrt(static_cast<float>(dk));
    const HeadRecord record = detail == LayerDetail::Full ? HeadRecord::Everything : HeadRecord::WeightsOnly;
    static const MatF noMask;
    const bool maskShown = shape.causal && record == HeadRecord::Everything;
    const MatF& mask = maskShown ? causalMaskOf(threadScratch(), T, shape.window) : noMask;  // T×T; none for the encoders
    context.resize(T, Q.cols());                                                             // T×(H·d_k)
    std::vector<MatF> spares = resetHeadsKeepingBuffers(layer, heads);
    if (detail == LayerDetail::Summary) digests->assign(static_cast<std::size_t>(heads), HeadDigest{});
    const RowNotices rows{};  // a row always keeps its own token, so the softmax has nothing to say
    const bool outputWanted = detail != LayerDetail::WeightsNoOutput;
    // Each head writes only its own HeadTrace and context columns, and its thread's scratch.
    const auto attend = [&](int h, const ModelArithmetic& arithmetic) {
        const Eigen::Index c0 = h * dk;                              // head h: columns c0…c0+d_k of Q and the context
        const Eigen::Index kv0 = shape.keyValueHeadOf(h) * dk;       // its key/value head's columns of K and V
        const HeadInput<float> in{Q.middleCols(c0, dk), K.middleCols(kv0, dk), V.middleCols(kv0, dk), mask, divisor,
                                  asked.isAblated(h), outputWanted};
        HeadTrace& head = layer.heads[static_cast<std::size_t>(h)];
        const bool kept = asked.isKept(h);
        if (!kept && detail == LayerDetail::WeightsNoOutput) {  // nobody reads it: not computed
            head.ablated = in.ablated;
            head.weights = AttentionWeights();  // not a recycled layer's buffer, which holds another head
            return;
        }
        const bool keptBesideDigest = detail == LayerDetail::Summary && !asked.kept.empty() && kept;
        if (detail == LayerDetail::Summary && shape.causal && arithmetic.oneThread && !keptBesideDigest) {  // the fast path
            head.ablated = in.ablated;
            (*digests)[static_cast<std::size_t>(h)] = arithmetic.attendDigesting(in, context.middleCols(c0, dk), threadScratch().blockRows);
            return;
        }
        computeInOwnBuffer(threadScratch().head, head, T, K.rows());
        // A kept head's hidden causal half is given back as pages, as in any layer that keeps weights.
        const ModelArithmetic used = keptBesideDigest ? arithmetic.keepingWeights() : arithmetic;  // a few bytes
        attendHead(in, used, threadScratch().head, context.middleCols(c0, dk), record, head, rows);
        if (detail == LayerDetail::Summary) {
            (*digests)[static_cast<std::size_t>(h)] = digestOf(head.weights, shape.causal);
            if (keptBesideDigest) return;
            threadScratch().head.weights.swap(head.weights.floatStorage());  // the buffer serves the next head
            head.weights = AttentionWeights();
        }
    };
    const int parts = headThreadsFor(T, heads);
    const bool everyScore = record == HeadRecord::Everything;
    const bool releaseHidden = shape.causal && detail != LayerDetail::Summary;
    const ModelArithmetic alone{&gemm, std::nullopt, shape.causal, activeSimdLevel(), shape.window, everyScore,
                                releaseHidden};
    const ModelArithmetic sideBySide{&gemm, OneThreadProducts{activeSimdLevel()}, shape.causal, activeSimdLevel(),
                                     shape.window, everyScore, releaseHidden};
    // The heads `wanted` names (true: a first pass's; false: the rest, and any first head whose
    // weights were taken; every head without one).
    std::vector<bool> taken;
    const auto attendHeads = [&](std::optional<bool> wanted) {
        const auto inPass = [&](int h) {
            const auto i = static_cast<std::size_t>(h);
            const bool first = asked.first.heads.empty() || asked.first.heads[i];
            return !wanted || (*wanted ? first : !first || taken[i]);
        };
        const std::function<void(int)> part = [&](int index) {
            for (int h = index; h < heads; h += parts)
                if (inPass(h)) attend(h, sideBySide);
        };
        if (parts > 1 && runOnColumnPool(parts, part)) return;
        // Heads one after the other: on one product thread, from kHeadThreadsFrom tokens, on our
        // one-thread kernels (a long run's causal heads digested in blocks, never a T×T grid); else
        // each product through gemm (OpenBLAS, threaded inside).
        const bool ownKernels = productThreads() < 2 && ownHeadKernels(T);
        for (int h = 0; h < heads; ++h)
            if (inPass(h)) attend(h, ownKernels ? sideBySide : alone);
    };
    if (asked.first.heads.size() != static_cast<std::size_t>(heads)) return attendHeads(std::nullopt);
    attendHeads(true);
    asked.first.onComputed(layer);
    taken = takenHeads(layer, asked.first.heads, spares);
    attendHeads(false);
}

void multiHeadAttentionInto(const MatF& Q, const MatF& K, const MatF& V, int heads, bool causal, LayerDetail detail,
                            LayerTrace& layer, const HeadsAsked& asked, MatF& context,
                            std::vector<HeadDigest>* digests) {
    multiHeadAttentionInto(Q, K, V, AttentionShape{heads, heads, causal, 0, 0}, detail, layer, asked, context, digests);
}

MatF multiHeadAttention(const MatF& Q, const MatF& K, const MatF& V, int heads, bool causal,
                        LayerDetail detail, LayerTrace& layer, const HeadsAsked& asked) {
    MatF context;
    multiHeadAttentionInto(Q, K, V, heads, causal, detail, layer, asked, context);
    return context;
}

}  // namespace attnscope
