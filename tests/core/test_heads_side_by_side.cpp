// multiHeadAttentionInto with the heads side by side on two threads (from 128 tokens, each head's
// products on our own one-thread kernels): the same scores, weights and context as softmax(QKᵀ/√d_k
// + mask)·V computed here in double, independently of core's kernels.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/model/blas_kernels.hpp"
#include "core/model/transformer.hpp"
#include "tests/core/matrix_compare.hpp"

using namespace attnscope;

namespace {

struct HeadReference {
    Mat scores, weights, context;
};

// One head in double: S = q·kᵀ, A = softmax(S/√d_k + mask) row by row (mask: −∞ above the diagonal
// when causal), context = A·v.
HeadReference referenceHead(const MatF& Q, const MatF& K, const MatF& V, Eigen::Index c0, Eigen::Index dk, bool causal) {
    const Mat q = Q.middleCols(c0, dk).cast<double>(), k = K.middleCols(c0, dk).cast<double>(),
              v = V.middleCols(c0, dk).cast<double>();
    HeadReference ref;
    ref.scores = q * k.transpose();
    ref.weights = ref.scores / std::sqrt(static_cast<double>(dk));
    for (Eigen::Index i = 0; i < ref.weights.rows(); ++i) {
        const Eigen::Index kept = causal ? i + 1 : ref.weights.cols();
        const double top = ref.weights.row(i).head(kept).maxCoeff();
        double total = 0;
        for (Eigen::Index j = 0; j < ref.weights.cols(); ++j) {
            ref.weights(i, j) = j < kept ? std::exp(ref.weights(i, j) - top) : 0.0;
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
