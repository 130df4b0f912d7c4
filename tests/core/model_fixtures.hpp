#pragma once
// What the model tests share to read their reference fixtures: the committed JSON written by
// tests/reference/*.py and the tiny checkpoints in tests/reference/models.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/model/transformer.hpp"

namespace attnscope::fixture_io {

inline std::filesystem::path sourceDir() { return std::filesystem::path(ATTNSCOPE_SOURCE_DIR); }

inline std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

inline nlohmann::json readJson(const std::filesystem::path& path) {
    INFO("fixture: " << path.string());
    const std::string text = readText(path);
    REQUIRE(!text.empty());
    return nlohmann::json::parse(text);
}

inline LoadedModel loadTiny(const std::string& name) {
    auto model = loadModel(sourceDir() / "tests/reference/models" / name);
    INFO("load error: " << (model ? std::string() : model.error().text()));
    REQUIRE(model.ok());
    return std::move(model).value();
}

// A model shipped with AttnScope (resources/models).
inline LoadedModel loadExample(const std::string& name) {
    auto model = loadModel(sourceDir() / "resources/models" / name);
    INFO("load error: " << (model ? std::string() : model.error().text()));
    REQUIRE(model.ok());
    return std::move(model).value();
}

// `count` token ids spread over the vocabulary, the same in every test.
inline std::vector<int> someIds(int count, int vocabulary) {
    std::vector<int> ids;
    for (int i = 0; i < count; ++i) ids.push_back((i * 37 + 11) % vocabulary);
    return ids;
}

// A matrix from a JSON array of rows.
inline Mat matrixOf(const nlohmann::json& rows) {
    Mat m(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.at(0).size()));
    for (Eigen::Index r = 0; r < m.rows(); ++r)
        for (Eigen::Index c = 0; c < m.cols(); ++c) m(r, c) = rows.at(r).at(c).get<double>();
    return m;
}

}  // namespace attnscope::fixture_io
