// The attention kernel (core/pipeline/attention_kernel.hpp) behind both paths: a lesson layer in
// double (runAttentionLayer) and a model layer in float (multiHeadAttention) on the same numbers
// give the same intermediates, and both match tests/reference/reference_kernel.py, which computes
// the case from the textbook definition in plain Python (its output is pasted below).
//
// The case: 3 tokens, d = 4, two heads of d_k = 2 (head h reads columns 2h, 2h+1 of Q, K, V).
// By hand, head 1 of the causal case, row 2 (q = (0, 1)): scores with k_1 = (1, 1) and
// k_2 = (2, 0) are 1 and 0, k_3 is masked; scaled 1/√2 = 0.70711 and 0; e^0.70711 = 2.02811, so
// the weights are 2.02811 / 3.02811 = 0.66976 and 1 / 3.02811 = 0.33024 and exactly 0, and the
// output is 0.66976·(1, 0) + 0.33024·(0, 1) = (0.66976, 0.33024).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/pipeline/attention_layer.hpp"
#include "core/model/transformer.hpp"
#include "matrix_compare.hpp"
#include "tests/matrix_literal.hpp"

namespace attnscope {
namespace {

using testing::rows;

const Mat kQ = rows({{1, 0, 2, 1}, {0, 1, 1, 0}, {1, 1, 0, 2}});
const Mat kK = rows({{1, 1, 0, 1}, {2, 0, 1, 1}, {0, 1, 1, 0}});
const Mat kV = rows({{1, 0, 0, 2}, {0, 1, 1, 0}, {1, 1, 2, 1}});
constexpr int kHeads = 2, kDk = 2;

struct Expected {
    Mat weights[2];
    Mat context;
};

// tests/reference/reference_kernel.py, printed with 17 significant digits.
Expected expectedFor(bool causal) {
    if (!causal)
        return {{rows({{0.28399540974126003, 0.57597534521536198, 0.14002924504337802},
                       {0.40111209267978593, 0.1977758146404282, 0.40111209267978593},
                       {0.40111209267978593, 0.40111209267978593, 0.1977758146404282}}),
                 rows({{0.14002924504337802, 0.57597534521536198, 0.28399540974126003},
                       {0.1977758146404282, 0.40111209267978593, 0.40111209267978593},
                       {0.44580827410760315, 0.44580827410760315, 0.10838345178479356}})},
                rows({{0.42402465478463802, 0.71600459025873997, 1.143966164697882, 0.56405389982801601},
                      {0.80222418535957185, 0.59888790732021413, 1.2033362780393577, 0.79666372196064228},
                      {0.59888790732021413, 0.59888790732021413, 0.66257517767719021, 0.99999999999999989}})};
    return {{rows({{1, 0, 0},
                   {0.66976154932665688, 0.33023845067334312, 0},
                   {0.40111209267978593, 0.40111209267978593, 0.1977758146404282}}),
             rows({{1, 0, 0},
                   {0.33023845067334312, 0.66976154932665688, 0},
                   {0.44580827410760315, 0.44580827410760315, 0.10838345178479356}})},
            rows({{1, 0, 0, 2},
                  {0.66976154932665688, 0.33023845067334312, 0.66976154932665688, 0.66047690134668624},
                  {0.59888790732021413, 0.59888790732021413, 0.66257517767719021, 0.99999999999999989}})};
}

// The lesson sees X = [Q | K | V] (3×12) and per head 0/1 weights that pick its columns, so its
// projections reproduce the model's head slices exactly.
Mat selection(int from) {
    Mat w = Mat::Zero(3 * 4, kDk);  // 12×d_k
    for (int c = 0; c < kDk; ++c) w(from + c, c) = 1;
    return w;
}

LayerTrace lessonLayer(bool causal, std::vector<Notice>* notices) {
    Mat X(3, 12);
    X << kQ, kK, kV;
    std::vector<HeadWeights> heads;
    for (int h = 0; h < kHeads; ++h)
        heads.push_back(HeadWeights{selection(h * kDk), selection(4 + h * kDk), selection(8 + h * kDk), {}, {}, {}});
    AttentionOptions options;
    options.causal = causal;
    return runAttentionLayer(X, heads, Mat(), RowVec(), options, {"a", "b", "c"}, notices);
}

LayerTrace modelLayer(bool causal, LayerDetail detail, Mat* context) {
    LayerTrace layer;
    const MatF Q = kQ.cast<float>(), K = kK.cast<float>(), V = kV.cast<float>();
    *context = multiHeadAttention(Q, K, V, kHeads, causal, detail, layer).cast<double>();
    return layer;
}

}  // namespace

TEST_CASE("one attention kernel: a lesson layer (double) and a model layer (float) agree", "[kernel]") {
    const bool causal = GENERATE(false, true);
    INFO("causal " << causal);
    const Expected expected = expectedFor(causal);
    std::vector<Notice> notices;
    const LayerTrace lesson = lessonLayer(causal, &notices);
    Mat modelContext;
    const LayerTrace model = modelLayer(causal, LayerDetail::Full, &modelContext);
    CHECK(notices.empty());  // no masked row, no infinity
    REQUIRE(lesson.heads.size() == 2);
    REQUIRE(model.heads.size() == 2);
    for (int h = 0; h < kHeads; ++h) {
        INFO("head " << h);
        const HeadTrace& l = lesson.heads[static_cast<std::size_t>(h)];
        const HeadTrace& m = model.heads[static_cast<std::size_t>(h)];
        REQUIRE_MATRIX_NEAR(expected.weights[h], l.weights, 1e-12);  // exact double
        REQUIRE_MATRIX_NEAR(expected.weights[h], m.weights, 1e-6);   // float
        // Every intermediate the kernel records is the same on both paths, mask included.
        REQUIRE_MATRIX_NEAR(l.q, m.q, 0.0);  // small integers: exact in float
        REQUIRE_MATRIX_NEAR(l.k, m.k, 0.0);
        REQUIRE_MATRIX_NEAR(l.v, m.v, 0.0);
        REQUIRE_MATRIX_NEAR(l.scores, m.scores, 0.0);
        REQUIRE_MATRIX_NEAR(l.scaledScores, m.scaledScores, 1e-6);
        REQUIRE_MATRIX_NEAR(l.mask, m.mask, 0.0);
        REQUIRE_MATRIX_NEAR(l.maskedScores, m.maskedScores, 1e-6);
        REQUIRE_MATRIX_NEAR(l.weightedSum, m.weightedSum, 1e-6);
        if (causal) {
            // A hidden token gets exactly 0 on both paths (longer rows: the test case below).
            CHECK(m.weights(0, 1) == 0.0);
            CHECK(m.weights(1, 2) == 0.0);
            CHECK(l.weights(0, 2) == 0.0);
        }
    }
    REQUIRE_MATRIX_NEAR(expected.context, lesson.concat, 1e-12);
    REQUIRE_MATRIX_NEAR(expected.context, modelContext, 1e-6);
}

TEST_CASE("the model path through the kernel keeps only the weights when asked", "[kernel]") {
    Mat full, light;
    modelLayer(true, LayerDetail::Full, &full);
    const LayerTrace layer = modelLayer(true, LayerDetail::WeightsOnly, &light);
    REQUIRE_MATRIX_NEAR(full, light, 0.0);  // the same context either way
    for (const HeadTrace& h : layer.heads) {
        CHECK(h.weights.rows() == 3);
        CHECK(h.weights.cols() == 3);
        CHECK(h.scores.size() == 0);
        CHECK(h.maskedScores.size() == 0);
        CHECK(h.q.size() == 0);
        CHECK(h.weightedSum.size() == 0);
    }
    REQUIRE_MATRIX_NEAR(expectedFor(true).weights[1], layer.heads[1].weights, 1e-6);
}

}  // namespace attnscope

namespace attnscope {

// Long enough rows (8 tokens) that the float softmax's vectorised exp handles the hidden tokens
// (a 3-token row stays on the scalar tail, which std::exp gets right). With Q = 0 every score is
// 0, so by hand token i spreads its weight evenly over tokens 1…i: 1/i each, and 0 after.
TEST_CASE("one attention kernel: hidden tokens get exactly zero weight in float and double", "[kernel]") {
    constexpr int T = 8, d = 4;
    const MatF zeros = MatF::Zero(T, d);
    MatF values(T, d);
    for (int i = 0; i < T; ++i) values.row(i).setConstant(static_cast<float>(i + 1));
    LayerTrace model;
    multiHeadAttention(zeros, zeros, values, 1, true, LayerDetail::WeightsOnly, model);
    const LayerTrace lesson = runAttentionLayer(Mat::Zero(T, d), {identityHead(d)}, Mat(), RowVec(),
                                                AttentionOptions{true, true, std::nullopt, -1}, {}, nullptr);
    for (const GridRef weights : {GridRef(model.heads[0].weights), GridRef(lesson.heads[0].weights)}) {
        for (int i = 0; i < T; ++i)
            for (int j = 0; j < T; ++j) {
                INFO("row " << i << ", column " << j);
                if (j > i) REQUIRE(weights(i, j) == 0.0);
                else REQUIRE(weights(i, j) == Approx(1.0 / (i + 1)).margin(1e-7));
            }
    }
}

}  // namespace attnscope
