// Test tool (never installed): encodes strings with AttnScope's tokenizer for the comparison with
// the independent reference (tests/reference/tokenizers/compare.mjs).
//   tokenize_ids FOLDER STRINGS.jsonl
// FOLDER holds tokenizer.json (and tokenizer_config.json); each line of STRINGS.jsonl is one JSON
// string. Writes a line per string: [ids without special tokens, ids with the tokenizer's
// wrapping], or {"error": text}.
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/tokenizers/load.hpp"

using namespace attnscope;

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: tokenize_ids FOLDER STRINGS.jsonl\n";
        return 2;
    }
    auto tokenizer = loadTokenizerFromFolder(argv[1]);
    if (!tokenizer) {
        std::cerr << tokenizer.error().text() << "\n";
        return 1;
    }
    std::ifstream in(argv[2], std::ios::binary);
    std::string line;
    while (std::getline(in, line)) {
        const std::string text = nlohmann::json::parse(line).get<std::string>();
        auto tokens = tokenizer.value()->encode(text);
        if (!tokens) {
            std::cout << nlohmann::json{{"error", tokens.error().text()}}.dump() << "\n";
            continue;
        }
        std::vector<int> ids;
        for (const Token& t : tokens.value()) ids.push_back(t.id);
        std::cout << nlohmann::json::array({ids, tokenizer.value()->wrap(ids)}).dump() << "\n";
    }
    return 0;
}
