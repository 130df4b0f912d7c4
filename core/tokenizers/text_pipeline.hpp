#pragma once
// The text steps of a tokenizer.json before its model: normalizers (NFC, Prepend, Replace, …) and
// pre-tokenizers (Split by a regular expression or a string, ByteLevel, Metaspace, Digits,
// Punctuation), each as Hugging Face's tokenizers library runs it. A pre-tokenizer turns pieces
// into smaller pieces; the model then encodes each final piece (a "word") on its own.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"
#include "core/tokenizers/regex.hpp"

namespace attnscope {

// A pattern: a literal string or a regular expression ({"String": …} or {"Regex": …}).
struct TextPattern {
    std::string literal;
    std::optional<TokenizerRegex> regex;
    Result<std::vector<ByteSpan>> findAll(std::string_view text) const;
};

struct NormalizerStep {
    enum class Kind { Nfc, Nfd, Nfkc, Nfkd, Lowercase, Prepend, Replace, StripLeft, StripRight };
    Kind kind = Kind::Nfc;
    TextPattern pattern;  // Replace
    std::string content;  // Prepend, Replace
};

// Runs the steps in order.
Result<std::string> normalizeText(const std::vector<NormalizerStep>& steps, std::string text);

// What a split does with the matches (Hugging Face's SplitDelimiterBehavior).
enum class SplitBehavior { Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous };
enum class PrependScheme { Always, First, Never };

struct PreTokenizerStep {
    enum class Kind { Split, ByteLevel, Metaspace, Digits, Punctuation };
    Kind kind = Kind::Split;
    TextPattern pattern;                          // Split
    SplitBehavior behavior = SplitBehavior::Isolated;  // Split, Punctuation
    bool invert = false;                          // Split: the matches are the pieces kept
    bool addPrefixSpace = false, useRegex = true; // ByteLevel
    std::string replacement = "\xE2\x96\x81";     // Metaspace: "▁"
    PrependScheme prependScheme = PrependScheme::Always;
    bool split = true;                            // Metaspace: split before each replacement
    bool individualDigits = false;                // Digits
};

struct TextPiece {
    std::string text;
    bool atStart = false;  // begins at the start of the input (Metaspace's "first" scheme)
};

// Runs the steps in order over one piece of text (a part between added tokens).
Result<std::vector<TextPiece>> preTokenize(const std::vector<PreTokenizerStep>& steps, TextPiece text);

}  // namespace attnscope
