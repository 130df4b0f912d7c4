#pragma once
// The one JSON reader of every file format the engine reads: lessons, config.json, tokenizer files,
// safetensors headers and indexes, coreference sets. Internal to core .cpp files (it includes
// nlohmann; never include it from a public header).
//
// parse() refuses what nlohmann would accept silently or report vaguely: a syntax error is given
// with its line and column, a duplicated key (nlohmann keeps the last) is refused naming the key and
// its object, and nesting deeper than kMaxDepth is refused. Field walks the parsed document; each
// error it returns is Error{"file: path.to.field", "expected …, found …"}, so a caller never touches
// a value of the wrong type (nlohmann would throw) and never has to word a message itself.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/result.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope::json {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;  // keeps keys in file order (lesson embeddings)

constexpr int kMaxDepth = 256;

// How a message names a JSON value: null, a boolean, the text "…" (40 characters at most, cut on a
// character boundary), a list of N, an object, the number N.
template <class JsonT>
ErrorText describeText(const JsonT& j);
template <class JsonT>
std::string describe(const JsonT& j);  // describeText in English

// Line and column (both from 1, the column in bytes) of a byte offset into text.
std::pair<std::size_t, std::size_t> lineAndColumn(std::string_view text, std::size_t offset);

// Where and why a text is not JSON, for callers that word the error themselves (a line of a
// JSON-lines file): line and column from 1, and the reason in any language.
struct JsonSyntaxError {
    std::size_t line = 0, column = 0;  // 0: the error was not a syntax error
    ErrorText reason;
};

// Parses a whole document. `file` starts every error ("config.json: line 3, column 7: …"); on a
// syntax error `syntax` (when given) also receives its place and reason.
template <class JsonT = Json>
Result<JsonT> parse(std::string_view text, const std::string& file, JsonSyntaxError* syntax = nullptr);

// One value of a parsed document and where it is: the file and its path ("layers[0].W_Q").
// Holds a pointer into the document, which must outlive it.
template <class JsonT = Json>
class Field {
public:
    Field(const JsonT& value, std::string file, std::string path = {});

    const JsonT& json() const { return *value_; }
    const std::string& file() const { return file_; }
    const std::string& path() const { return path_; }
    std::string where() const;                          // "file: path", or "file" at the top
    std::string whereOf(const std::string& key) const;  // where() of a member (or a label), present or not
    Error error(ErrorText message) const { return Error{where(), std::move(message)}; }
    Error expected(ErrorText what) const;  // "expected <what>, found <describe>"

    bool isNull() const { return value_->is_null(); }
    // A member that is present and not null (false when this is not an object).
    bool has(const std::string& key) const;
    // A member, required: this must be an object and the member present and not null.
    Result<Field> member(const std::string& key) const;
    // A member that may be absent or null; this must be an object (or null).
    Result<std::optional<Field>> optionalMember(const std::string& key) const;

    // Type checks; `what` words the expectation ("a list of numbers").
    Result<void> requireObject(ErrorText what = ErrorId::JsonObject) const;
    Result<std::vector<Field>> elements(ErrorText what = ErrorId::AList) const;
    Result<std::vector<std::pair<std::string, Field>>> members(ErrorText what = ErrorId::JsonObject) const;

    // Scalars. integer() reports an out-of-range number as written (never wrapped: 2^64-1 stays
    // 18446744073709551615); number() refuses nothing but finite numbers.
    Result<long long> integer(long long lo, long long hi) const;
    Result<double> number() const;
    Result<std::string> text() const;
    Result<bool> boolean() const;

    // Optional members of an object: absent or null → nullopt; present with another type → Error.
    Result<std::optional<long long>> optionalInteger(const std::string& key, long long lo, long long hi) const;
    Result<std::optional<std::string>> optionalText(const std::string& key) const;
    Result<std::optional<bool>> optionalBoolean(const std::string& key) const;

private:
    Field child(std::string path, const JsonT& value) const { return Field(value, file_, std::move(path)); }
    std::string memberPath(const std::string& key) const;

    const JsonT* value_;
    std::string file_;
    std::string path_;
};

// For parsers written as straight-line code (lessons, config.json): need() unwraps a Result or
// throws its Error as a Failure, which the parser's entry point turns back into an Error with
// catching(). Failure never leaves a core .cpp file.
struct Failure {
    Error error;
};

[[noreturn]] inline void fail(Error error) { throw Failure{std::move(error)}; }

template <class T>
T need(Result<T> result) {
    if (!result) fail(result.error());
    return std::move(result).value();
}

inline void need(const Result<void>& error) {
    if (!error.ok()) fail(error.error());
}

template <class Fn>
auto catching(Fn&& fn) -> decltype(fn()) {
    try {
        return fn();
    } catch (const Failure& f) {
        return f.error;
    }
}

}  // namespace attnscope::json
