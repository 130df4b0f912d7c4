#include "core/tokenizers/unicode.hpp"

#include <algorithm>

#include "core/tokenizers/unicode_tables.hpp"

namespace attnscope::unicode {

namespace {

using tables::CodeMapping;
using tables::CodeRange;

bool inRanges(const CodeRange* ranges, std::size_t size, char32_t cp) {
    const CodeRange* end = ranges + size;
    const CodeRange* it =
        std::lower_bound(ranges, end, cp, [](const CodeRange& r, char32_t value) { return r.last < value; });
    return it != end && it->first <= cp;
}

const CodeMapping* findMapping(const CodeMapping* items, std::size_t size, char32_t cp) {
    const CodeMapping* end = items + size;
    const CodeMapping* it =
        std::lower_bound(items, end, cp, [](const CodeMapping& m, char32_t value) { return m.from < value; });
    return (it != end && it->from == cp) ? it : nullptr;
}

void appendMapped(const CodeMapping* mapping, char32_t cp, std::u32string& out) {
    if (!mapping) {
        out += cp;
        return;
    }
    for (char32_t target : mapping->to) {
        if (target == 0) break;
        out += target;
    }
}

// Hangul syllables decompose by formula (Unicode §3.12), so the table leaves them out.
constexpr char32_t kHangulBase = 0xAC00, kLeadBase = 0x1100, kVowelBase = 0x1161, kTrailBase = 0x11A7;
constexpr char32_t kVowelCount = 21, kTrailCount = 28, kSyllableCount = 11172;

}  // namespace

bool isLetter(char32_t cp) { return inRanges(tables::kLetter, tables::kLetterSize, cp); }
bool isNumber(char32_t cp) { return inRanges(tables::kNumber, tables::kNumberSize, cp); }
bool isNonspacingMark(char32_t cp) {
    return inRanges(tables::kNonspacingMark, tables::kNonspacingMarkSize, cp);
}

bool isWhiteSpace(char32_t cp) {
    return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
           (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
           cp == 0x205F || cp == 0x3000;
}

bool isBertWhitespace(char32_t cp) {
    return cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' ||
           inRanges(tables::kSpaceSeparator, tables::kSpaceSeparatorSize, cp);
}

bool isBertControl(char32_t cp) {
    if (cp == '\t' || cp == '\n' || cp == '\r') return false;
    return inRanges(tables::kOther, tables::kOtherSize, cp);
}

bool isBertPunctuation(char32_t cp) {
    const bool ascii = (cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) ||
                       (cp >= 123 && cp <= 126);
    return ascii || inRanges(tables::kPunctuation, tables::kPunctuationSize, cp);
}

bool isBertChineseChar(char32_t cp) {
    return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
           (cp >= 0x20000 && cp <= 0x2A6DF) || (cp >= 0x2A700 && cp <= 0x2B73F) ||
           (cp >= 0x2B740 && cp <= 0x2B81F) || (cp >= 0x2B820 && cp <= 0x2CEAF) ||
           (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x2F800 && cp <= 0x2FA1F);
}

void appendLowercase(char32_t cp, std::u32string& out) {
    if (cp < 0x80) {
        out += (cp >= 'A' && cp <= 'Z') ? cp + ('a' - 'A') : cp;
        return;
    }
    appendMapped(findMapping(tables::kLowercase, tables::kLowercaseSize, cp), cp, out);
}

void appendDecomposition(char32_t cp, std::u32string& out) {
    if (cp < 0xC0) {
        out += cp;
        return;
    }
    if (cp >= kHangulBase && cp < kHangulBase + kSyllableCount) {
        const char32_t index = cp - kHangulBase;
        out += kLeadBase + index / (kVowelCount * kTrailCount);
        out += kVowelBase + (index % (kVowelCount * kTrailCount)) / kTrailCount;
        if (index % kTrailCount != 0) out += kTrailBase + index % kTrailCount;
        return;
    }
    appendMapped(findMapping(tables::kDecomposition, tables::kDecompositionSize, cp), cp, out);
}

}  // namespace attnscope::unicode
