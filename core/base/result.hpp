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

}  // namespace attnscope
