// Issue 29 §5, what attention did to each word (core/analysis/token_movement.hpp): against
// tests/reference/reference_token_movement.py (its own float64 torch forward passes of the example
// GPT-2-style and BERT-style models), and a lesson-sized trace worked by hand. Float32 runs here.
#include <catch2/catch.hpp>
#include <climits>
#include <cmath>
#include <sstream>

#include "core/analysis/token_movement.hpp"
#include "core/analysis/token_movement_run.hpp"
#include "core/analysis/token_movement_worksheet.hpp"
#include "core/text/language.hpp"
#include "builtin_lesson.hpp"
#include "model_fixtures.hpp"

using namespace attnscope;
using namespace attnscope::fixture_io;

namespace {

using Json = nlohmann::json;

const Json& caseOf(const std::string& model) {
    static const Json json = readJson(sourceDir() / "tests/reference/fixtures/token_movement.json");
    for (const Json& c : json.at("cases"))
        if (c.at("model") == model) return c;
    FAIL("no case for " << model);
    return json;
}

// The largest |ours − torch| and where, and the first few places past the tolerance.
struct Comparison {
    double tolerance;
    double largest = 0;
    std::string where;
    int mismatches = 0;
    std::ostringstream first;
    explicit Comparison(double tol) : tolerance(tol) {}
    void see(double ours, double torch, const std::string& at) {
        const double diff = std::abs(ours - torch);
        if (diff > largest || std::isnan(diff)) largest = diff, where = at;
        if (!(diff <= tolerance) && ++mismatches <= 5) first << at << ": ours " << ours << ", torch " << torch << "; ";
    }
    std::string report() const {
        return "largest |ours − torch| " + std::to_string(largest) + " at " + where + "; " + std::to_string(mismatches) +
               " mismatches; first: " + first.str();
    }
};

ModelRun runIds(const LoadedModel& model, const std::vector<int>& ids) {
    std::vector<Token> tokens;
    for (int id : ids) tokens.push_back(Token{"t" + std::to_string(id), true, id});
    auto run = runModel(model, ids, tokens, RunControl{});  // T ≤ 8: every layer in full detail
    INFO("run error: " << (run ? std::string() : run.error().text()));
    REQUIRE(run.ok());
    return std::move(run).value();
}

std::string at(std::size_t l, std::size_t i, std::size_t j = 0) {
    return "layer " + std::to_string(l + 1) + " token " + std::to_string(i + 1) + " source " + std::to_string(j + 1);
}

void checkAgainstTorch(const std::string& name) {
    const Json& expected = caseOf(name);
    const LoadedModel model = loadExample(name);
    const ModelRun run = runIds(model, expected.at("ids_a").get<std::vector<int>>());
    const std::vector<Mat> states = residualStates(run);
    Comparison moved(1e-4), sources(1e-4), vectors(1e-5), curve(1e-6);
    for (int l = 0; l < run.trace.layerCount(); ++l) {
        auto m = tokenMovement(run.trace, states, l);
        INFO("error: " << (m ? std::string() : m.error().text()));
        REQUIRE(m.ok());
        const auto L = static_cast<std::size_t>(l);
        REQUIRE(m.value().tokens.size() == expected.at("distance")[L].size());
        for (const TokenMove& t : m.value().tokens) {
            const auto i = static_cast<std::size_t>(t.token);
            moved.see(t.distance, expected.at("distance")[L][i].get<double>(), at(L, i) + " distance");
            moved.see(t.cosine, expected.at("cosine")[L][i].get<double>(), at(L, i) + " cosine");
            REQUIRE(t.sources.size() == expected.at("sources")[L][i].size());
            for (std::size_t r = 0; r < t.sources.size(); ++r) {
                const SourceContribution& s = t.sources[r];
                const auto j = static_cast<std::size_t>(s.token);
                sources.see(s.norm, expected.at("sources")[L][i][j].get<double>(), at(L, i, j));
                if (r > 0) CHECK(t.sources[r - 1].norm >= s.norm);  // largest first
                if (l == 0 && i + 1 == m.value().tokens.size())
                    for (Eigen::Index c = 0; c < s.vector.cols(); ++c)
                        vectors.see(s.vector(c), expected.at("last_vectors")[j][static_cast<std::size_t>(c)].get<double>(),
                                    at(L, i, j) + " column " + std::to_string(c + 1));
            }
        }
    }
    auto stack = tokenMovement(run.trace, states, std::nullopt);
    REQUIRE(stack.ok());
    for (const TokenMove& t : stack.value().tokens) {
        const auto i = static_cast<std::size_t>(t.token);
        moved.see(t.distance, expected.at("stack_distance")[i].get<double>(), "stack token " + std::to_string(i + 1));
        moved.see(t.cosine, expected.at("stack_cosine")[i].get<double>(), "stack token " + std::to_string(i + 1));
        CHECK(t.sources.empty());
    }
    const ModelRun runB = runIds(model, expected.at("ids_b").get<std::vector<int>>());
    auto cosines = sameTokenCosines(states, expected.at("token_a").get<int>(), residualStates(runB),
                                    expected.at("token_b").get<int>());
    REQUIRE(cosines.ok());
    REQUIRE(cosines.value().size() == expected.at("same_word").size());
    for (std::size_t l = 0; l < cosines.value().size(); ++l)
        curve.see(cosines.value()[l], expected.at("same_word")[l].get<double>(), "state " + std::to_string(l));
    INFO(name << " distance/cosine: " << moved.report());
    INFO(name << " source norms: " << sources.report());
    INFO(name << " source vectors: " << vectors.report());
    INFO(name << " same word: " << curve.report());
    CHECK(moved.mismatches == 0);
    CHECK(sources.mismatches == 0);
    CHECK(vectors.mismatches == 0);
    CHECK(curve.mismatches == 0);
}

// One layer, two tokens, d = 2, one head, W_V = W_O = I, a residual; the weights α are given (as a
// lesson states them) so every number below is worked by hand:
//   X = [[1, 0], [0, 2]], α = [[0.75, 0.25], [0.5, 0.5]], V = X, output α·V = [[0.75, 0.5], [0.5, 1]].
Trace handTrace() {
    Trace t;
    t.tokens = {Token{"a"}, Token{"b"}};
    t.residual = true;
    LayerTrace layer;
    layer.input = Mat{{1, 0}, {0, 2}};
    HeadTrace h;
    h.v = layer.input;  // V = X·I
    h.weights = Mat{{0.75, 0.25}, {0.5, 0.5}};
    h.weightedSum = Mat{{0.75, 0.5}, {0.5, 1}};  // α·V
    layer.heads = {h};
    layer.wo = Mat::Identity(2, 2);
    layer.output = h.weightedSum;
    t.layers = {layer};
    return t;
}

}  // namespace

TEST_CASE("token movement of the example GPT-2 model agrees with torch", "[token-movement]") {
    checkAgainstTorch("example-gpt");
}

TEST_CASE("token movement of the example BERT model agrees with torch", "[token-movement]") {
    checkAgainstTorch("example-bert");
}

TEST_CASE("token movement of a trace worked by hand", "[token-movement]") {
    const Trace t = handTrace();
    auto states = residualStates(t);
    REQUIRE(states.ok());
    REQUIRE(states.value().size() == 2);
    // Y = X + α·V = [[1.75, 0.5], [0.5, 3]].
    CHECK(states.value()[1](0, 0) == Approx(1.75));
    CHECK(states.value()[1](1, 1) == Approx(3));
    auto m = tokenMovement(t, states.value(), 0);
    REQUIRE(m.ok());
    const TokenMove& a = m.value().tokens[0];
    // y − x = (0.75, 0.5): ‖·‖ = √(0.5625 + 0.25) = 0.901388; cos = 1.75 / √(1.75² + 0.5²) = 1.75/1.820027 = 0.961524
    CHECK(a.distance == Approx(0.901388).epsilon(1e-6));
    CHECK(a.cosine == Approx(0.961524).epsilon(1e-6));
    // Sources of a: c_aa = 0.75·(1, 0) → 0.75; c_ab = 0.25·(0, 2) → 0.5. Largest first: a, then b.
    REQUIRE(a.sources.size() == 2);
    CHECK(a.sources[0].token == 0);
    CHECK(a.sources[0].norm == Approx(0.75));
    CHECK(a.sources[1].token == 1);
    CHECK(a.sources[1].norm == Approx(0.5));
    // Shares of the sum 1.25: 0.75/1.25 = 0.6 and 0.5/1.25 = 0.4.
    CHECK(a.sources[0].share == Approx(0.6));
    CHECK(a.sources[1].share == Approx(0.4));
    // Sources of b: c_ba = 0.5·(1, 0) → 0.5; c_bb = 0.5·(0, 2) → 1: b first.
    const TokenMove& b = m.value().tokens[1];
    CHECK(b.sources[0].token == 1);
    CHECK(b.sources[0].norm == Approx(1));
    CHECK(b.sources[1].vector(0) == Approx(0.5));
    // y_b = (0.5, 3), x_b = (0, 2): ‖(0.5, 1)‖ = 1.118034; cos = 6 / (2·3.041381) = 0.986394
    CHECK(b.distance == Approx(1.118034).epsilon(1e-6));
    CHECK(b.cosine == Approx(0.986394).epsilon(1e-6));
}

TEST_CASE("an ablated head brings nothing to a token", "[token-movement]") {
    Trace t = handTrace();
    t.layers[0].heads[0].ablated = true;
    auto c = sourceContributions(t, 0, 0);
    REQUIRE(c.ok());
    CHECK(c.value().norm() == 0);
}

TEST_CASE("the same word in two contexts: a curve of cosines, errors naming the token", "[token-movement]") {
    // A: token 2 goes (1, 0) → (1, 1); B: token 1 goes (1, 0) → (0, 1). cos: 1, then 1/√2 = 0.707107.
    const std::vector<Mat> a{Mat{{0, 1}, {1, 0}}, Mat{{0, 1}, {1, 1}}};
    const std::vector<Mat> b{Mat{{1, 0}}, Mat{{0, 1}}};
    auto c = sameTokenCosines(a, 1, b, 0);
    REQUIRE(c.ok());
    REQUIRE(c.value().size() == 2);
    CHECK(c.value()[0] == Approx(1));
    CHECK(c.value()[1] == Approx(0.707107).epsilon(1e-6));
    auto bad = sameTokenCosines(a, 1, b, 3);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().text() == "the same word in two contexts (sentence B): has no token 4; its tokens are 1 to 1");
    CHECK(bad.error().textIn(Language::Chinese) == "同一个词在两个语境中（句子 B）: 没有第 4 个词元；词元的编号为 1 到 1");
    auto fewer = sameTokenCosines(a, 0, {b[0]}, 0);
    REQUIRE_FALSE(fewer.ok());
    CHECK(fewer.error().text().find("2 vectors per token") != std::string::npos);
}

TEST_CASE("token movement names a layer the trace lacks", "[token-movement]") {
    const Trace t = handTrace();
    auto states = residualStates(t);
    REQUIRE(states.ok());
    auto bad = tokenMovement(t, states.value(), 3);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().text() == "what attention did to each word: has no layer 4; its layers are 1 to 1");
    CHECK(bad.error().textIn(Language::Chinese) == "注意力对每个词做了什么: 没有第 4 层；层的编号为 1 到 1");
}

// The word the window's two-context curve starts on: the longest text in both sentences (case and
// GPT-2's leading space aside, special tokens never), ties to the lowest cosine leaving the last layer.
TEST_CASE("the same word's default: the longest word in both, then the one the contexts changed most", "[token-movement]") {
    const auto run = [](std::vector<Token> tokens, Mat last) {
        StatesRun r;
        r.trace.tokens = std::move(tokens);
        r.states = {last, last};
        return r;
    };
    const Mat four{{1, 0}, {1, 0}, {1, 0}, {1, 0}};
    Token cls{"[CLS]"};
    cls.special = true;
    // A: [CLS] "The" " bank" "is"; B: [CLS] "the" "river" " bank": "bank" (4 letters) beats "the" (3).
    const StatesRun a = run({cls, Token{"The"}, Token{" bank"}, Token{"is"}}, four);
    const StatesRun b = run({cls, Token{"the"}, Token{"river"}, Token{" bank"}}, four);
    CHECK(sameWordDefault(a, b) == std::make_pair(2, 3));
    // "is" and "to" in both, equally long: "to" leaves the last layer at cos 0 (orthogonal), "is" at 1.
    const StatesRun c = run({Token{"is"}, Token{"to"}}, Mat{{1, 0}, {1, 0}});
    const StatesRun d = run({Token{"to"}, Token{"is"}}, Mat{{0, 1}, {1, 0}});
    CHECK(sameWordDefault(c, d) == std::make_pair(1, 0));
    // Only special tokens shared: none.
    CHECK_FALSE(sameWordDefault(run({cls}, Mat{{1, 0}}), run({cls}, Mat{{1, 0}})).has_value());
}

// A run over the weights budget keeps no weights: the asked layer is rebuilt alone, with the same
// numbers as a run that kept every layer (float32 both, so equal to rounding).
TEST_CASE("a long run's movement rebuilds the asked layer and gives the same numbers", "[token-movement]") {
    auto opened = openModel((sourceDir() / "resources/models/example-gpt").string());
    INFO("open error: " << (opened ? std::string() : opened.error().text()));
    REQUIRE(opened.ok());
    RunControl everything;
    everything.allWeightsBudget = SIZE_MAX;
    RunControl tight;
    tight.allWeightsBudget = 1;  // one byte: every run is a long run
    auto full = modelStatesRun(opened.value(), "The LORD is my shepherd", 1, everything);
    auto rebuilt = modelStatesRun(opened.value(), "The LORD is my shepherd", 1, tight);
    REQUIRE(full.ok());
    REQUIRE(rebuilt.ok());
    CHECK(full.value().trace.layers[0].heads[0].weights.size() == 25);  // 5×5 kept
    CHECK(rebuilt.value().trace.layers[0].heads[0].weights.size() == 0);  // the long run kept none
    auto a = tokenMovement(full.value().trace, full.value().states, 1);
    auto b = tokenMovement(rebuilt.value().trace, rebuilt.value().states, 1);
    INFO("errors: " << (a ? std::string() : a.error().text()) << " / " << (b ? std::string() : b.error().text()));
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    double largest = 0;
    for (std::size_t i = 0; i < a.value().tokens.size(); ++i) {
        largest = std::max(largest, std::abs(a.value().tokens[i].distance - b.value().tokens[i].distance));
        for (std::size_t r = 0; r < a.value().tokens[i].sources.size(); ++r) {
            CHECK(a.value().tokens[i].sources[r].token == b.value().tokens[i].sources[r].token);
            largest = std::max(largest, std::abs(a.value().tokens[i].sources[r].norm - b.value().tokens[i].sources[r].norm));
        }
    }
    INFO("largest difference " << largest);
    CHECK(largest < 1e-5);
}

namespace {

MovementSheetPhrases sheetPhrases() {
    MovementSheetPhrases p;
    p.title = "What layer 1 did to {1} (token {2})";
    p.vectors = "x enters, y leaves.";
    p.moved = "How far it moved";
    p.sources = "Where its new content came from";
    p.shareRule = "Work out the shares of the top {1}.";
    return p;  // the sheet's own phrases: English defaults
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

// The X → Y tab's worksheet of handTrace's word "a" (layer 1), every number worked by hand:
//   x = (1, 0), y = x + α·V row 1 = (1.75, 0.5); y − x = (0.75, 0.5), squares 0.5625 and 0.25, Σ 0.8125;
//   ‖y − x‖ = √0.8125 = 0.901388; ‖x‖ = 1; ‖y‖² = 3.0625 + 0.25 = 3.3125, ‖y‖ = 1.820027;
//   x·y = 1·1.75 + 0·0.5 = 1.75; cos(x, y) = 1.75 / (1 · 1.820027) = 0.961524.
//   Sources: c_aa = 0.75·(1, 0), ‖·‖ 0.75; c_ab = 0.25·(0, 2), ‖·‖ 0.5; Σ 1.25; shares 0.6 (60 %), 0.4 (40 %).
TEST_CASE("the X → Y worksheet of one word, worked by hand", "[token-movement][worksheet]") {
    const Trace t = handTrace();
    auto states = residualStates(t);
    REQUIRE(states.ok());
    auto m = tokenMovement(t, states.value(), 0);
    REQUIRE(m.ok());
    const auto sheet = movementWorksheet(m.value(), t, 0, 2, 3, WorksheetFormat::Markdown, sheetPhrases());
    REQUIRE(sheet.ok());
    const std::string& q = sheet.value().questions;
    const std::string& a = sheet.value().answers;
    INFO(q << "\n----\n" << a);
    CHECK(has(q, "# What layer 1 did to a (token 1)"));
    CHECK(has(q, "Tokens: a · b"));
    CHECK(has(q, "| **k = 1** | 1.000 | 1.750 | ____ | ____ | ____ | ____ | ____ |"));
    CHECK(has(q, "| **k = 2** | 0.000 | 0.500 | ____ | ____ | ____ | ____ | ____ |"));
    CHECK(has(q, "‖y − x‖ = √(Σ_k (y_k − x_k)²) = ____"));
    CHECK(has(q, "cos(x, y) = Σ_k x_k·y_k / (‖x‖·‖y‖) = ____"));
    CHECK(has(q, "| **1 a** | 0.750 | ____ |"));  // the norms are given, the shares asked
    CHECK(has(q, "| **2 b** | 0.500 | ____ |"));
    CHECK(has(q, "Work out the shares of the top 2."));
    for (const char* answer : {"0.901", "0.962", "1.820", "0.600", "1.250"}) CHECK_FALSE(has(q, answer));
    CHECK(has(a, "| **k = 1** | 1.000 | 1.750 | 0.750 | 0.562 | 1.000 | 3.062 | 1.750 |"));  // 0.5625, 3.0625: ties to even
    CHECK(has(a, "| **k = 2** | 0.000 | 0.500 | 0.500 | 0.250 | 0.000 | 0.250 | 0.000 |"));
    CHECK(has(a, "| **Σ** |  |  |  | 0.812 | 1.000 | 3.312 | 1.750 |"));
    CHECK(has(a, "‖y − x‖ = √(Σ_k (y_k − x_k)²) = 0.901"));
    CHECK(has(a, "‖y‖ = √(Σ_k y_k²) = 1.820"));
    CHECK(has(a, "cos(x, y) = Σ_k x_k·y_k / (‖x‖·‖y‖) = 0.962"));
    CHECK(has(a, "y − x = [0.750, 0.500]"));
    CHECK(has(a, "‖y − x‖ = √(0.750² + 0.500²) = √0.812 = 0.901"));
    CHECK(has(a, "x·y = 1.000·1.750 + 0.000·0.500 = 1.750"));
    CHECK(has(a, "cos(x, y) = x·y / (‖x‖·‖y‖) = 1.750 / (1.000·1.820) = 0.962"));
    CHECK(has(a, "| **1 a** | 0.750 | 0.600 |"));
    CHECK(has(a, "| **Σ** | 1.250 |  |"));
    CHECK(has(a, "Σ_j ‖c_j‖ = 0.750 + 0.500 = 1.250"));
    CHECK(has(a, "a: 0.750 / 1.250 = 0.600 (60 %)"));
    CHECK(has(a, "b: 0.500 / 1.250 = 0.400 (40 %)"));
}

// Word "b": x = (0, 2), y = (0.5, 3); y − x = (0.5, 1), ‖·‖ = √1.25 = 1.118034; x·y = 6, ‖y‖ = √9.25 = 3.041381,
// cos = 6 / (2 · 3.041381) = 0.986394. Sources: c_bb = 0.5·(0, 2) → 1, c_ba = 0.5·(1, 0) → 0.5: b 2/3, a 1/3.
TEST_CASE("the X → Y worksheet asks only the top sources, the stack has none, a missing word is named", "[token-movement][worksheet]") {
    const Trace t = handTrace();
    auto states = residualStates(t);
    REQUIRE(states.ok());
    auto layer = tokenMovement(t, states.value(), 0);
    REQUIRE(layer.ok());
    const auto sheet = movementWorksheet(layer.value(), t, 1, 1, 3, WorksheetFormat::Latex, sheetPhrases());
    REQUIRE(sheet.ok());
    const std::string& q = sheet.value().questions;
    const std::string& a = sheet.value().answers;
    INFO(q << "\n----\n" << a);
    CHECK(has(q, "\\documentclass{article}"));
    CHECK(has(a, "0.986"));
    CHECK(has(a, "1.118"));
    CHECK(has(a, "3.041"));
    CHECK(has(a, "b: 1.000 / 1.500 = 0.667 (67 \\%)"));  // LaTeX escapes the %
    CHECK_FALSE(has(a, "a: 0.500 / 1.500"));  // only the top 1 is worked
    auto stack = tokenMovement(t, states.value(), std::nullopt);
    REQUIRE(stack.ok());
    const auto stackSheet = movementWorksheet(stack.value(), t, 1, 3, 3, WorksheetFormat::Markdown, sheetPhrases());
    REQUIRE(stackSheet.ok());
    CHECK(has(stackSheet.value().answers, "cos(x, y) = x·y / (‖x‖·‖y‖) = 6.000 / (2.000·3.041) = 0.986"));
    CHECK_FALSE(has(stackSheet.value().questions, "Where its new content came from"));
    const auto missing = movementWorksheet(layer.value(), t, 2, 3, 3, WorksheetFormat::Markdown, sheetPhrases());
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().text() == "what attention did to each word: has no token 3; its tokens are 1 to 2");
}

// What y is, as each run makes it, so the X → Y caption says it: first-hand-exercise has one layer
// and no residual connection (its y is the attention output itself), two-layers has two layers
// joined by residual connections (y = x + output), a model layer's y is its hidden state.
TEST_CASE("each run says what y is: attention output alone, x + attention output, or a model layer", "[token-movement]") {
    const auto plain = lessonStatesRun(testing::builtInLesson("first-hand-exercise"), "the cat sat");
    REQUIRE(plain.ok());
    CHECK_FALSE(plain.value().trace.residual);
    CHECK(plain.value().output == LayerOutput::AttentionOnly);
    // Its y is exactly the attention output: token 1's row of states[1] is layer 1's output row.
    CHECK(plain.value().states[1].row(0) == plain.value().trace.layers[0].output.row(0));
    CHECK(layerOutputText(LayerOutput::AttentionOnly, Language::English) ==
          "y = the attention output alone: this lesson has no residual connection, so x is not added to it");
    CHECK(layerOutputText(LayerOutput::AttentionOnly, Language::Chinese) == "y 只是注意力输出：本课没有残差连接，x 不会加到它上面");
    const auto residual = lessonStatesRun(testing::builtInLesson("two-layers"), "the animal was too tired");
    REQUIRE(residual.ok());
    CHECK(residual.value().output == LayerOutput::AttentionPlusInput);
    const LayerTrace& first = residual.value().trace.layers[0];
    CHECK(residual.value().states[1].row(1) == (first.input + first.output).row(1));
    CHECK(layerOutputText(LayerOutput::AttentionPlusInput, Language::English) == "y = x + the attention output: the residual connection");
    CHECK(layerOutputText(LayerOutput::AttentionPlusInput, Language::Chinese) == "y = x + 注意力输出：残差连接");
    auto opened = openModel((sourceDir() / "resources/models/example-gpt").string());
    REQUIRE(opened.ok());
    const auto model = modelStatesRun(opened.value(), "The LORD is my shepherd", 0);
    REQUIRE(model.ok());
    CHECK(model.value().output == LayerOutput::WholeLayer);
    CHECK(layerOutputText(LayerOutput::WholeLayer, Language::Chinese).rfind("y = 该层的隐藏状态", 0) == 0);
}
