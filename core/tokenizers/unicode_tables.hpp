#pragma once
// The generated Unicode tables (core/tokenizers/unicode_tables.cpp, made by
// scripts/generate_unicode_tables.py). Ranges are sorted and inclusive; a mapping's targets are
// padded with 0 after its last code point.
#include <cstddef>

namespace attnscope::unicode::tables {

struct CodeRange {
    char32_t first;
    char32_t last;
};

inline constexpr std::size_t kMaxMapped = 4;

struct CodeMapping {
    char32_t from;
    char32_t to[kMaxMapped];
};

extern const CodeRange kLetter[];           // general category L*
extern const std::size_t kLetterSize;
extern const CodeRange kNumber[];           // N*
extern const std::size_t kNumberSize;
extern const CodeRange kPunctuation[];      // P*
extern const std::size_t kPunctuationSize;
extern const CodeRange kOther[];            // C* (control, format, unassigned, private, surrogate)
extern const std::size_t kOtherSize;
extern const CodeRange kSpaceSeparator[];   // Zs
extern const std::size_t kSpaceSeparatorSize;
extern const CodeRange kNonspacingMark[];   // Mn
extern const std::size_t kNonspacingMarkSize;
extern const CodeMapping kLowercase[];      // full lower-case mapping of one character
extern const std::size_t kLowercaseSize;
extern const CodeMapping kDecomposition[];  // full canonical decomposition (NFD), Hangul excluded
extern const std::size_t kDecompositionSize;

}  // namespace attnscope::unicode::tables
