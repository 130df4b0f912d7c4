// Lab ▸ Multi-head, grouped-query and multi-query attention (issue 29 §3, core/lab/multi_head_lab):
// which query heads share which K and V, the parameter count and K/V memory per token, and the
// attention of each query head, by hand.
#include <catch2/catch.hpp>
#include <cmath>

#include "core/lab/multi_head_lab.hpp"
#include "core/lab/worksheet.hpp"

using namespace attnscope;

namespace {

// X = [[1, 2, 0, 1], [0, 1, 3, 2]] (tokens a, b) through identity weights, H = 4, H_kv = 2, d_k = 1.
Result<GroupedQueryRun> identityRun() {
    Mat X(2, 4);
    X << 1, 2, 0, 1,  //
        0, 1, 3, 2;
    const Mat I = Mat::Identity(4, 4);
    return runGroupedQuery(X, 4, 2, MultiHeadWeights{I, I, I, I}, {Token{"a"}, Token{"b"}});
}

}  // namespace

TEST_CASE("grouped-query attention by hand: d = 4, H = 4, H_kv = 2, identity weights", "[lab][multihead][gqa]") {
    // d_k = 1. Query head h reads column h of X; key/value head g reads column g, and query heads
    // 0, 1 share g = 0, heads 2, 3 share g = 1. X = [[1, 2, 0, 1], [0, 1, 3, 2]] (tokens a, b).
    // Head 1: q = [2, 1], k = v = X[:, 0] = [1, 0]: S = [[2, 0], [1, 0]], ÷√1;
    //   A[a] = softmax(2, 0) = [e²/(e²+1), 1/(e²+1)] = [0.880797, 0.119203]; out[a] = 0.880797·1 + 0 = 0.880797.
    // Head 3: q = [1, 2], k = v = X[:, 1] = [2, 1]: S = [[2, 1], [4, 2]];
    //   A[b] = softmax(4, 2) = [0.880797, 0.119203]; out[b] = 2·0.880797 + 1·0.119203 = 1.880797.
    const auto run = identityRun();
    REQUIRE(run.ok());
    const LayerTrace& layer = run.value().trace.layers.at(0);
    CHECK(layer.kvHeadOf == std::vector<int>{0, 0, 1, 1});
    CHECK(queryHeadsSharingKv(layer, 1) == std::vector<int>{0, 1});
    CHECK(sharesKeyValueHeads(layer));
    const HeadTrace& h1 = layer.heads[1];
    CHECK(h1.k == layer.heads[0].k);  // one K for the group
    CHECK(h1.scores(0, 0) == 2);
    CHECK(h1.scores(1, 0) == 1);
    CHECK(h1.weights.exact()(0, 0) == Approx(0.880797).margin(1e-6));
    CHECK(h1.weightedSum(0, 0) == Approx(0.880797).margin(1e-6));
    const HeadTrace& h3 = layer.heads[3];
    CHECK(h3.scores(1, 0) == 4);
    CHECK(h3.weightedSum(1, 0) == Approx(1.880797).margin(1e-6));
    CHECK(layer.concat.cols() == 4);
}

TEST_CASE("parameters and K/V memory per token for H_kv = H, H/2 and 1", "[lab][multihead][gqa]") {
    // d = 8, H = 4, d_k = 2. W_Q and W_O are 8×8 = 64 each; W_K and W_V are 8×(H_kv·2):
    //   H_kv = 4: 128 + 2·8·8 = 256 (= 4d²), K/V per token 2·4·2 = 16
    //   H_kv = 2: 128 + 2·8·4 = 192,           K/V per token 8
    //   H_kv = 1: 128 + 2·8·2 = 160,           K/V per token 4
    CHECK(kvHeadChoices(4) == std::vector<int>{4, 2, 1});
    CHECK(kvHeadChoices(6) == std::vector<int>{6, 3, 1});
    CHECK(kvHeadChoices(2) == std::vector<int>{2, 1});
    CHECK(kvHeadChoices(1) == std::vector<int>{1});
    const long long parameters[] = {256, 192, 160}, cache[] = {16, 8, 4};
    int row = 0;
    for (const int kv : kvHeadChoices(4)) {
        const auto s = keyValueSharing(8, 4, kv);
        REQUIRE(s.ok());
        CHECK(s.value().parameters == parameters[row]);
        CHECK(s.value().kvPerToken == cache[row]);
        ++row;
    }
    CHECK(keyValueSharing(8, 4, 1).value().kvHeadOf == std::vector<int>{0, 0, 0, 0});  // multi-query
    CHECK(keyValueSharing(8, 4, 4).value().kvHeadOf == std::vector<int>{0, 1, 2, 3});  // multi-head
    CHECK(keyValueSharing(8, 4, 3).error().text() == "H_kv: 3 key/value heads do not divide the 4 attention heads");
}

TEST_CASE("with H_kv = H grouped-query attention is multi-head attention", "[lab][multihead][gqa]") {
    const Mat X = randomLabInput(5, 8, 11);
    const MultiHeadWeights w = drawMultiHeadWeights(8, 12);
    const auto gqa = runGroupedQuery(X, 4, 4, w);
    const auto mha = runMultiHead(X, 4, w);
    REQUIRE(gqa.ok());
    REQUIRE(mha.ok());
    CHECK((gqa.value().trace.layers[0].output - mha.value().trace.layers[0].output).cwiseAbs().maxCoeff() == 0.0);
    CHECK_FALSE(sharesKeyValueHeads(gqa.value().trace.layers[0]));
}

TEST_CASE("the grouped-query section's worksheet: query head 2's scores against the shared K, by hand", "[lab][gqa][worksheet]") {
    // As above: X = [[1, 2, 0, 1], [0, 1, 3, 2]], identity weights, H = 4, H_kv = 2, d_k = 1. Query head 2
    // reads X[:, 1] = q = [2, 1] and K/V head 1's k = X[:, 0] = [1, 0]: S = q·kᵀ = [[2, 0], [1, 0]].
    // The cost of H_kv = 2 with W_O (4×4): 4·4·1 + 4·2·(1 + 1) + 4·1·4 = 16 + 16 + 16 = 48.
    const auto run = identityRun();
    REQUIRE(run.ok());
    const auto sheet = groupedQueryWorksheet(run.value(), 3, WorksheetFormat::Markdown, Language::English);
    REQUIRE(sheet.ok());
    const std::string& q = sheet.value().questions;
    const std::string& a = sheet.value().answers;
    INFO(q << "\n----\n" << a);
    CHECK(q.rfind("# Scores S = Q·Kᵀ — head 2, K/V head 1, shared by query heads 1–2\n", 0) == 0);
    CHECK(q.find("H_kv = 2 (grouped-query): 4·4·1 + 4·2·(1 + 1) + 4·1·4 = 48 parameters") != std::string::npos);
    CHECK(q.find("| **a** | ____ | ____ |") != std::string::npos);
    CHECK(a.find("| **a** | 2 | 0 |") != std::string::npos);
    CHECK(a.find("| **b** | 1 | 0 |") != std::string::npos);
    const auto chinese = groupedQueryWorksheet(run.value(), 3, WorksheetFormat::Latex, Language::Chinese);
    REQUIRE(chinese.ok());
    CHECK(chinese.value().questions.find("由查询头 1–2 共用") != std::string::npos);
}
