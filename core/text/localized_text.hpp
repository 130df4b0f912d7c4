#pragma once
// Text a lesson file may give in several languages: {"en": "…", "zh_CN": "…"}, or one plain
// string meaning the same text for every language. Language codes are Qt/POSIX-style locale names
// ("en", "zh_CN"): two or three lower-case letters, optionally "_" and two upper-case letters.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attnscope {

class LocalizedText {
public:
    LocalizedText() = default;
    LocalizedText(std::string plain) : texts_{{std::string(), std::move(plain)}} {}  // NOLINT: a plain string is one
    LocalizedText(const char* plain) : LocalizedText(std::string(plain)) {}          // NOLINT: text for every language

    // Adds (or replaces) the text of one language; a plain text becomes that of no language.
    void set(const std::string& language, std::string text);

    // The text to show a reader of `language` (e.g. "zh_CN", "zh", "de_DE"): that language, else
    // one with the same base language ("zh_TW" → "zh_CN"), else English, else the first given.
    const std::string& in(std::string_view language) const;

    // True for one text for every language (or none): written as a plain string.
    bool isPlain() const { return texts_.empty() || (texts_.size() == 1 && texts_[0].first.empty()); }
    bool empty() const { return texts_.empty(); }
    // (language, text) in file order; a plain text is one entry with an empty language.
    const std::vector<std::pair<std::string, std::string>>& entries() const { return texts_; }

    bool operator==(const LocalizedText&) const = default;

private:
    std::vector<std::pair<std::string, std::string>> texts_;
};

// "en", "zh_CN", "yue": what a lesson file may use as a language key.
bool isLanguageCode(std::string_view code);

// The texts of `items` in `language`, e.g. feature names for an axis.
std::vector<std::string> textsIn(const std::vector<LocalizedText>& items, std::string_view language);

}  // namespace attnscope
