#include "core/tokenizers/added_tokens.hpp"

#include <algorithm>

#include "core/text/utf8.hpp"
#include "core/tokenizers/unicode.hpp"

namespace attnscope {

namespace {

// The white space code point ending just before `end`, or 0 bytes.
std::size_t whitespaceBefore(std::string_view text, std::size_t end) {
    std::size_t start = end;
    while (start > 0 && (static_cast<unsigned char>(text[start - 1]) & 0xC0) == 0x80) --start;
    if (start == 0) return 0;
    --start;
    const auto decoded = utf8::decode(text.substr(start, end - start));
    return !decoded.points.empty() && unicode::isWhiteSpace(decoded.points[0].value) ? end - start : 0;
}

std::size_t whitespaceAfter(std::string_view text, std::size_t begin) {
    if (begin >= text.size()) return 0;
    std::size_t end = begin + 1;
    while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
    const auto decoded = utf8::decode(text.substr(begin, end - begin));
    return !decoded.points.empty() && unicode::isWhiteSpace(decoded.points[0].value) ? end - begin : 0;
}

}  // namespace

int AddedTokenMatcher::child(int node, unsigned char byte) const {
    const auto& children = nodes_[static_cast<std::size_t>(node)].children;
    const auto it = std::lower_bound(children.begin(), children.end(), std::make_pair(byte, -1));
    return it != children.end() && it->first == byte ? it->second : -1;
}

bool AddedTokenMatcher::add(const AddedToken& token) {
    if (token.content.empty()) return false;
    int node = 0;
    for (unsigned char byte : token.content) {
        int next = child(node, byte);
        if (next < 0) {
            next = static_cast<int>(nodes_.size());
            nodes_.emplace_back();
            auto& children = nodes_[static_cast<std::size_t>(node)].children;
            children.insert(std::lower_bound(children.begin(), children.end(), std::make_pair(byte, -1)), {byte, next});
        }
        node = next;
    }
    firstByte_[static_cast<unsigned char>(token.content[0])] = true;
    int& slot = nodes_[static_cast<std::size_t>(node)].token;
    if (slot >= 0) {
        tokens_[static_cast<std::size_t>(slot)] = token;
    } else {
        slot = static_cast<int>(tokens_.size());
        tokens_.push_back(token);
    }
    return true;
}

std::optional<std::pair<std::size_t, int>> AddedTokenMatcher::longestAt(std::string_view text, std::size_t at) const {
    std::optional<std::pair<std::size_t, int>> best;
    int node = 0;
    for (std::size_t i = at; i < text.size(); ++i) {
        node = child(node, static_cast<unsigned char>(text[i]));
        if (node < 0) break;
        if (const int token = nodes_[static_cast<std::size_t>(node)].token; token >= 0) best = {i + 1, token};
    }
    return best;
}

std::optional<AddedTokenMatch> AddedTokenMatcher::find(std::string_view text, std::size_t from) const {
    if (tokens_.empty()) return std::nullopt;
    for (std::size_t at = from; at < text.size(); ++at) {
        if (!firstByte_[static_cast<unsigned char>(text[at])]) continue;
        const auto found = longestAt(text, at);
        if (!found) continue;
        const AddedToken& token = tokens_[static_cast<std::size_t>(found->second)];
        AddedTokenMatch match{at, found->first, &token};
        if (token.lstrip)
            while (const std::size_t n = match.begin > from ? whitespaceBefore(text, match.begin) : 0) match.begin -= n;
        if (token.rstrip)
            while (const std::size_t n = whitespaceAfter(text, match.end)) match.end += n;
        return match;
    }
    return std::nullopt;
}

}  // namespace attnscope
