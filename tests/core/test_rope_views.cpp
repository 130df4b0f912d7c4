// Issue 25, "every view": a RoPE model's worked example shows the rotation as its own step (Q and K
// before and after, each rotated cell explaining m·θ_i, cos, sin and the rotate_half pairing), which
// query heads share a key/value head, and the exports carry both.
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>
#include <string>
#include <vector>

#include "core/export/export.hpp"
#include "core/model/transformer.hpp"
#include "core/text/messages.hpp"
#include "core/trace/explain.hpp"
#include "model_fixtures.hpp"

using namespace attnscope;
using namespace attnscope::fixture_io;

namespace {

Mat rowsOf(std::initializer_list<std::initializer_list<double>> values) {
    Mat m(static_cast<Eigen::Index>(values.size()), static_cast<Eigen::Index>(values.begin()->size()));
    Eigen::Index r = 0;
    for (const auto& row : values) {
        Eigen::Index c = 0;
        for (double v : row) m(r, c++) = v;
        ++r;
    }
    return m;
}

// Tokens "a" "b" (positions m = 0, 1), one layer, two query heads reading key/value head 0
// (H = 2, H_kv = 1), d_k = 2: one RoPE pair (columns 1 and 2, counted from 1) turning by θ_1 = π/3.
// Q_pre = [[1, 3], [2, 4]] for both heads, K_pre = [[5, 6], [7, 8]]. Row 1 turns by 1·π/3:
// cos = 1/2, sin = √3/2 ≈ 0.866025, so
//   Q[b,0] = 2·cos − 4·sin = 1 − 2√3 ≈ −2.464102     Q[b,1] = 4·cos + 2·sin = 2 + √3 ≈ 3.732051
//   K[b,0] = 7·cos − 8·sin = 3.5 − 4√3 ≈ −3.428203   K[b,1] = 8·cos + 7·sin = 4 + 3.5√3 ≈ 10.062178
// Row 0 turns by 0 and stays as it is.
Trace handRopeTrace() {
    const double r3 = std::sqrt(3.0);
    Trace t;
    t.tokens = {Token{"a"}, Token{"b"}};
    t.positionalKind = PositionalKind::Rotary;
    t.causal = true;
    t.scaleDivisor = std::sqrt(2.0);
    t.hasOutputProjection = true;
    t.embedding = Mat::Identity(2, 2);
    t.positional = Mat::Zero(2, 2);
    LayerTrace l;
    l.input = Mat::Identity(2, 2);
    l.kvHeadOf = {0, 0};
    l.ropeFrequencies = RowVec::Constant(1, std::numbers::pi / 3);
    for (int h = 0; h < 2; ++h) {
        HeadTrace head;
        head.params.wq = rowsOf({{1, 3}, {2, 4}});  // X = I: Q_pre = W_Q
        head.params.wk = rowsOf({{5, 6}, {7, 8}});
        head.params.wv = Mat::Identity(2, 2);
        head.qBeforeRope = rowsOf({{1, 3}, {2, 4}});
        head.kBeforeRope = rowsOf({{5, 6}, {7, 8}});
        head.q = rowsOf({{1, 3}, {1 - 2 * r3, 2 + r3}});
        head.k = rowsOf({{5, 6}, {3.5 - 4 * r3, 4 + 3.5 * r3}});
        head.v = Mat::Identity(2, 2);
        head.scores = head.q * head.k.transpose();
        head.scaledScores = head.scores / t.scaleDivisor;
        head.mask = rowsOf({{0, -INFINITY}, {0, 0}});
        head.maskedScores = head.scaledScores + head.mask;
        head.weights = rowsOf({{1, 0}, {.5, .5}});
        head.weightedSum = Mat(head.weights.toMat() * head.v);
        l.heads.push_back(head);
    }
    l.concat = Mat::Zero(2, 4);
    l.wo = Mat::Zero(4, 2);
    l.output = Mat::Zero(2, 2);
    t.layers.push_back(l);
    return t;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& line : lines) out += line + "\n";
    return out;
}

}  // namespace

TEST_CASE("a RoPE trace walks Q and K before the rotation, then the rotation, then the scores", "[rope][explain]") {
    const Trace t = handRopeTrace();
    CHECK(stepsOf(t, 0) == std::vector<Step>{Step::Embedding, Step::QueryBeforeRope, Step::KeyBeforeRope, Step::Query,
                                              Step::Key, Step::Value, Step::Scores, Step::Scaled, Step::Masked,
                                              Step::Weights, Step::WeightedSum, Step::Concat, Step::Output});
    CHECK(operandsOf(t, Step::Query, 0) == std::vector<Operand>{{Step::QueryBeforeRope, 0}});
    CHECK(operandsOf(t, Step::KeyBeforeRope, 0) == std::vector<Operand>{{Step::Input, 0}, {Step::WK, 0}});
    CHECK(stepTitleIn(t, Step::Query, 0) == "RoPE: queries turned by position  Q = RoPE(Q_pre)");
    CHECK(stepTitleIn(t, Step::QueryBeforeRope, 0) == "Queries before RoPE  Q_pre = X·W_Q");
    CHECK(stepTitleIn(t, Step::KeyBeforeRope, 0, Language::Chinese) == "RoPE 之前的键 K_pre = X·W_K");
    CHECK(stepFromKey("q_before_rope") == Step::QueryBeforeRope);
    CHECK(rowLabels(t, Step::KeyBeforeRope, 0, 1) == std::vector<std::string>{"a", "b"});
}

TEST_CASE("a rotated cell explains its angle m·θ_i, cos, sin and the rotate_half pair with the numbers", "[rope][explain]") {
    const Trace t = handRopeTrace();
    // Q[b,0], the first of the pair: Q_pre[b,0]·cos − Q_pre[b,1]·sin = 2·0.5 − 4·0.866025 = 1 − 3.464102.
    // (Whole numbers print whole, the rest to six decimals.)
    auto first = explainCell(t, CellRef{Step::Query, 0, 0, 1, 0}, 6);
    REQUIRE(first.ok());
    const Explanation& e = first.value();
    CHECK(e.kind == ExplanationKind::Rotation);
    // People count columns and pairs from 1; m is the formula's multiplier (the first token's is 0).
    CHECK(e.rule == "RoPE turns the pair of columns (1, 2) of b's row (m = 1, its position counted from 0) by the angle m·θ_1");
    REQUIRE(e.details.size() == 2);
    CHECK(e.details[0] == "Q[b,1] = Q_pre[b,1]·cos(m·θ_1) − Q_pre[b,2]·sin(m·θ_1)");
    CHECK(e.details[1] == "angle m·θ_1 = 1 × 1.0472 = 1.0472 rad; cos = 0.5, sin = 0.866025");
    REQUIRE(e.terms.size() == 2);
    // cos(π/3) is 0.5000000000000001 in double: the product is not quite whole, so it keeps its decimals.
    CHECK(e.terms[0].label == "Q_pre[b,1]·cos = 2 × 0.5 = 1.000000");
    CHECK(e.terms[0].value == Approx(1.0));
    CHECK(e.terms[1].label == "−Q_pre[b,2]·sin = −(4 × 0.866025) = -3.464102");
    CHECK(e.terms[1].value == Approx(-2 * std::sqrt(3.0)));
    CHECK(e.termsTotal == Approx(-2.4641016).margin(1e-7));
    CHECK(e.value == Approx(-2.4641016).margin(1e-7));
    CHECK(e.sources == std::vector<CellRef>{{Step::QueryBeforeRope, 0, 0, 1, 0}, {Step::QueryBeforeRope, 0, 0, 1, 1}});
    CHECK(joined(e.lines).find("sum = -2.464102") != std::string::npos);

    // K[b,1], the second of the pair: K_pre[b,1]·cos + K_pre[b,0]·sin = 8·0.5 + 7·0.866025 = 4 + 6.062178.
    auto second = explainCell(t, CellRef{Step::Key, 0, 1, 1, 1}, 6);
    REQUIRE(second.ok());
    CHECK(second.value().details[0] == "K[b,2] = K_pre[b,2]·cos(m·θ_1) + K_pre[b,1]·sin(m·θ_1)");
    CHECK(second.value().terms[1].label == "K_pre[b,1]·sin = 7 × 0.866025 = 6.062178");
    CHECK(second.value().termsTotal == Approx(10.0621778).margin(1e-7));
    // Head 2's K belongs to key/value head 1, which head 1 reads as well.
    CHECK(second.value().title.find(", head 2, K/V head 1, shared by query heads 1–2") != std::string::npos);

    // Position 0 turns by 0: cos 1, sin 0.
    auto still = explainCell(t, CellRef{Step::Query, 0, 0, 0, 1}, 6);
    REQUIRE(still.ok());
    CHECK(still.value().details[1] == "angle m·θ_1 = 0 × 1.0472 = 0 rad; cos = 1, sin = 0");
    CHECK(still.value().termsTotal == Approx(3));

    auto chinese = explainCell(t, CellRef{Step::Query, 0, 0, 1, 0}, 6, Language::Chinese);
    REQUIRE(chinese.ok());
    CHECK(chinese.value().details[1] == "角度 m·θ_1 = 1 × 1.0472 = 1.0472 弧度；cos = 0.5，sin = 0.866025");
    CHECK(chinese.value().rule == "RoPE 把“b”这一行（m = 1，从 0 数起的位置）的列对 (1, 2) 旋转角度 m·θ_1");
}

TEST_CASE("Q before RoPE explains the projection, the K/V sharing text names the query heads", "[rope][explain]") {
    const Trace t = handRopeTrace();
    // Q_pre[b,1] = X[b,·]·W_Q[·,1] = 0·3 + 1·4 = 4.
    auto pre = explainCell(t, CellRef{Step::QueryBeforeRope, 0, 0, 1, 1}, 3);
    REQUIRE(pre.ok());
    CHECK(pre.value().kind == ExplanationKind::DotProduct);
    CHECK(pre.value().termsTotal == 4);
    CHECK(kvSharingText(t, 0, 1, Language::English) == "K/V head 1, shared by query heads 1–2");
    CHECK(kvSharingText(t, 0, 0, Language::Chinese) == "K/V 头 1，由查询头 1–2 共用");
    LayerTrace own = t.layers[0];
    own.kvHeadOf = {0, 1};  // each head its own: nothing to say
    CHECK_FALSE(sharesKeyValueHeads(own));
    CHECK(queryHeadsSharingKv(t.layers[0], 1) == std::vector<int>{0, 1});
}

TEST_CASE("llama-tiny's worked example: rotated cells add up to the run's Q and K", "[rope][explain][models]") {
    const LoadedModel model = loadTiny("llama-tiny");
    auto ran = runModel(model, {1, 7, 19, 33}, {});
    REQUIRE(ran.ok());
    const Trace& t = ran.value().trace;
    CHECK(t.rotates());
    CHECK(stepsOf(t, 1).at(1) == Step::QueryBeforeRope);  // layer 2: Input, Q_pre, K_pre, Q, K, …
    for (const Step step : {Step::Query, Step::Key})
        for (int col : {2, 6}) {  // pair (2, 6) of d_k = 8: columns 3 and 7 to people, θ_3
            INFO(stepKey(step) << " column " << col);
            auto e = explainCell(t, CellRef{step, 1, 3, 3, col}, 6);
            REQUIRE(e.ok());
            // The engine turns in float32; the explanation's double arithmetic agrees to float precision.
            CHECK(std::abs(e.value().termsTotal - e.value().value) < 1e-5);
            CHECK(e.value().rule.rfind("RoPE turns the pair of columns (3, 7) of ", 0) == 0);
            CHECK(e.value().rule.find("(m = 3, its position counted from 0) by the angle m·θ_3") != std::string::npos);
        }
    auto key = explainCell(t, CellRef{Step::Key, 0, 2, 1, 0}, 3);
    REQUIRE(key.ok());
    CHECK(key.value().title.find("head 3, K/V head 2, shared by query heads 3–4") != std::string::npos);
}

TEST_CASE("Qwen3's Q before RoPE says q_norm", "[rope][explain][models]") {
    const LoadedModel model = loadTiny("qwen3-tiny");
    auto ran = runModel(model, {1, 7, 19}, {});
    REQUIRE(ran.ok());
    const Trace& t = ran.value().trace;
    CHECK(stepTitleIn(t, Step::QueryBeforeRope, 0) == "Queries before RoPE  Q_pre = q_norm(X·W_Q)");
    auto e = explainCell(t, CellRef{Step::KeyBeforeRope, 0, 0, 2, 3}, 3);
    REQUIRE(e.ok());
    CHECK(e.value().rule.find("then k_norm (RMSNorm over this head's d_k values") != std::string::npos);
}

TEST_CASE("exports of a RoPE model carry the RoPE steps and each query head's key/value head", "[rope][export][models]") {
    const LoadedModel model = loadTiny("llama-tiny");
    auto ran = runModel(model, {1, 7, 19, 33}, {});
    REQUIRE(ran.ok());
    const Trace& t = ran.value().trace;

    ExportRequest keys;
    keys.step = Step::Key;
    keys.layer = 0;
    const std::string text = exportTrace(t, ExportFormat::Text, keys);
    CHECK(text.find("== Layer 1: RoPE: keys turned by position  K = RoPE(K_pre) — head 3, K/V head 2, shared by query heads 3–4 ==") !=
          std::string::npos);

    const std::string csv = exportTrace(t, ExportFormat::Csv, keys);
    CHECK(csv.rfind("step,layer,head,row,row_label,col,col_label,value,kv_head\n", 0) == 0);
    CHECK(csv.find("\nk,1,3,1,1,1,1,") != std::string::npos);  // head 3's rows (from 1; labels: the token, the column, from 1 too) …
    const auto head3 = csv.find("\nk,1,3,");
    CHECK(csv.substr(head3, csv.find('\n', head3 + 1) - head3).ends_with(",2"));  // … read key/value head 2

    ExportRequest all;
    const std::string everyStep = exportTrace(t, ExportFormat::Csv, all);
    CHECK(everyStep.find("\nq_before_rope,1,1,") != std::string::npos);
    CHECK(everyStep.find("\nk_before_rope,2,4,") != std::string::npos);

    const auto json = nlohmann::json::parse(exportTrace(t, ExportFormat::Json, all));
    CHECK(json.at("settings").at("positional_encoding") == "rotary");
    const auto& layer = json.at("layers").at(0);
    CHECK(layer.at("kv_head_of") == nlohmann::json::array({1, 1, 2, 2}));  // counted from 1
    CHECK(layer.at("rope_frequencies").size() == 4);
    CHECK(layer.at("rope_frequencies").at(0).get<double>() == t.layers[0].ropeFrequencies(0));
    const auto& head = layer.at("heads").at(2);
    CHECK(head.at("q_before_rope").at(3).at(5).get<double>() == t.layers[0].heads[2].qBeforeRope(3, 5));
    CHECK(head.at("k_before_rope").size() == 4);
}
