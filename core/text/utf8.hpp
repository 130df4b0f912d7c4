#pragma once
// Minimal UTF-8 decoding for the tokenizers: strict (overlong forms, surrogates and truncated
// sequences are errors) because a silently mangled token would give silently wrong numbers.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnscope::utf8 {

struct CodePoint {
    char32_t value;
    std::size_t offset;  // byte offset in the input
    std::size_t length;  // bytes
};

// Decodes the whole text, or returns the byte offset of the first invalid sequence.
struct Decoded {
    std::vector<CodePoint> points;
    std::optional<std::size_t> invalidAt;
};
Decoded decode(std::string_view text);

std::string encode(char32_t cp);

// Text from a file (a tensor name, a ref, a token) made safe for a terminal: control characters
// (C0 but newline and tab, DEL, C1: escape sequences, NUL) and invalid bytes become \xHH, so
// nothing a file holds can move the cursor, recolour the screen or cut the message short.
std::string printable(std::string_view text);

}  // namespace attnscope::utf8
