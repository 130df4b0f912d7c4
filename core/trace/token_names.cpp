#include "core/trace/token_names.hpp"

#include <unordered_map>

namespace attnscope {

std::vector<std::string> tokenNames(const std::vector<Token>& tokens) {
    std::unordered_map<std::string, int> uses;
    for (const Token& t : tokens) ++uses[t.text];
    std::vector<std::string> names;
    names.reserve(tokens.size());
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string& text = tokens[i].text;
        names.push_back(uses[text] > 1 ? text + "#" + std::to_string(i + 1) : text);
    }
    return names;
}

}  // namespace attnscope
