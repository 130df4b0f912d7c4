// withoutLayers: the detail Trace of a model run keeps every field of the run's Trace but its
// layers. detailTraceOf used to copy twelve fields by hand and missed keyTokens, residual and
// handRounding; this test sets every field to a non-default value and checks each survives.
#include <catch2/catch.hpp>

#include "core/source/model_session.hpp"
#include "core/text/message_id.hpp"
#include "tests/core/matrix_compare.hpp"

using namespace attnscope;

namespace {

Token token(const char* text, int id) {
    Token t;
    t.text = text;
    t.id = id;
    t.word = id;
    t.special = id == 0;
    t.inTable = false;
    return t;
}

Mat filled(int rows, int cols, double start) {
    Mat m(rows, cols);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) m(r, c) = start + r * cols + c;
    return m;
}

// Every field away from its default (a field added to Trace must be set here too).
Trace everyFieldSet() {
    Trace t;
    t.tokens = {token("[CLS]", 0), token("cat", 7)};
    t.keyTokens = {token("chat", 9)};
    t.embedding = filled(2, 3, 1);
    t.positional = filled(2, 3, 10);
    t.layers.resize(2);
    t.featureNames = {"a", "b", "c"};
    t.positionalKind = PositionalKind::Table;
    t.projections = false;
    t.scaled = false;
    t.scaleDivisor = 2.5;
    t.causal = true;
    t.paddedFrom = 1;
    t.hasOutputProjection = true;
    t.residual = true;
    t.handRounding = 2;
    t.notices = {Notice{MessageId::NoticeRowMaskedNumbered, {"2"}}};
    t.wordGroups = {0, 1};
    t.block.residual = true;
    t.block.afterAttention = filled(2, 3, 100);
    return t;
}

void requireSameTokens(const std::vector<Token>& a, const std::vector<Token>& b) {
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        CHECK(a[i].text == b[i].text);
        CHECK(a[i].id == b[i].id);
        CHECK(a[i].word == b[i].word);
        CHECK(a[i].special == b[i].special);
        CHECK(a[i].inTable == b[i].inTable);
    }
}

}  // namespace

TEST_CASE("withoutLayers keeps every Trace field but the layers", "[model_session]") {
    const Trace full = everyFieldSet();
    const Trace copy = withoutLayers(full);
    CHECK(copy.layers.empty());
    requireSameTokens(copy.tokens, full.tokens);
    requireSameTokens(copy.keyTokens, full.keyTokens);
    CHECK(copy.embedding == full.embedding);
    CHECK(copy.positional == full.positional);
    CHECK(copy.featureNames == full.featureNames);
    CHECK(copy.positionalKind == PositionalKind::Table);
    CHECK_FALSE(copy.projections);
    CHECK_FALSE(copy.scaled);
    CHECK(copy.scaleDivisor == 2.5);
    CHECK(copy.causal);
    CHECK(copy.paddedFrom == 1);
    CHECK(copy.hasOutputProjection);
    CHECK(copy.residual);
    CHECK(copy.handRounding == std::optional<int>(2));
    CHECK(copy.notices == full.notices);
    CHECK(copy.wordGroups == full.wordGroups);
    CHECK(copy.block.residual);
    CHECK(copy.block.afterAttention == full.block.afterAttention);
}

// The guard for the next field: Trace's size on this platform (x86-64, libstdc++) with the
// fields above. A new field changes it: copy the field in withoutLayers, set and check it above,
// then update the number.
TEST_CASE("Trace has no field withoutLayers does not know", "[model_session]") {
    CHECK(sizeof(Trace) == 848);
}

TEST_CASE("takeDetailTrace moves the run's Full layer out: the recomputed layer's numbers, weights left behind",
          "[model_session][models]") {
    for (const char* name : {"bert-tiny", "gpt2-tiny"}) {
        INFO(name);
        auto opened = openModel((std::string(ATTNSCOPE_SOURCE_DIR) + "/tests/reference/models/" + name));
        REQUIRE(opened.ok());
        RunControl control;
        control.fullDetailMaxTokens = 0;  // as the window: WeightsOnly but the shown layer
        control.detailLayer = 1;
        auto run = runSentence(opened.value(), "the cat sat on the mat", control);
        REQUIRE(run.ok());
        ModelRun& r = run.value();
        REQUIRE(r.detail[1] == LayerDetail::Full);
        const LayerTrace before = r.trace.layers[1];
        // The independent way: layer 1 rebuilt from its input (traceLayerInDetail), not moved.
        auto recomputed = detailTraceOf(opened.value(), [&] {
            ModelRun weightsOnly = r;
            weightsOnly.detail[1] = LayerDetail::WeightsOnly;
            return weightsOnly;
        }(), 1);
        REQUIRE(recomputed.ok());
        auto taken = takeDetailTrace(opened.value(), r, 1);
        REQUIRE(taken.ok());
        REQUIRE(taken.value().layers.size() == 1);
        const LayerTrace& moved = taken.value().layers[0];
        const LayerTrace& rebuilt = recomputed.value().layers[0];
        REQUIRE(moved.heads.size() == rebuilt.heads.size());
        for (std::size_t h = 0; h < moved.heads.size(); ++h) {
            REQUIRE_MATRIX_NEAR(rebuilt.heads[h].scores, moved.heads[h].scores, 1e-6);
            REQUIRE_MATRIX_NEAR(rebuilt.heads[h].weights.toMat(), moved.heads[h].weights.toMat(), 1e-7);
            REQUIRE_MATRIX_NEAR(rebuilt.heads[h].params.wq, moved.heads[h].params.wq, 0.0);
            // What the run keeps: the weights (bit for bit), no scores.
            CHECK(r.trace.layers[1].heads[h].weights == before.heads[h].weights);
            CHECK(r.trace.layers[1].heads[h].scores.size() == 0);
        }
        REQUIRE_MATRIX_NEAR(rebuilt.output, moved.output, 1e-6);
        CHECK(r.detail[1] == LayerDetail::WeightsOnly);
        CHECK(taken.value().tokens.size() == r.trace.tokens.size());
        // A layer the run did not keep Full is recomputed, as detailTraceOf.
        auto other = takeDetailTrace(opened.value(), r, 0);
        REQUIRE(other.ok());
        CHECK(other.value().layers[0].heads[0].scores.size() > 0);
    }
}
