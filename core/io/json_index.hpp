#pragma once
// The command line's one index convention (docs/cli.md): every index it writes — layer, head, token
// position, word, sentence, feature, matrix row and column — counts from 1, as the window's "4:1"
// labels and the text output do. Core counts from 0; exports turn each index through these, so a
// reader sees one rule. Internal to core .cpp files (it includes nlohmann).
#include <nlohmann/json.hpp>
#include <vector>

namespace attnscope::json {

inline int oneBased(int zeroBased) { return zeroBased + 1; }

inline nlohmann::ordered_json oneBased(const std::vector<int>& zeroBased) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (int i : zeroBased) out.push_back(i + 1);
    return out;
}

}  // namespace attnscope::json
