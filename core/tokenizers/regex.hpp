#pragma once
// The regular expressions of tokenizer.json files (the Split pre-tokenizer's `\p{L}`, `\p{N}`,
// `(?i:…)`, look-ahead), matched by Oniguruma: the engine Hugging Face's own tokenizers library
// uses (its `onig` crate), so a pattern means here what it means there (Ruby syntax, UTF-8,
// Unicode `\s` and classes). A match's work is bounded (a retry limit), so a catastrophic pattern
// is refused with an error instead of hanging.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"

namespace attnscope {

struct ByteSpan {
    std::size_t begin, end;  // [begin, end) in bytes
};

class TokenizerRegex {
public:
    // `where` names the pattern's field in errors ("tokenizer.json: pre_tokenizer.pattern.Regex").
    static Result<TokenizerRegex> compile(std::string_view pattern, const std::string& where);

    // Every non-empty, non-overlapping match, left to right (as HF's find_iter). Fails when one
    // search passes the retry limit (a pattern that backtracks catastrophically on this text).
    Result<std::vector<ByteSpan>> findAll(std::string_view text) const;

private:
    struct Compiled;
    std::shared_ptr<const Compiled> compiled_;
    std::string where_;
};

}  // namespace attnscope
