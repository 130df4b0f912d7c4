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

std::string tokenLine(const std::vector<Token>& tokens, const std::string& separator, MarkMadeUp mark) {
    const std::vector<std::string> names = tokenNames(tokens);
    std::string line;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const bool madeUp = mark == MarkMadeUp::Yes && !tokens[i].inTable;
        line += (i ? separator : "") + names[i] + (madeUp ? "*" : "");
    }
    return line;
}

}  // namespace attnscope
