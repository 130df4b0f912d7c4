#include "core/lesson/lesson_tokenizer.hpp"

#include "core/text/error_messages.hpp"
#include "core/text/utf8.hpp"

namespace attnscope {

bool isCjk(char32_t cp) {
    return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
           (cp >= 0x20000 && cp <= 0x2A6DF) || (cp >= 0x2A700 && cp <= 0x2CEAF) ||
           (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x2F800 && cp <= 0x2FA1F) ||
           (cp >= 0x3040 && cp <= 0x30FF);  // kana: Japanese has no spaces either
}

bool isPunctuation(char32_t cp) {
    const bool asciiPunct = (cp >= 0x21 && cp <= 0x2F) || (cp >= 0x3A && cp <= 0x40) ||
                            (cp >= 0x5B && cp <= 0x60) || (cp >= 0x7B && cp <= 0x7E);
    return asciiPunct || (cp >= 0x2000 && cp <= 0x206F) || (cp >= 0x3000 && cp <= 0x303F) ||
           (cp >= 0xFF01 && cp <= 0xFF0F) || (cp >= 0xFF1A && cp <= 0xFF20) ||
           (cp >= 0xFF3B && cp <= 0xFF40) || (cp >= 0xFF5B && cp <= 0xFF65) ||
           cp == 0xA1 || cp == 0xBF || cp == 0xAB || cp == 0xBB;
}

bool isSpace(char32_t cp) {
    return cp == ' ' || (cp >= 0x09 && cp <= 0x0D) || cp == 0xA0 || cp == 0x3000 ||
           (cp >= 0x2000 && cp <= 0x200B) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
           cp == 0x205F || cp == 0xFEFF;
}

namespace {

bool isLetterLike(char32_t cp) { return !isSpace(cp) && !isPunctuation(cp) && !isCjk(cp); }

bool isInnerApostrophe(const std::vector<utf8::CodePoint>& points, std::size_t i) {
    const char32_t cp = points[i].value;
    if (cp != '\'' && cp != 0x2019) return false;
    return i > 0 && i + 1 < points.size() && isLetterLike(points[i - 1].value) &&
           isLetterLike(points[i + 1].value);
}

char32_t lowered(char32_t cp, bool lowercase) {
    return (lowercase && cp >= 'A' && cp <= 'Z') ? cp + ('a' - 'A') : cp;
}

}  // namespace

Result<std::vector<std::string>> lessonTokenize(std::string_view text, bool lowercase) {
    const utf8::Decoded decoded = utf8::decode(text);
    if (decoded.invalidAt) {
        return Error{ErrorId::WhereSentence, errorText(ErrorId::SentenceNotUtf8, *decoded.invalidAt)};
    }
    std::vector<std::string> tokens;
    std::string word;
    auto flush = [&] {
        if (!word.empty()) tokens.push_back(std::move(word));
        word.clear();
    };
    const auto& points = decoded.points;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const char32_t cp = points[i].value;
        if (isSpace(cp) || cp < 0x20 || cp == 0x7F) {
            flush();
        } else if ((isPunctuation(cp) && !isInnerApostrophe(points, i)) || isCjk(cp)) {
            flush();
            tokens.push_back(utf8::encode(cp));
        } else {
            word += utf8::encode(lowered(cp, lowercase));
        }
    }
    flush();
    return tokens;
}

}  // namespace attnscope
