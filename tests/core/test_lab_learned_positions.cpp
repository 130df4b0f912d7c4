// Learned position tables of real models (issue 5 §1): the rows read back from the tiny reference
// checkpoints, and the least-squares relative-position fit checked against relativePositionMap
// (the sinusoidal table's exact rotation, tested in test_lab_positional.cpp).
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/lab/positional_lab.hpp"
#include "core/lab/random.hpp"
#include "core/pipeline/steps.hpp"
#include "matrix_compare.hpp"

using namespace attnscope;

namespace {

const std::filesystem::path kModels = std::filesystem::path(ATTNSCOPE_SOURCE_DIR) / "tests/reference/models";

// The F32 tensor `name` of a .safetensors file, read straight from its bytes (8-byte little-endian
// header length, JSON header with dtype, shape and data_offsets, then the raw data) — no engine code.
Mat readF32Tensor(const std::filesystem::path& file, const std::string& name) {
    std::ifstream in(file, std::ios::binary);
    REQUIRE(in);
    std::uint64_t headerSize = 0;
    in.read(reinterpret_cast<char*>(&headerSize), 8);
    std::string header(headerSize, '\0');
    in.read(header.data(), static_cast<std::streamsize>(headerSize));
    const auto entry = nlohmann::json::parse(header).at(name);
    REQUIRE(entry.at("dtype") == "F32");
    const auto rows = entry.at("shape")[0].get<Eigen::Index>(), cols = entry.at("shape")[1].get<Eigen::Index>();
    const auto begin = entry.at("data_offsets")[0].get<std::streamoff>();
    std::vector<float> values(static_cast<std::size_t>(rows * cols));
    in.seekg(static_cast<std::streamoff>(8 + headerSize) + begin);
    in.read(reinterpret_cast<char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(float)));
    REQUIRE(in);
    Mat m(rows, cols);
    for (Eigen::Index r = 0; r < rows; ++r)
        for (Eigen::Index c = 0; c < cols; ++c) m(r, c) = values[static_cast<std::size_t>(r * cols + c)];
    return m;
}

LoadedModel load(const std::string& folder) {
    auto model = loadModel(kModels / folder);
    INFO((model ? std::string() : model.error().text()));
    REQUIRE(model.ok());
    return std::move(model).value();
}

}  // namespace

TEST_CASE("learned position table: BERT and GPT-2 rows as stored", "[lab][positional][models]") {
    const auto bert = learnedPositionTable(load("bert-tiny"), 20);
    REQUIRE(bert.ok());
    const Mat bertRows =
        readF32Tensor(kModels / "bert-tiny/model.safetensors", "bert.embeddings.position_embeddings.weight");
    REQUIRE_MATRIX_NEAR(bertRows.topRows(20), bert.value(), 0.0);

    const auto gpt2 = learnedPositionTable(load("gpt2-tiny"), 32);  // every row of the 32-row wpe
    REQUIRE(gpt2.ok());
    REQUIRE_MATRIX_NEAR(readF32Tensor(kModels / "gpt2-tiny/model.safetensors", "wpe.weight"), gpt2.value(), 0.0);
}

TEST_CASE("learned position table: RoBERTa's positions start after the padding rows", "[lab][positional][models]") {
    // config.json: pad_token_id 1, so position 0 is row padding_idx + 1 = 2 of the 42-row table.
    const auto roberta = learnedPositionTable(load("roberta-tiny"), 40);
    REQUIRE(roberta.ok());
    const Mat rows =
        readF32Tensor(kModels / "roberta-tiny/model.safetensors", "roberta.embeddings.position_embeddings.weight");
    REQUIRE_MATRIX_NEAR(rows.middleRows(2, 40), roberta.value(), 0.0);
    const auto tooMany = learnedPositionTable(load("roberta-tiny"), 41);
    REQUIRE_FALSE(tooMany.ok());
    CHECK_THAT(tooMany.error().text(), Catch::Contains("roberta-tiny") && Catch::Contains("1 … 40") &&
                                           Catch::Contains("41"));
}

TEST_CASE("learned position table: an error names a model without one", "[lab][positional][models]") {
    LoadedModel none;
    none.source = "folder/without-weights";
    const auto table = learnedPositionTable(none, 4);
    REQUIRE_FALSE(table.ok());
    CHECK_THAT(table.error().text(), Catch::Contains("folder/without-weights") && Catch::Contains("found none"));
}

TEST_CASE("relative position fit: the sinusoidal table is an exact rotation", "[lab][positional]") {
    // 128 positions, d = 8, k = 3: the least-squares R_3 is the block rotation of relativePositionMap
    // (the lowest frequency 1/10000^(6/8) still turns enough over 125 rows to pin R down).
    const auto fit = fitRelativePositionMap(sinusoidalEncoding(128, 8), 3);
    REQUIRE(fit.ok());
    const auto exact = relativePositionMap(8, 3);
    REQUIRE(exact.ok());
    REQUIRE_MATRIX_NEAR(exact.value(), fit.value().map, 1e-9);
    CHECK(fit.value().relativeResidual < 1e-12);
    CHECK(fit.value().rowsFitted == 125);
}

TEST_CASE("relative position fit: a random table has no such map", "[lab][positional]") {
    // 64 independent N(0, 1) rows of width 8: PE[3:] is not a linear image of PE[:61]; the best map
    // leaves most of each row unexplained (the expected squared fraction is about 1 − 8/61).
    const auto fit = fitRelativePositionMap(LabRandom(5).normalMatrix(64, 8), 3);
    REQUIRE(fit.ok());
    CHECK(fit.value().relativeResidual > 0.8);
    CHECK(fit.value().relativeResidual < 1.0);
}

TEST_CASE("relative position fit: too few rows fit anything, so it is refused", "[lab][positional]") {
    const auto fit = fitRelativePositionMap(LabRandom(5).normalMatrix(10, 8), 2);  // 8 equations, 8 unknowns
    REQUIRE_FALSE(fit.ok());
    CHECK_THAT(fit.error().text(), Catch::Contains("D = 8") && Catch::Contains("N = 10") && Catch::Contains("k = 2"));
    CHECK_FALSE(fitRelativePositionMap(sinusoidalEncoding(32, 4), 0).ok());
}
