// Lessons with several layers: the residual connection, per-layer steps and operands, cell
// explanations and exports of a later layer. Every number is derived by hand in the comments.
//
// Shape legend: T tokens, d model width, H heads, d_k, d_v head widths, L layers.
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/trace/explain.hpp"
#include "core/export/export.hpp"
#include "core/lesson/lesson.hpp"
#include "core/lesson/run_lesson.hpp"
#include "matrix_compare.hpp"

using namespace attnscope;

namespace {

// Two layers of Q = K = V = X on a = [1, 0], b = [0, 1], no scaling, one head (so no W_O is
// needed: the output is the weighted sum, already d_model = 2 wide).
const char* kIdentityLayers = R"({"format": "attnscope-lesson", "version": 2, "d_model": 2,
  "projections": false, "scale": false, "sentence": "a b",
  "embeddings": {"a": [1, 0], "b": [0, 1]}, "layers": [{}, {}]})";

Trace runTwoLayers(RunSettings settings = RunSettings{std::nullopt, true}) {
    const auto lesson = parseLesson(kIdentityLayers, "identity-layers");
    INFO((lesson.ok() ? std::string() : lesson.error().text()));
    REQUIRE(lesson.ok());
    auto trace = runLesson(lesson.value(), "a b", settings);
    REQUIRE(trace.ok());
    REQUIRE(trace.value().layerCount() == 2);
    return trace.value();
}

Mat mat2(double a, double b, double c, double d) {
    Mat m(2, 2);
    m << a, b, c, d;
    return m;
}

// Layer 1: X₁ = I, so S = X₁·X₁ᵀ = I and each row's softmax of [1, 0] is
//   p = e/(e+1) = 0.7310585786 on itself, q = 1/(e+1) = 0.2689414214 on the other token.
// out₁ = A·V = A·I = A, and the residual connection gives
//   X₂ = X₁ + out₁ = [[1 + p, q], [q, 1 + p]] = [[1.7310585786, 0.2689414214], …].
const double e = std::exp(1.0);
const double p = e / (e + 1), q = 1 / (e + 1);

}  // namespace

TEST_CASE("layer 2 reads X + output of layer 1", "[layers]") {
    const Trace trace = runTwoLayers();
    CHECK(trace.residual);
    REQUIRE_MATRIX_NEAR(mat2(p, q, q, p), trace.layers[0].output, 1e-15);
    REQUIRE_MATRIX_NEAR(mat2(1 + p, q, q, 1 + p), trace.layers[1].input, 1e-15);
    CHECK(trace.layers[1].input(0, 0) == Approx(1.7310585786).margin(1e-10));

    // Layer 2: S₂[a,a] = (1+p)² + q² = 3.0688932908, S₂[a,b] = 2·(1+p)·q = 0.9311067092.
    // Softmax of two numbers: A₂[a,a] = 1 / (1 + exp(−(S₂[a,a] − S₂[a,b]))), and the difference
    // is (1 + p − q)² = 1.4621171573² = 2.1377865816, so A₂[a,a] = 0.8945219514.
    const HeadTrace& head = trace.layers[1].heads[0];
    const double aa = (1 + p) * (1 + p) + q * q, ab = 2 * (1 + p) * q;
    REQUIRE_MATRIX_NEAR(mat2(aa, ab, ab, aa), head.scores, 1e-14);
    CHECK(head.scores(0, 0) == Approx(3.0688932908).margin(1e-10));
    CHECK(head.weights(0, 0) == Approx(1 / (1 + std::exp(-(1 + p - q) * (1 + p - q)))).margin(1e-15));
    CHECK(head.weights(0, 0) == Approx(0.8945219514).margin(1e-10));
}

TEST_CASE("hand-rounding applies to every layer and to the residual sum", "[layers]") {
    // With 2 decimals: p → 0.73, q → 0.27, so X₂ = [[1.73, 0.27], [0.27, 1.73]];
    // S₂[a,a] = 1.73² + 0.27² = 2.9929 + 0.0729 = 3.0658 → 3.07, S₂[a,b] = 2·1.73·0.27 = 0.9342 → 0.93;
    // A₂[a,a] = 1 / (1 + e^−(3.07 − 0.93)) = 1 / (1 + e^−2.14) = 0.8947 → 0.89.
    const Trace trace = runTwoLayers(RunSettings{2, false});
    REQUIRE_MATRIX_NEAR(mat2(1.73, 0.27, 0.27, 1.73), trace.layers[1].input, 1e-12);
    REQUIRE_MATRIX_NEAR(mat2(3.07, 0.93, 0.93, 3.07), trace.layers[1].heads[0].scores, 1e-12);
    CHECK(trace.layers[1].heads[0].weights(0, 0) == Approx(0.89).margin(1e-12));
}

TEST_CASE("a later layer starts at its input, whose operands are the layer before", "[layers]") {
    const Trace trace = runTwoLayers();
    const std::vector<Step> first = stepsOf(trace, 0), second = stepsOf(trace, 1);
    REQUIRE(!first.empty());
    CHECK(first.front() == Step::Embedding);
    REQUIRE(!second.empty());
    CHECK(second.front() == Step::Input);
    CHECK(second.size() == first.size());  // Embedding gives way to Input (no positional encoding)
    CHECK(operandsOf(trace, Step::Input, 1) == std::vector<Operand>{{Step::Input, 0}, {Step::Output, 0}});
    CHECK(operandsOf(trace, Step::Query, 1) == std::vector<Operand>{{Step::Input, 1}, {Step::WQ, 1}});
    CHECK(stepTitleIn(trace, Step::Input, 1) == "Input of layer 2: X₂ = X₁ + output₁ (residual)");
    CHECK(stepTitleIn(trace, Step::Input, 0) == std::string(stepTitle(Step::Input)));
}

TEST_CASE("the input of layer 2 explains itself as the residual sum", "[layers][explain]") {
    const Trace trace = runTwoLayers();
    // X₂[a, 0] = X₁[a, 0] + out₁[a, 0] = 1 + p = 1.7311
    const auto explained = explainCell(trace, CellRef{Step::Input, 1, 0, 0, 0}, 4);
    REQUIRE(explained.ok());
    const Explanation& sum = explained.value();
    CHECK(sum.kind == ExplanationKind::Sum);
    REQUIRE(sum.terms.size() == 2);
    CHECK(sum.terms[0].value == 1.0);
    CHECK(sum.terms[1].value == Approx(p).margin(1e-15));
    CHECK(sum.termsTotal == Approx(sum.value).margin(1e-15));
    CHECK(sum.sources == std::vector<CellRef>{{Step::Input, 0, 0, 0, 0}, {Step::Output, 0, 0, 0, 0}});
    CHECK(sum.lines.back() == "value = 1.7311");

    // Every cell of every step of layer 2 adds up to the value shown.
    for (const Step step : stepsOf(trace, 1)) {
        const GridRef m = stepMatrix(trace, step, 1, 0);
        for (int r = 0; r < m.rows(); ++r)
            for (int c = 0; c < m.cols(); ++c) {
                const auto cell = explainCell(trace, CellRef{step, 1, 0, r, c}, 4);
                REQUIRE(cell.ok());
                const Explanation& x = cell.value();
                if (x.kind == ExplanationKind::Sum || x.kind == ExplanationKind::DotProduct) {
                    INFO(stepKey(step) << " (" << r << ", " << c << ")");
                    CHECK(x.termsTotal == Approx(x.value).margin(1e-12));
                }
            }
    }
}

TEST_CASE("exports print every layer, or the one asked for", "[layers][export]") {
    const Trace trace = runTwoLayers();
    const ExportRequest request{Step::Input, std::nullopt, 4, false, 1};
    // X₂ = [[1.7311, 0.2689], [0.2689, 1.7311]], layer column 2
    const std::string csv = exportTrace(trace, ExportFormat::Csv, request);
    CHECK(csv == "step,layer,head,row,row_label,col,col_label,value\n"
                 "x,2,,1,a,1,1,1.7311\n"
                 "x,2,,1,a,2,2,0.2689\n"
                 "x,2,,2,b,1,1,0.2689\n"
                 "x,2,,2,b,2,2,1.7311\n");
    const std::string text = exportTrace(trace, ExportFormat::Text, request);
    CHECK(text.find("== Input of layer 2: X₂ = X₁ + output₁ (residual) ==") != std::string::npos);

    const std::string all = exportTrace(trace, ExportFormat::Text, ExportRequest{Step::Weights, std::nullopt, 4, false, std::nullopt});
    CHECK(all.find("== Layer 1: Attention weights A = softmax(rows) ==") != std::string::npos);
    CHECK(all.find("== Layer 2: Attention weights A = softmax(rows) ==") != std::string::npos);

    const auto json = nlohmann::json::parse(exportTrace(trace, ExportFormat::Json, request));
    CHECK(json.at("layer_index") == 2);  // layer 2, counted from 1
    REQUIRE(json.at("layers").size() == 1);
    CHECK(json.at("layers")[0].at("input")[0][0].get<double>() == Approx(1 + p).margin(1e-15));
    CHECK(json.at("settings").at("residual") == true);
    const auto whole = nlohmann::json::parse(traceToJson(trace));
    CHECK(whole.at("layers").size() == 2);
    CHECK_FALSE(whole.contains("layer_index"));
}
