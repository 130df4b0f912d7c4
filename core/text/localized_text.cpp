#include "core/text/localized_text.hpp"

namespace attnscope {

namespace {

std::string_view baseLanguage(std::string_view code) { return code.substr(0, code.find('_')); }

bool allIn(std::string_view s, char lo, char hi) {
    for (const char c : s)
        if (c < lo || c > hi) return false;
    return true;
}

}  // namespace

void LocalizedText::set(const std::string& language, std::string text) {
    if (isPlain()) texts_.clear();
    for (auto& [code, existing] : texts_)
        if (code == language) {
            existing = std::move(text);
            return;
        }
    texts_.emplace_back(language, std::move(text));
}

const std::string& LocalizedText::in(std::string_view language) const {
    static const std::string none;
    if (texts_.empty()) return none;
    for (const auto& [code, text] : texts_)
        if (code == language) return text;
    for (const auto& [code, text] : texts_)
        if (!code.empty() && baseLanguage(code) == baseLanguage(language)) return text;
    for (const auto& [code, text] : texts_)
        if (baseLanguage(code) == "en") return text;
    return texts_.front().second;
}

bool isLanguageCode(std::string_view code) {
    const std::string_view base = baseLanguage(code);
    if (base.size() < 2 || base.size() > 3 || !allIn(base, 'a', 'z')) return false;
    if (base.size() == code.size()) return true;
    const std::string_view region = code.substr(base.size() + 1);
    return region.size() == 2 && allIn(region, 'A', 'Z');
}

std::vector<std::string> textsIn(const std::vector<LocalizedText>& items, std::string_view language) {
    std::vector<std::string> out;
    out.reserve(items.size());
    for (const LocalizedText& item : items) out.push_back(item.in(language));
    return out;
}

}  // namespace attnscope
