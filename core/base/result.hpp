#pragma once
// Errors are values: the engine never throws across its API, never prints and never exits.
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace attnscope {

enum class Language;  // core/text/language.hpp
enum class ErrorId;   // core/text/error_messages.hpp: the catalogue of error texts

// An error text any language can render: an entry of the error catalogue with its arguments
// (themselves ErrorTexts, so a nested description is translated too), or a verbatim text that is
// the same in every language (a name, a number, an OS message). Build them with errorText().
class ErrorText {
public:
    ErrorText() = default;
    ErrorText(ErrorId id, std::vector<ErrorText> arguments = {});  // NOLINT: an id alone is a text
    static ErrorText verbatim(std::string text);

    bool empty() const { return !hasId_ && verbatim_.empty(); }
    std::string in(Language language) const;  // core/text/error_messages.cpp

private:
    bool hasId_ = false;
    ErrorId id_{};
    std::string verbatim_;
    std::vector<ErrorText> arguments_;
};

struct Error {
    std::string where;    // file, field or tensor, e.g. "lesson.json: heads[1].W_Q"
    std::string message;  // what was expected and what was found (English)
    // The same two in a form any language can render; empty when the error was built from strings.
    ErrorText whereText, messageText;

    Error() = default;
    Error(std::string whereIn, std::string messageIn) : where(std::move(whereIn)), message(std::move(messageIn)) {}
    Error(std::string where, ErrorText message);  // where names things (a file, a field): verbatim
    Error(ErrorText where, ErrorText message);

    std::string text() const { return where.empty() ? message : where + ": " + message; }
    // text() in `language`; falls back to the English strings when they were changed after construction.
    std::string textIn(Language language) const;
    // whereText / messageText, or the English strings verbatim: to wrap this error in another.
    ErrorText whereForm() const;
    ErrorText messageForm() const;
    ErrorText textForm() const;  // text() as an ErrorText: "where: message"
};

template <class T>
class Result {
public:
    Result(T value) : data_(std::move(value)) {}
    Result(Error error) : data_(std::move(error)) {}
    bool ok() const { return std::holds_alternative<T>(data_); }
    explicit operator bool() const { return ok(); }
    const T& value() const& { return std::get<T>(data_); }
    T& value() & { return std::get<T>(data_); }
    T&& value() && { return std::get<T>(std::move(data_)); }
    const Error& error() const { return std::get<Error>(data_); }

private:
    std::variant<T, Error> data_;
};

// Success with nothing to return, or an Error: the same convention as Result<T>, so `ok()` (and `if (r)`)
// always means success. A default-constructed Result<void> is a success: `return {};`.
template <>
class Result<void> {
public:
    Result() = default;
    Result(Error error) : error_(std::move(error)), failed_(true) {}
    bool ok() const { return !failed_; }
    explicit operator bool() const { return ok(); }
    const Error& error() const { return error_; }

private:
    Error error_;
    bool failed_ = false;
};

}  // namespace attnscope
