#pragma once
// A token's text as a person reads it. Byte-level pieces (GPT-2, Qwen, Llama 3) and byte-fallback
// pieces (<0xE5>, Llama 2, Gemma) may hold part of a character: a Chinese character is three
// bytes, and one piece may end after the first of them. Read in sequence, each character is shown
// once, on the token that completes it; a token holding only leading bytes of a character shows
// kPartMark and says how many tokens later the character appears; bytes that never form a
// character (a lone continuation byte) show U+FFFD, leading bytes whose character never comes (the
// text ends, or a special token follows) show kPartMark; both are flagged invalid.
#include <string>
#include <vector>

namespace attnscope {

// "◌" (U+25CC DOTTED CIRCLE, the usual placeholder for a part of a character).
inline constexpr const char* kPartMark = "\xE2\x97\x8C";

struct TokenReading {
    std::string text;        // the characters this token completes, spaces as "␣", newlines "↵", tabs "⇥"
    int completedAhead = 0;  // > 0: also holds leading bytes of a character shown that many tokens later
    bool invalid = false;    // holds bytes that form no character here
};

// One entry per token: its raw bytes, or `opaque` for a token shown as its piece (a special token).
struct TokenBytes {
    std::string bytes;
    bool opaque = false;
};

std::vector<TokenReading> readTokens(const std::vector<TokenBytes>& tokens);

// The label of a reading: its text, then kPartMark when it holds part of a later character.
std::string readingLabel(const TokenReading& reading);

}  // namespace attnscope
