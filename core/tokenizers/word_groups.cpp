#include "core/tokenizers/word_groups.hpp"

#include <unicode/brkiter.h>
#include <unicode/unistr.h>

#include <memory>
#include <set>

#include "core/text/utf8.hpp"
#include "core/tokenizers/unicode.hpp"

namespace attnscope {

namespace {

// The text as ICU sees it, and each UTF-16 index's byte offset in the UTF-8 text (bytes that are
// no character alone, a piece cut mid-character, count as U+FFFD each).
struct Utf16Text {
    icu::UnicodeString text;
    std::vector<std::size_t> byteOf;  // size text.length() + 1
};

Utf16Text toUtf16(const std::string& bytes) {
    Utf16Text out;
    for (std::size_t at = 0; at < bytes.size();) {
        const utf8::Decoded decoded = utf8::decode(std::string_view(bytes).substr(at, std::min<std::size_t>(4, bytes.size() - at)));
        const bool valid = !decoded.points.empty() && decoded.points[0].offset == 0;
        const char32_t cp = valid ? decoded.points[0].value : 0xFFFD;
        const std::size_t length = valid ? decoded.points[0].length : 1;
        const int units = cp > 0xFFFF ? 2 : 1;
        for (int u = 0; u < units; ++u) out.byteOf.push_back(at);
        out.text.append(static_cast<UChar32>(cp));
        at += length;
    }
    out.byteOf.push_back(bytes.size());
    return out;
}

// Byte offsets of ICU's word boundaries in the text.
std::set<std::size_t> boundaries(const std::string& bytes) {
    std::set<std::size_t> out{0, bytes.size()};
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::BreakIterator> words(icu::BreakIterator::createWordInstance(icu::Locale("zh"), status));
    if (U_FAILURE(status)) return out;
    const Utf16Text text = toUtf16(bytes);
    words->setText(text.text);
    for (int32_t at = words->first(); at != icu::BreakIterator::DONE; at = words->next()) out.insert(text.byteOf[static_cast<std::size_t>(at)]);
    return out;
}

bool lastIsIdeograph(const std::string& text) {
    const auto points = utf8::decode(text).points;
    return !points.empty() && unicode::isBertChineseChar(points.back().value);
}

bool firstIsIdeograph(const std::string& text) {
    const auto points = utf8::decode(text).points;
    return !points.empty() && unicode::isBertChineseChar(points.front().value);
}

}  // namespace

std::vector<int> wordGroups(const std::vector<GroupingToken>& tokens, bool spacesDropped) {
    // The covered text, each token's start in it; WordPiece's dropped spaces put back between
    // words (not between two ideographs, which BERT splits only because they are Chinese).
    std::string text;
    std::vector<std::size_t> start(tokens.size());
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const bool newWord = i > 0 && tokens[i].word != tokens[i - 1].word;
        if (spacesDropped && newWord && !(lastIsIdeograph(text) && firstIsIdeograph(tokens[i].bytes))) text += ' ';
        start[i] = text.size();
        if (!tokens[i].special) text += tokens[i].bytes;
    }
    const std::set<std::size_t> cuts = boundaries(text);
    std::vector<int> group(tokens.size());
    int current = -1;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const bool afterSpecial = i > 0 && tokens[i - 1].special;
        const bool starts = i == 0 || tokens[i].special || afterSpecial || cuts.count(start[i]) > 0;
        if (starts) ++current;
        group[i] = current;
    }
    return group;
}

}  // namespace attnscope
