// HeadTrace::weights in the precision of the run (core/trace/attention_weights.hpp): double for
// lessons, float for models, read the same way by every analysis.
#include <catch2/catch.hpp>
#include <type_traits>
#include <vector>

#include "core/analysis/coreference.hpp"
#include "core/analysis/head_stats.hpp"
#include "core/analysis/head_summary.hpp"
#include "core/model/transformer.hpp"
#include "core/pipeline/attention_layer.hpp"
#include "tests/matrix_literal.hpp"

namespace attnscope {
namespace {

template <typename M>
constexpr bool isFloatMatrix(const M&) {
    return std::is_same_v<M, MatF>;
}

// 0.1f is not 0.1: a float read as double must give the float's own value, 0.100000001490116…
MatF tenths() {
    MatF m(2, 3);
    m << 0.1f, 0.2f, 0.7f, 0.3f, 0.3f, 0.4f;
    return m;
}

}  // namespace

TEST_CASE("attention weights: a float grid reads as double exactly, a lesson's as itself", "[weights]") {
    const AttentionWeights single(tenths());
    CHECK(single.isFloat());
    CHECK(single.rows() == 2);
    CHECK(single.cols() == 3);
    CHECK(single.size() == 6);
    CHECK(single(0, 0) == static_cast<double>(0.1f));
    CHECK(single(0, 0) != 0.1);  // not rounded to the decimal
    CHECK(single(1, 2) == static_cast<double>(0.4f));
    const Mat asDouble = single.toMat();
    CHECK(asDouble(0, 1) == static_cast<double>(0.2f));
    CHECK(single.visit([](const auto& m) { return isFloatMatrix(m); }));  // the MatF itself, no copy
    CHECK(single.visit([](const auto& m) { return double(m.sum()); }) == Approx(2.0).margin(1e-6));

    const Mat lessonValues = testing::rows({{0.25, 0.75}, {1.0 / 3.0, 2.0 / 3.0}});
    const AttentionWeights lesson(lessonValues);
    CHECK_FALSE(lesson.isFloat());
    CHECK(lesson.exact()(1, 0) == 1.0 / 3.0);  // bit for bit, no float on the way
    CHECK(lesson(1, 1) == 2.0 / 3.0);
    CHECK_FALSE(lesson.visit([](const auto& m) { return isFloatMatrix(m); }));
    CHECK(lesson.toMat() == lessonValues);

    const GridRef view = single;  // the non-owning view stepMatrix returns
    CHECK(view.isFloat());
    CHECK(view(1, 0) == static_cast<double>(0.3f));
    CHECK(AttentionWeights(tenths()) == single);
    CHECK_FALSE(AttentionWeights(Mat(tenths().cast<double>())) == single);  // same numbers, other precision
}

TEST_CASE("attention weights: the kernel writes a model's weights as float, a lesson's as double", "[weights][kernel]") {
    const MatF Q = testing::rows({{1, 0, 2, 1}, {0, 1, 1, 0}, {1, 1, 0, 2}}).cast<float>();
    for (const LayerDetail detail : {LayerDetail::WeightsOnly, LayerDetail::Full}) {
        LayerTrace model;
        multiHeadAttention(Q, Q, Q, 2, true, detail, model);
        for (const HeadTrace& h : model.heads) {
            CHECK(h.weights.isFloat());  // no T×T double in the Trace
            CHECK(h.weights.visit([](const auto& m) { return isFloatMatrix(m); }));
            CHECK(h.weights.rows() == 3);
            CHECK(h.weights(0, 1) == 0.0);  // causal
        }
        Trace trace;
        trace.tokens = {Token{"a"}, Token{"b"}, Token{"c"}};
        trace.layers.push_back(model);
        // The step view of the weights reads the float weights themselves, not an empty matrix.
        const GridRef shown = stepMatrix(trace, Step::Weights, 0, 1);
        CHECK(shown.isFloat());
        CHECK(shown.rows() == 3);
        CHECK(shown(2, 0) == model.heads[1].weights(2, 0));
        CHECK(shown(2, 0) > 0.0);
    }
    const LayerTrace lesson = runAttentionLayer(Q.cast<double>(), {identityHead(4)}, Mat(), RowVec(),
                                                AttentionOptions{true, true, std::nullopt, -1}, {}, nullptr);
    CHECK_FALSE(lesson.heads[0].weights.isFloat());
    CHECK(lesson.heads[0].weights.exact().rows() == 3);
}

TEST_CASE("attention weights: analyses give the same result on float weights and the same values as double",
          "[weights][analysis]") {
    // Two heads of softmax-like float rows (not representable in a few decimals).
    MatF a(4, 4), b(4, 4);
    a << 0.4f, 0.3f, 0.2f, 0.1f, 0.11f, 0.51f, 0.19f, 0.19f, 0.2f, 0.2f, 0.4f, 0.2f, 0.25f, 0.25f, 0.25f, 0.25f;
    b << 0.1f, 0.1f, 0.1f, 0.7f, 0.3f, 0.13f, 0.3f, 0.27f, 0.f, 0.6f, 0.2f, 0.2f, 0.41f, 0.19f, 0.2f, 0.2f;
    const auto traceWith = [&](bool asFloat) {
        Trace t;
        for (const char* text : {"[CLS]", "it", "was", "[SEP]"}) t.tokens.push_back(Token{text});
        t.tokens.front().special = t.tokens.back().special = true;
        LayerTrace layer;
        for (const MatF* w : {&a, &b}) {
            HeadTrace h;
            if (asFloat) h.weights = *w;
            else h.weights = Mat(w->cast<double>());
            layer.heads.push_back(h);
        }
        t.layers.push_back(layer);
        return t;
    };
    const Trace single = traceWith(true), exact = traceWith(false);
    REQUIRE(single.layers[0].heads[0].weights.isFloat());
    REQUIRE_FALSE(exact.layers[0].heads[0].weights.isFloat());

    CHECK(averageOverHeads(single.layers[0]) == averageOverHeads(exact.layers[0]));
    CHECK(maxOverHeads(single.layers[0]) == maxOverHeads(exact.layers[0]));
    const WeightSelection hidden{visibleTokens(single, true), true};
    CHECK(maxWeight(single, 0, hidden) == maxWeight(exact, 0, hidden));
    CHECK(maxWeight(single, 0, hidden) > 0.5);
    CHECK(shownWeights(single.layers[0].heads[1].weights, hidden) == shownWeights(exact.layers[0].heads[1].weights, hidden));
    CHECK(rowEntropyBits(single.layers[0].heads[0].weights, 1) == rowEntropyBits(exact.layers[0].heads[0].weights, 1));

    const std::vector<Word> words{{"[CLS]", {0}}, {"it", {1}}, {"was", {2}}, {"[SEP]", {3}}};
    const Mention it{1, 1};
    const RowVec fromFloat = candidateDistribution(single.layers[0].heads[1].weights, words, it, {0, 2});
    const RowVec fromDouble = candidateDistribution(exact.layers[0].heads[1].weights, words, it, {0, 2});
    CHECK(fromFloat == fromDouble);
    // By hand: row 1 of head 2 gives [CLS] 0.3 and "was" 0.3, so each candidate gets half.
    CHECK(fromFloat(0) == Approx(0.5).margin(1e-7));
}

// Two Traces a heatmap would draw the same from (sameWeightsShown, core/trace/trace.hpp).
TEST_CASE("sameWeightsShown compares the tokens and the cells a query may attend to", "[trace]") {
    const auto traceOf = [](MatF head0, bool causal) {
        Trace t;
        t.tokens = {Token{"a"}, Token{"b"}, Token{"c"}};
        t.causal = causal;
        t.layers.resize(2);
        t.layers[1].heads.resize(2);
        t.layers[1].heads[0].weights = std::move(head0);
        t.layers[1].heads[1].weights = MatF(MatF::Identity(3, 3));
        return t;
    };
    MatF w(3, 3);
    w << 1.0f, 0.0f, 0.0f,  //
        0.25f, 0.75f, 0.0f,  //
        0.5f, 0.125f, 0.375f;
    const Trace shown = traceOf(w, true);
    CHECK(sameWeightsShown(shown, traceOf(w, true), 1, {0}));
    CHECK(sameWeightsShown(shown, traceOf(w, true), 1, {0, 1}));
    CHECK_FALSE(sameWeightsShown(shown, traceOf(w, true), 1, {}));  // nothing drawn: nothing to keep
    CHECK_FALSE(sameWeightsShown(shown, traceOf(w, true), 0, {0}));  // layer 0 holds no head
    MatF visible = w;
    visible(2, 1) = 0.126f;  // a cell on screen
    CHECK_FALSE(sameWeightsShown(shown, traceOf(visible, true), 1, {0}));
    CHECK(sameWeightsShown(shown, traceOf(visible, true), 1, {1}));  // head 1 is the same
    MatF hidden = w;
    hidden(0, 2) = 0.5f;  // above the diagonal: masked in a causal run, never read
    CHECK(sameWeightsShown(shown, traceOf(hidden, true), 1, {0}));
    CHECK_FALSE(sameWeightsShown(traceOf(w, false), traceOf(hidden, false), 1, {0}));  // an encoder reads it
    Trace otherTokens = traceOf(w, true);
    otherTokens.tokens[2].text = "d";
    CHECK_FALSE(sameWeightsShown(shown, otherTokens, 1, {0}));
    Trace grouped = traceOf(w, true);
    grouped.wordGroups = {0, 0, 1};  // the run's Trace after its early one: the same cells
    CHECK(sameWeightsShown(shown, grouped, 1, {0}));
    Trace ablated = traceOf(w, true);
    ablated.layers[1].heads[0].ablated = true;
    CHECK_FALSE(sameWeightsShown(shown, ablated, 1, {0}));
    Trace inDouble = traceOf(w, true);
    inDouble.layers[1].heads[0].weights = Mat(w.cast<double>());  // the same numbers, a lesson's precision
    CHECK_FALSE(sameWeightsShown(shown, inDouble, 1, {0}));
    Trace notComputed = traceOf(w, true);
    notComputed.layers[1].heads[0].weights = AttentionWeights();
    CHECK_FALSE(sameWeightsShown(notComputed, notComputed, 1, {0}));
}

}  // namespace attnscope
