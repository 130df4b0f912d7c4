#pragma once
// Errors are values: the engine never throws across its API, never prints and never exits.
#include <string>
#include <utility>
#include <variant>

namespace attnscope {

struct Error {
    std::string where;    // file, field or tensor, e.g. "lesson.json: heads[1].W_Q"
    std::string message;  // what was expected and what was found
    std::string text() const { return where.empty() ? message : where + ": " + message; }
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
