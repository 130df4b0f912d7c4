#pragma once
// The lesson tokenizer: words split on white space and punctuation, punctuation kept as tokens,
// every CJK character its own token (笔记本 → 笔 / 记 / 本), optional lower-casing of ASCII letters.
// An apostrophe between two letters stays inside the word ("didn't" is one token), because
// splitting it would put fragments like "t" on the board that no teacher wants to explain.
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"

namespace attnscope {

Result<std::vector<std::string>> lessonTokenize(std::string_view text, bool lowercase);

bool isCjk(char32_t cp);
bool isPunctuation(char32_t cp);
bool isSpace(char32_t cp);

}  // namespace attnscope
