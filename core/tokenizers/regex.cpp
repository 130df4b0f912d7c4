#include "core/tokenizers/regex.hpp"

#include <oniguruma.h>

#include <mutex>

#include "core/text/error_messages.hpp"

namespace attnscope {

namespace {

// Retries (backtracking steps) one search may take: tokenizer patterns need a few per byte; a
// nested quantifier on a hostile text needs exponentially many and is stopped here.
constexpr unsigned long kRetryLimitInMatch = 2'000'000;
constexpr unsigned long kRetryLimitInSearch = 100'000'000;  // one search tries every start position

void initializeOnce() {
    static std::once_flag once;
    std::call_once(once, [] {
        OnigEncoding encodings[] = {ONIG_ENCODING_UTF8};
        onig_initialize(encodings, 1);
    });
}

std::string onigMessage(int code, OnigErrorInfo* info) {
    OnigUChar text[ONIG_MAX_ERROR_MESSAGE_LEN];
    const int length = info ? onig_error_code_to_str(text, code, info) : onig_error_code_to_str(text, code);
    return std::string(reinterpret_cast<const char*>(text), static_cast<std::size_t>(std::max(length, 0)));
}

const OnigUChar* bytes(std::string_view s) { return reinterpret_cast<const OnigUChar*>(s.data()); }

}  // namespace

struct TokenizerRegex::Compiled {
    regex_t* regex = nullptr;
    ~Compiled() { onig_free(regex); }
};

Result<TokenizerRegex> TokenizerRegex::compile(std::string_view pattern, const std::string& where) {
    initializeOnce();
    auto compiled = std::make_shared<Compiled>();
    OnigErrorInfo info;
    const int code = onig_new(&compiled->regex, bytes(pattern), bytes(pattern) + pattern.size(), ONIG_OPTION_NONE,
                              ONIG_ENCODING_UTF8, ONIG_SYNTAX_DEFAULT, &info);
    if (code != ONIG_NORMAL) {
        compiled->regex = nullptr;
        return Error{where, errorText(ErrorId::RegexDoesNotCompile, std::string(pattern), onigMessage(code, &info))};
    }
    TokenizerRegex regex;
    regex.compiled_ = std::move(compiled);
    regex.where_ = where;
    return regex;
}

Result<std::vector<ByteSpan>> TokenizerRegex::findAll(std::string_view text) const {
    std::vector<ByteSpan> spans;
    std::unique_ptr<OnigRegion, void (*)(OnigRegion*)> region(onig_region_new(), [](OnigRegion* r) { onig_region_free(r, 1); });
    std::unique_ptr<OnigMatchParam, void (*)(OnigMatchParam*)> param(onig_new_match_param(), onig_free_match_param);
    onig_initialize_match_param(param.get());
    onig_set_retry_limit_in_match_of_match_param(param.get(), kRetryLimitInMatch);
    onig_set_retry_limit_in_search_of_match_param(param.get(), kRetryLimitInSearch);
    const OnigUChar* start = bytes(text);
    const OnigUChar* end = start + text.size();
    for (std::size_t from = 0; from <= text.size();) {
        const int at = onig_search_with_param(compiled_->regex, start, end, start + from, end, region.get(),
                                              ONIG_OPTION_NONE, param.get());
        if (at == ONIG_MISMATCH) break;
        if (at < 0) return Error{where_, errorText(ErrorId::RegexSearchFailed, onigMessage(at, nullptr))};
        const auto matchEnd = static_cast<std::size_t>(region->end[0]);
        if (matchEnd > static_cast<std::size_t>(at)) spans.push_back({static_cast<std::size_t>(at), matchEnd});
        // An empty match moves on one character, never splitting a UTF-8 sequence.
        from = matchEnd > static_cast<std::size_t>(at) ? matchEnd : matchEnd + 1;
        while (from < text.size() && (static_cast<unsigned char>(text[from]) & 0xC0) == 0x80) ++from;
    }
    return spans;
}

}  // namespace attnscope
