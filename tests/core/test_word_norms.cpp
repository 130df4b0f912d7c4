// Norm-based attention between words (View ▸ Attention between words with "Weight × ‖value‖"), the
// window's NormScale path: wordLevelTrace(normWeightedTrace(run)), against the float64 torch
// reference tests/reference/reference_beyond_weights.py (fixtures/beyond_weights.json, word_level).
//
// How the reference aggregates, independently of core (its word_groups and word_level_shares):
// words are read from the pieces' own vocabulary marks (GPT-2: a piece starting with "Ġ" starts a
// word, any other continues it; BERT: "##" continues, so [CLS] and [SEP] are words alone); each
// piece row's ‖α_ij·f(x_j)‖ is first divided by the row's sum (the share the colour scale shows),
// then, as core/analysis/word_attention.cpp does (Clark et al. 2019), attention *to* a word is
// the sum over its pieces' columns and attention *from* a word the mean over its pieces' rows, so
// each word row still sums to 1. The example models ship with AttnScope (resources/models).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/analysis/norm_attention.hpp"
#include "core/analysis/word_attention.hpp"
#include "core/source/model_session.hpp"
#include "model_fixtures.hpp"

using namespace attnscope;
using namespace attnscope::fixture_io;

namespace {

const nlohmann::json& wordCase(const std::string& model) {
    static const nlohmann::json json = readJson(sourceDir() / "tests/reference/fixtures/beyond_weights.json");
    for (const nlohmann::json& c : json.at("word_level"))
        if (c.at("model") == model) return c;
    FAIL("beyond_weights.json has no word_level case for " << model);
    return json;
}

// Every value of the word-level norm-weighted Trace against the reference: the largest difference
// and the first mismatches beyond `tolerance` (float32 here, float64 there).
void checkWordNorms(const std::string& model, const std::string& sentence) {
    const nlohmann::json& expected = wordCase(model);
    auto opened = openModel((sourceDir() / "resources/models" / model).string());
    REQUIRE(opened.ok());
    auto run = runSentence(opened.value(), sentence, RunControl{});
    REQUIRE(run.ok());
    const Trace& pieces = run.value().trace;
    std::vector<int> ids;
    for (const Token& t : pieces.tokens) ids.push_back(t.id);
    REQUIRE(ids == expected.at("ids").get<std::vector<int>>());  // the reference ran the same pieces
    REQUIRE(pieces.wordGroups == expected.at("groups").get<std::vector<int>>());
    REQUIRE(hasMultiPieceWords(pieces));

    auto norms = normWeightedTrace(pieces);  // a short sentence: every layer in full detail
    REQUIRE(norms.ok());
    const Trace words = wordLevelTrace(norms.value());
    const nlohmann::json& torch = expected.at("word_norm_shares");
    REQUIRE(words.layerCount() == static_cast<int>(torch.size()));
    constexpr double kTolerance = 1e-5;
    double largest = 0;
    int compared = 0;
    std::ostringstream first;
    int mismatches = 0;
    for (int l = 0; l < words.layerCount(); ++l)
        for (int h = 0; h < words.headCount(); ++h) {
            const Mat ours = words.layers[static_cast<std::size_t>(l)].heads[static_cast<std::size_t>(h)].weights.toMat();
            const Mat want = matrixOf(torch[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)]);
            REQUIRE(ours.rows() == want.rows());
            REQUIRE(ours.cols() == want.cols());
            for (Eigen::Index i = 0; i < want.rows(); ++i)
                for (Eigen::Index j = 0; j < want.cols(); ++j, ++compared) {
                    const double diff = std::abs(ours(i, j) - want(i, j));
                    largest = std::max(largest, diff);
                    if (diff > kTolerance && mismatches++ < 3)
                        first << " layer " << l + 1 << " head " << h + 1 << " word " << i << "→" << j << ": ours "
                              << ours(i, j) << ", torch " << want(i, j) << ";";
                }
        }
    INFO(model << ": " << compared << " values, largest |ours − torch| " << largest << ";" << first.str());
    CHECK(largest < kTolerance);
}

}  // namespace

TEST_CASE("Weight × ‖value‖ between words matches torch for GPT-2 and BERT example models", "[beyond-weights][word-attention]") {
    SECTION("example GPT: \"unfolded\" is four pieces") { checkWordNorms("example-gpt", "The shepherds unfolded their tents"); }
    SECTION("example BERT: \"unfolded\" is three pieces, [CLS] and [SEP] words alone") {
        checkWordNorms("example-bert", "The shepherds unfolded their [MASK]");
    }
}
