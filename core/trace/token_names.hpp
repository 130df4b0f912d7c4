#pragma once
// How a person tells a sentence's tokens apart: a token's text, or, for a text that occurs more
// than once, the text and its position counted from 1 ("小#1", "小#5" in 小猫看见小狗), so an
// explanation, a table header, a worksheet or an exercise prompt never names two tokens alike.
#include <string>
#include <vector>

#include "core/trace/trace.hpp"

namespace attnscope {

std::vector<std::string> tokenNames(const std::vector<Token>& tokens);

// The names joined by `separator` ("小#1 | 猫 | …"); with MarkMadeUp::Yes a token the lesson's
// table lacks (its vector made up) ends in "*", as the exports print it.
enum class MarkMadeUp { No, Yes };
std::string tokenLine(const std::vector<Token>& tokens, const std::string& separator, MarkMadeUp mark = MarkMadeUp::No);

}  // namespace attnscope
