// withoutLayers: the detail Trace of a model run keeps every field of the run's Trace but its
// layers. detailTraceOf used to copy twelve fields by hand and missed keyTokens, residual and
// handRounding; this test sets every field to a non-default value and checks each survives.
#include <catch2/catch.hpp>

#include "core/source/model_session.hpp"
#include "core/text/message_id.hpp"

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
}

// The guard for the next field: Trace's size on this platform (x86-64, libstdc++) with the
// fields above. A new field changes it: copy the field in withoutLayers, set and check it above,
// then update the number.
TEST_CASE("Trace has no field withoutLayers does not know", "[model_session]") {
    CHECK(sizeof(Trace) == 208);
}
