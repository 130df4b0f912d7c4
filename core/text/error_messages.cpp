#include "core/text/error_messages.hpp"

#include <array>

namespace attnscope {

namespace {

struct Entry {
    std::string_view english, chinese;
};

constexpr std::array<Entry, static_cast<std::size_t>(ErrorId::Count)> kErrors{{
#define ATTNSCOPE_ERROR_ENTRY(id, english, chinese) {english, chinese},
    ATTNSCOPE_ERROR_CATALOGUE(ATTNSCOPE_ERROR_ENTRY)
#undef ATTNSCOPE_ERROR_ENTRY
}};

}  // namespace

std::string_view errorTemplate(ErrorId id, Language language) {
    const auto index = static_cast<std::size_t>(id);
    if (index >= kErrors.size()) return {};
    return language == Language::Chinese ? kErrors[index].chinese : kErrors[index].english;
}

namespace {

// A Han character (U+3400–U+9FFF: lead byte E3 from the second byte 0x90, or E4–E9) ends `text`
// before `end` / starts it at `at`; CJK punctuation (U+3000–U+303F, U+FF00…) is none.
bool hanLead(std::string_view text, std::size_t at) {
    if (at + 3 > text.size()) return false;
    const auto lead = static_cast<unsigned char>(text[at]), second = static_cast<unsigned char>(text[at + 1]);
    return (lead == 0xE3 && second >= 0x90) || (lead >= 0xE4 && lead <= 0xE9);
}
bool endsWithHan(std::string_view text) { return text.size() >= 3 && hanLead(text, text.size() - 3); }
bool asciiAlnum(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

}  // namespace

std::string fillErrorTemplate(std::string_view text, const std::vector<std::string>& arguments) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const bool placeholder = i + 2 < text.size() && text[i] == '{' && text[i + 2] == '}' && text[i + 1] >= '1' &&
                                 text[i + 1] <= '9';
        const std::size_t n = placeholder ? static_cast<std::size_t>(text[i + 1] - '1') : arguments.size();
        if (n < arguments.size()) {
            // Chinese sets numbers and Latin words apart from Han characters by a space ("应为 5 个数").
            const std::string& argument = arguments[n];
            if (!argument.empty() && asciiAlnum(argument.front()) && endsWithHan(out)) out += ' ';
            out += argument;
            if (!argument.empty() && asciiAlnum(argument.back()) && hanLead(text, i + 3)) out += ' ';
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

// ---------------------------------------------------------------- ErrorText, Error (core/base/result.hpp)

ErrorText::ErrorText(ErrorId id, std::vector<ErrorText> arguments)
    : hasId_(true), id_(id), arguments_(std::move(arguments)) {}

ErrorText ErrorText::verbatim(std::string text) {
    ErrorText out;
    out.verbatim_ = std::move(text);
    return out;
}

std::string ErrorText::in(Language language) const {
    if (!hasId_) return verbatim_;
    std::vector<std::string> rendered;
    rendered.reserve(arguments_.size());
    for (const ErrorText& argument : arguments_) rendered.push_back(argument.in(language));
    return fillErrorTemplate(errorTemplate(id_, language), rendered);
}

Error::Error(std::string whereIn, ErrorText messageIn)
    : where(std::move(whereIn)), message(messageIn.in(Language::English)), messageText(std::move(messageIn)) {}

Error::Error(ErrorText whereIn, ErrorText messageIn)
    : where(whereIn.in(Language::English)),
      message(messageIn.in(Language::English)),
      whereText(std::move(whereIn)),
      messageText(std::move(messageIn)) {}

ErrorText Error::whereForm() const {
    // A where changed after construction (prefixed with a file name) is kept as it now reads.
    if (!whereText.empty() && whereText.in(Language::English) == where) return whereText;
    return ErrorText::verbatim(where);
}

ErrorText Error::messageForm() const {
    if (!messageText.empty() && messageText.in(Language::English) == message) return messageText;
    return ErrorText::verbatim(message);
}

ErrorText Error::textForm() const {
    if (where.empty()) return messageForm();
    return errorText(ErrorId::WhereMessage, whereForm(), messageForm());
}

std::string Error::textIn(Language language) const {
    const std::string w = whereForm().in(language), m = messageForm().in(language);
    return w.empty() ? m : w + ": " + m;
}

}  // namespace attnscope
