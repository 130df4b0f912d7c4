// multiHeadAttentionInto with the heads side by side on two threads (from 128 tokens, each head's
// products on our own one-thread kernels): the same scores, weights and context as softmax(QKᵀ/√d_k
// + mask)·V computed here in double, independently of core's kernels.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/model/blas_kernels.hpp"
#include "core/trace/head_digest.hpp"
#include "core/model/transformer.hpp"
#include "tests/core/matrix_compare.hpp"

using namespace attnscope;

namespace {

struct HeadReference {
    Mat scores, weights, context;
};

// One head in double: S = q·kᵀ, A = softmax(S/√d_k + mask) row by row (mask: −∞ above the diagonal
// when causal, and with a sliding window W also left of column i − W + 1), context = A·v.
HeadReference referenceHead(const MatF& Q, const MatF& K, const MatF& V, Eigen::Index c0, Eigen::Index dk, bool causal,
                            Eigen::Index window = 0) {
    const Mat q = Q.middleCols(c0, dk).cast<double>(), k = K.middleCols(c0, dk).cast<double>(),
              v = V.middleCols(c0, dk).cast<double>();
    HeadReference ref;
    ref.scores = q * k.transpose();
    ref.weights = ref.scores / std::sqrt(static_cast<double>(dk));
    for (Eigen::Index i = 0; i < ref.weights.rows(); ++i) {
        const Eigen::Index kept = causal ? i + 1 : ref.weights.cols();
        const Eigen::Index first = causal && window > 0 ? std::max<Eigen::Index>(0, i - window + 1) : 0;
        const double top = ref.weights.row(i).segment(first, kept - first).maxCoeff();
        double total = 0;
        for (Eigen::Index j = 0; j < ref.weights.cols(); ++j) {
            ref.weights(i, j) = j >= first && j < kept ? std::exp(ref.weights(i, j) - top) : 0.0;
            total += ref.weights(i, j);
        }
        ref.weights.row(i) /= total;
    }
    ref.context = ref.weights * v;
    return ref;
}

class ProductThreads {  // sets OpenBLAS's thread count for a scope
public:
    explicit ProductThreads(int n) : before_(productThreadCount()) { setProductThreadCount(n); }
    ~ProductThreads() { setProductThreadCount(before_); }

private:
    int before_;
};

}  // namespace

TEST_CASE("heads side by side on two threads give softmax(QKᵀ/√d_k + mask)·V", "[models][heads]") {
    const ProductThreads two(2);
    const bool sideBySide = productThreadCount() == 2 && activeSimdLevel() != SimdLevel::Sse2;
    CHECK(headThreadsFor(127, 4) == 1);  // below 128 tokens: heads in turn
    CHECK(headThreadsFor(130, 4) == (sideBySide ? 2 : 1));
    if (!sideBySide) WARN("no OpenBLAS threads or no kernel of ours on this CPU: heads ran in turn");
    const int heads = 4;
    const Eigen::Index d = 256, dk = d / heads;
    for (const bool causal : {false, true})
        for (const Eigen::Index T : {130, 201}) {
            INFO((causal ? "causal, " : "encoder, ") << T << " tokens");
            const MatF Q = MatF::Random(T, d), K = MatF::Random(T, d), V = MatF::Random(T, d);
            LayerTrace layer;
            MatF context;
            multiHeadAttentionInto(Q, K, V, heads, causal, LayerDetail::Full, layer, {}, context);
            REQUIRE(layer.heads.size() == static_cast<std::size_t>(heads));
            for (int h = 0; h < heads; ++h) {
                INFO("head " << h);
                const HeadReference ref = referenceHead(Q, K, V, h * dk, dk, causal);
                REQUIRE_MATRIX_NEAR(ref.scores, layer.heads[static_cast<std::size_t>(h)].scores, 1e-5);
                REQUIRE_MATRIX_NEAR(ref.weights, layer.heads[static_cast<std::size_t>(h)].weights.toMat(), 1e-6);
                REQUIRE_MATRIX_NEAR(ref.context, Mat(context.middleCols(h * dk, dk).cast<double>()), 1e-5);
            }
        }
}

// A causal head keeping only its weights computes its scores and A·V on the blocks of 128 query
// rows against the keys they can see (core/model/attention.cpp, visibleBlocks); a Full record
// computes every score. Both must give the reference's weights and context, and the same weights
// as each other, on one thread (OpenBLAS) and two (our kernels), for lengths that end inside a
// block, and for a sliding window (keys left of it skipped too).
TEST_CASE("causal heads on their visible blocks give the whole grid's weights and context", "[models][heads]") {
    const int threads = GENERATE(1, 2);
    const ProductThreads set(threads);
    const int heads = 2;
    const Eigen::Index d = 128, dk = d / heads;
    for (const int window : {0, 50})
        for (const Eigen::Index T : {130, 300, 517}) {
            INFO(threads << " threads, " << T << " tokens, window " << window);
            const MatF Q = MatF::Random(T, d), K = MatF::Random(T, d), V = MatF::Random(T, d);
            const AttentionShape shape{heads, heads, true, window, 0};
            LayerTrace blocks, full;
            MatF blocksContext, fullContext;
            multiHeadAttentionInto(Q, K, V, shape, LayerDetail::WeightsOnly, blocks, {}, blocksContext);
            multiHeadAttentionInto(Q, K, V, shape, LayerDetail::Full, full, {}, fullContext);
            double largest = 0;
            for (int h = 0; h < heads; ++h) {
                INFO("head " << h);
                const auto at = static_cast<std::size_t>(h);
                const HeadReference ref = referenceHead(Q, K, V, h * dk, dk, true, window);
                const Mat weights = blocks.heads[at].weights.toMat();
                const Mat context = blocksContext.middleCols(h * dk, dk).cast<double>();
                REQUIRE_MATRIX_NEAR(ref.weights, weights, 1e-6);
                REQUIRE_MATRIX_NEAR(ref.context, context, 1e-5);
                REQUIRE_MATRIX_NEAR(full.heads[at].weights.toMat(), weights, 1e-6);
                REQUIRE_MATRIX_NEAR(Mat(fullContext.middleCols(h * dk, dk).cast<double>()), context, 1e-6);
                largest = std::max({largest, (ref.weights - weights).cwiseAbs().maxCoeff(),
                                    (ref.context - context).cwiseAbs().maxCoeff()});
            }
            CAPTURE(largest);  // against the double reference (shown with -s)
            CHECK(largest <= 1e-5);
        }
}

// A row without a finite maximum takes the general softmax, with its hidden scores as adding the
// causal mask makes them (−∞, or NaN for a NaN or +∞ score), also where the visible blocks never
// computed them (keys past the row's block). By hand, one head, d_k = 1 (divisor 1), 130 tokens,
// q_i = 1, k_0 = ∞, k_1…k_128 = 0, v_j = j: every row sees the score ∞ at key 0.
//   k_129 = 5: rows 0…128 hide −∞ past i: one-hot on key 0 (weight 1, context v_0 = 0); row 129
//   sees (∞, 0, …, 0, 5): the same.
//   k_129 = ∞: rows 0…128 hide a +∞ score: NaN rows (∞ + (−∞)), as the lessons' mask; row 129 sees
//   ∞ at keys 0 and 129: ½ each, context ½·0 + ½·129 = 64.5.
TEST_CASE("a causal row without a finite maximum hides its keys as the mask does", "[models][heads]") {
    const ProductThreads set(GENERATE(1, 2));
    const Eigen::Index T = 130;
    constexpr float inf = std::numeric_limits<float>::infinity();
    const MatF Q = MatF::Ones(T, 1);
    MatF K = MatF::Zero(T, 1), V(T, 1);
    for (Eigen::Index j = 0; j < T; ++j) V(j, 0) = static_cast<float>(j);
    K(0, 0) = inf;
    for (const LayerDetail detail : {LayerDetail::WeightsOnly, LayerDetail::Full}) {
        INFO((detail == LayerDetail::Full ? "Full" : "WeightsOnly"));
        LayerTrace layer;
        K(T - 1, 0) = 5;
        MatF context = multiHeadAttention(Q, K, V, 1, true, detail, layer);
        Mat w = layer.heads[0].weights.toMat();
        for (const Eigen::Index i : {Eigen::Index{0}, Eigen::Index{1}, Eigen::Index{128}, T - 1}) {
            INFO("row " << i);
            CHECK(w(i, 0) == 1.0);
            CHECK(w.row(i).sum() == 1.0);
            CHECK(context(i, 0) == 0.0f);
        }
        K(T - 1, 0) = inf;
        context = multiHeadAttention(Q, K, V, 1, true, detail, layer);
        w = layer.heads[0].weights.toMat();
        for (const Eigen::Index i : {Eigen::Index{0}, Eigen::Index{127}, Eigen::Index{128}}) {
            INFO("row " << i);
            CHECK(std::isnan(w(i, 0)));
            CHECK(std::isnan(w(i, T - 1)));
        }
        CHECK(w(T - 1, 0) == 0.5);
        CHECK(w(T - 1, T - 1) == 0.5);
        CHECK(w.row(T - 1).segment(1, T - 2).isZero(0));
        CHECK(context(T - 1, 0) == 64.5f);
    }
}

// The long run's fast path (LayerDetail::Summary on two threads: each block of rows scored,
// softmaxed, multiplied by V and digested while in the cache) against the readable one (the
// layer's weights kept, WeightsOnly, then digestOf over them): the same products on the same
// blocks, so the same bits. 300 tokens pool into 128 thumbnail rows of 2 or 3; grouped queries
// (4 heads on 2 key/value heads), a sliding window, an ablated head, and a row without a finite
// maximum (k_0 = +∞ on the first key/value head and q_i0 > 0: the rows of heads 0 and 1 that see
// key 0 score +∞ there and take the general softmax, one-hot on key 0).
TEST_CASE("a digested causal head equals the digest of its kept weights, bit for bit, and gives the same context", "[models][heads]") {
    const int threads = GENERATE(1, 2);  // one thread runs the same kernels, heads in turn
    const ProductThreads set(threads);
    INFO(threads << " threads");
    const int heads = 4;
    const Eigen::Index T = 300, dk = 32;
    for (const int window : {0, 50})
        for (const bool infiniteKey : {false, true}) {
            INFO("window " << window << (infiniteKey ? ", k_0 = +inf" : ""));
            MatF Q = MatF::Random(T, heads * dk), K = MatF::Random(T, 2 * dk);
            const MatF V = MatF::Random(T, 2 * dk);
            Q.col(0) = Q.col(0).cwiseAbs();
            Q.col(dk) = Q.col(dk).cwiseAbs();
            if (infiniteKey) K(0, 0) = std::numeric_limits<float>::infinity();
            const AttentionShape shape{heads, 2, true, window, 0};
            const std::vector<bool> ablated{false, false, true, false};
            LayerTrace kept, digested;
            MatF keptContext, digestedContext;
            std::vector<HeadDigest> digests;
            multiHeadAttentionInto(Q, K, V, shape, LayerDetail::WeightsOnly, kept, ablated, keptContext);
            multiHeadAttentionInto(Q, K, V, shape, LayerDetail::Summary, digested, ablated, digestedContext, &digests);
            REQUIRE(digests.size() == 4);
            for (int h = 0; h < heads; ++h) {
                INFO("head " << h);
                const auto at = static_cast<std::size_t>(h);
                CHECK(digested.heads[at].weights.size() == 0);
                CHECK(digested.heads[at].ablated == ablated[at]);
                const HeadDigest expected = digestOf(kept.heads[at].weights, true);
                const HeadDigest& d = digests[at];
                REQUIRE(d.rows == 300);
                REQUIRE(d.thumbnail.rows() == 128);
                const auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
                CHECK(same(d.entropy, expected.entropy));
                CHECK(same(d.normalizedEntropy, expected.normalizedEntropy));
                CHECK(same(d.previousShare, expected.previousShare));
                CHECK(same(d.nextShare, expected.nextShare));
                CHECK(same(d.selfShare, expected.selfShare));
                CHECK(same(d.firstShare, expected.firstShare));
                const auto sameBits = [](const auto& a, const auto& b) {
                    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(*a.data())) == 0;
                };
                CHECK(sameBits(d.thumbnail, expected.thumbnail));
                CHECK(sameBits(d.columnMass, expected.columnMass));
                CHECK(sameBits(digestedContext.middleCols(h * dk, dk).eval(), keptContext.middleCols(h * dk, dk).eval()));
                const bool oneHot = infiniteKey && h < 2;  // rows seeing key 0: weight 1 there
                CHECK((kept.heads[at].weights.toMat()(10, 0) == 1.0) == oneHot);
                CHECK((d.entropy == 0) == (oneHot && window == 0));
            }
        }
}
