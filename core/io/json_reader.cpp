#include "core/io/json_reader.hpp"

#include <cmath>
#include <set>

#include "core/text/utf8.hpp"

namespace attnscope::json {

namespace {

// Cuts text to at most `limit` bytes without splitting a UTF-8 character.
std::string clipped(const std::string& text, std::size_t limit) {
    if (text.size() <= limit) return text;
    std::size_t cut = limit;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    return text.substr(0, cut) + "…";
}

// A key that would make the path ambiguous (empty, or with a space, dot, bracket or quote) is
// written ["key"]; others as .key.
std::string keyStep(const std::string& key, bool first) {
    const bool plain = !key.empty() && key.find_first_of(" .[]\"\t\n\r") == std::string::npos;
    if (plain) return first ? clipped(key, 80) : "." + clipped(key, 80);
    return "[\"" + clipped(key, 80) + "\"]";
}

// Invalid UTF-8 bytes quoted in a message (nlohmann's "last read: '…'") spelled \xNN, so the
// message itself stays valid UTF-8 for the window and the terminal.
std::string printable(std::string_view text) {
    std::string out;
    while (!text.empty()) {
        const auto bad = utf8::decode(text).invalidAt;
        out.append(text.substr(0, bad.value_or(text.size())));
        if (!bad) break;
        static const char* hex = "0123456789ABCDEF";
        const auto byte = static_cast<unsigned char>(text[*bad]);
        out += std::string("\\x") + hex[byte >> 4] + hex[byte & 15];
        text.remove_prefix(*bad + 1);
    }
    return out;
}

// nlohmann's message without its "[json.exception.parse_error.101] parse error at line 1, column 7: "
// prefix (we give the position ourselves).
std::string reason(const std::string& what) {
    std::string detail = what;
    if (const auto at = detail.find("] "); at != std::string::npos) detail = detail.substr(at + 2);
    if (const auto col = detail.find("column "); col != std::string::npos)
        if (const auto colon = detail.find(": ", col); colon != std::string::npos) detail = detail.substr(colon + 2);
    return printable(clipped(detail, 300));
}

// One of nlohmann's token names ("string literal", "'}'", "end of input") as a reader's words.
ErrorText tokenName(const std::string& name) {
    if (name == "end of input") return ErrorId::JsonEndOfText;
    if (name == "string literal") return ErrorId::JsonAString;
    if (name == "number literal") return ErrorId::ANumber;
    if (name == "'[', '{', or a literal" || name == "value") return ErrorId::JsonAValue;
    if (const auto space = name.find(" literal"); space != std::string::npos) return ErrorText::verbatim(name.substr(0, space));
    if (const auto orAt = name.find(" or "); orAt != std::string::npos)  // "',' or '}'"
        return errorText(ErrorId::JsonOneOf, tokenName(name.substr(0, orAt)), tokenName(name.substr(orAt + 4)));
    return ErrorText::verbatim(name);  // punctuation: '}', ':'
}

// What the parser met: "unexpected X" names a token; a lexer error says what was wrong in the token.
ErrorText foundToken(const std::string& detail) {
    static const std::string unexpected = "unexpected ";
    if (const auto at = detail.find(unexpected); at != std::string::npos) {
        const std::string rest = detail.substr(at + unexpected.size());
        return tokenName(rest.substr(0, rest.find(';')));
    }
    if (detail.find("invalid string") != std::string::npos) return ErrorId::JsonBadString;
    if (detail.find("invalid number") != std::string::npos) return ErrorId::JsonBadNumber;
    if (detail.find("number overflow") != std::string::npos) return ErrorId::JsonNumberOverflow;  // 1e400
    return ErrorId::JsonBadLiteral;
}

// A lead in the reader's language for nlohmann's English detail ("syntax error while parsing
// object - unexpected string literal; expected '}'"): what was expected and what was found, with
// the detail kept after it in brackets for the technically minded.
ErrorText syntaxLead(const std::string& detail) {
    static const std::string expected = "; expected ";
    const ErrorText found = foundToken(detail);
    const auto at = detail.rfind(expected);
    if (at == std::string::npos) return errorText(ErrorId::WithNote, errorText(ErrorId::JsonFoundHere, found), detail);
    const std::string wanted = detail.substr(at + expected.size());
    const bool key = wanted == "string literal" && detail.find("parsing object key") != std::string::npos;
    const ErrorText lead = errorText(ErrorId::ExpectedFound, key ? ErrorText(ErrorId::JsonAKey) : tokenName(wanted), found);
    return errorText(ErrorId::WithNote, lead, detail);
}

// One open object or array while parsing, to name a duplicated key's place ("embeddings",
// "layers[1].heads_weights[0]").
struct Frame {
    bool isObject = false;
    std::set<std::string> keys;
    std::string lastKey;
    std::size_t nextIndex = 0;
};

// SAX handler: builds the document with nlohmann's own DOM builder and checks duplicates and depth
// on the way, so the text is read once.
template <class JsonT>
class CheckingSax {
public:
    using Dom = nlohmann::detail::json_sax_dom_parser<JsonT>;
    using string_t = typename JsonT::string_t;

    CheckingSax(JsonT& root, std::string_view text, const std::string& file)
        : dom_(root, false), text_(text), file_(file) {}

    Result<void> error;
    JsonSyntaxError syntax;

    bool null() { return value() && dom_.null(); }
    bool boolean(bool v) { return value() && dom_.boolean(v); }
    bool number_integer(typename JsonT::number_integer_t v) { return value() && dom_.number_integer(v); }
    bool number_unsigned(typename JsonT::number_unsigned_t v) { return value() && dom_.number_unsigned(v); }
    bool number_float(typename JsonT::number_float_t v, const string_t& s) { return value() && dom_.number_float(v, s); }
    bool string(string_t& v) { return value() && dom_.string(v); }
    bool binary(typename JsonT::binary_t& v) { return value() && dom_.binary(v); }
    bool start_object(std::size_t n) { return open(true) && dom_.start_object(n); }
    bool start_array(std::size_t n) { return open(false) && dom_.start_array(n); }
    bool end_object() { return close() && dom_.end_object(); }
    bool end_array() { return close() && dom_.end_array(); }

    bool key(string_t& k) {
        Frame& frame = stack_.back();
        if (!frame.keys.insert(k).second) {
            // nlohmann would keep the last silently; a duplicated key is almost always an edit gone wrong.
            const std::string object = pathOfOpen();
            error = Error{object.empty() ? file_ : file_ + ": " + object,
                          errorText(object.empty() ? ErrorId::DuplicateTopKey : ErrorId::DuplicateKey, clipped(k, 80))};
            return false;
        }
        frame.lastKey = k;
        return dom_.key(k);
    }

    // `position` counts the bytes read, up to the end of the offending token. A string, number or
    // literal token is all of lastToken, so the message points at its first byte; after
    // punctuation lastToken also holds what came before, so only the last byte is certain. At the
    // end of the text the message points just past it.
    bool parse_error(std::size_t position, const std::string& lastToken, const nlohmann::detail::exception& e) {
        const std::size_t start = position >= text_.size() ? text_.size()
                                  : isWholeToken(lastToken) && lastToken.size() <= position ? position - lastToken.size()
                                  : (position == 0 ? 0 : position - 1);
        const auto [line, column] = lineAndColumn(text_, start);
        syntax = JsonSyntaxError{line, column, syntaxLead(reason(e.what()))};
        error = Error{file_, errorText(ErrorId::NotValidJsonAt, line, column, syntax.reason)};
        return false;
    }

private:
    static bool isWholeToken(const std::string& token) {
        if (token.size() >= 2 && token.front() == '"' && token.back() == '"') return true;
        return !token.empty() && token.find_first_not_of("0123456789+-.eEtruefalsn") == std::string::npos;
    }
    // Every value in an array takes the next index (for paths of nested objects).
    bool value() {
        if (!stack_.empty() && !stack_.back().isObject) ++stack_.back().nextIndex;
        return true;
    }
    bool open(bool isObject) {
        value();
        if (stack_.size() >= static_cast<std::size_t>(kMaxDepth)) {
            error = Error{file_, errorText(ErrorId::NestedTooDeep, kMaxDepth)};
            return false;
        }
        stack_.push_back(Frame{isObject, {}, {}, 0});
        return true;
    }
    bool close() {
        stack_.pop_back();
        return true;
    }
    // The path of the innermost open object, from the keys and indexes of the frames around it.
    std::string pathOfOpen() const {
        std::string path;
        for (std::size_t i = 0; i + 1 < stack_.size(); ++i) {
            const Frame& f = stack_[i];
            if (f.isObject) path += keyStep(f.lastKey, path.empty());
            else path += "[" + std::to_string(f.nextIndex - 1) + "]";
        }
        return path;
    }

    Dom dom_;
    std::string_view text_;
    const std::string& file_;
    std::vector<Frame> stack_;
};

}  // namespace

template <class JsonT>
ErrorText describeText(const JsonT& j) {
    switch (j.type()) {
        case JsonT::value_t::null: return ErrorId::JsonNull;
        case JsonT::value_t::boolean: return ErrorId::JsonBoolean;
        case JsonT::value_t::string: return errorText(ErrorId::JsonText, clipped(j.template get_ref<const std::string&>(), 40));
        case JsonT::value_t::array: return errorText(ErrorId::JsonList, j.size());
        case JsonT::value_t::object: return ErrorId::JsonObject;
        case JsonT::value_t::binary: return ErrorId::JsonBinary;
        default: return errorText(ErrorId::JsonNumber, j.dump());
    }
}

template <class JsonT>
std::string describe(const JsonT& j) {
    return describeText(j).in(Language::English);
}

std::pair<std::size_t, std::size_t> lineAndColumn(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    std::size_t line = 1, lineStart = 0;
    for (std::size_t i = 0; i < offset; ++i)
        if (text[i] == '\n') ++line, lineStart = i + 1;
    return {line, offset - lineStart + 1};
}

template <class JsonT>
Result<JsonT> parse(std::string_view text, const std::string& file, JsonSyntaxError* syntax) {
    JsonT root;
    CheckingSax<JsonT> sax(root, text, file);
    const bool ok = JsonT::sax_parse(text.begin(), text.end(), &sax, nlohmann::json::input_format_t::json, true);
    if (syntax) *syntax = sax.syntax;
    if (!sax.error.ok()) return sax.error.error();
    if (!ok) return Error{file, ErrorId::NotValidJson};
    return root;
}

// ---------------------------------------------------------------- Field

template <class JsonT>
Field<JsonT>::Field(const JsonT& value, std::string file, std::string path)
    : value_(&value), file_(std::move(file)), path_(std::move(path)) {}

template <class JsonT>
std::string Field<JsonT>::where() const {
    return path_.empty() ? file_ : file_ + ": " + path_;
}


template <class JsonT>
std::string Field<JsonT>::memberPath(const std::string& key) const {
    return path_ + keyStep(key, path_.empty());
}

template <class JsonT>
std::string Field<JsonT>::whereOf(const std::string& key) const {
    return file_ + ": " + (path_.empty() ? key : path_ + "." + key);  // key may be a label: "a (or b)"
}

template <class JsonT>
Error Field<JsonT>::expected(ErrorText what) const {
    return error(errorText(ErrorId::ExpectedFound, std::move(what), describeText(*value_)));
}

template <class JsonT>
bool Field<JsonT>::has(const std::string& key) const {
    if (!value_->is_object()) return false;
    const auto it = value_->find(key);
    return it != value_->end() && !it->is_null();
}

template <class JsonT>
Result<std::optional<Field<JsonT>>> Field<JsonT>::optionalMember(const std::string& key) const {
    if (value_->is_null()) return std::optional<Field>{};
    if (auto e = requireObject(); !e.ok()) return e.error();
    const auto it = value_->find(key);
    if (it == value_->end() || it->is_null()) return std::optional<Field>{};
    return std::optional<Field>{child(memberPath(key), *it)};
}

template <class JsonT>
Result<Field<JsonT>> Field<JsonT>::member(const std::string& key) const {
    if (auto e = requireObject(); !e.ok()) return e.error();
    auto found = optionalMember(key);
    if (!found) return found.error();
    if (!found.value()) return Error{whereOf(key), ErrorId::IsMissing};
    return *found.value();
}

template <class JsonT>
Result<void> Field<JsonT>::requireObject(ErrorText what) const {
    if (value_->is_object()) return {};
    return expected(std::move(what));
}

template <class JsonT>
Result<std::vector<Field<JsonT>>> Field<JsonT>::elements(ErrorText what) const {
    if (!value_->is_array()) return expected(std::move(what));
    std::vector<Field> out;
    out.reserve(value_->size());
    for (std::size_t i = 0; i < value_->size(); ++i) out.push_back(child(path_ + "[" + std::to_string(i) + "]", (*value_)[i]));
    return out;
}

template <class JsonT>
Result<std::vector<std::pair<std::string, Field<JsonT>>>> Field<JsonT>::members(ErrorText what) const {
    if (!value_->is_object()) return expected(std::move(what));
    std::vector<std::pair<std::string, Field>> out;
    out.reserve(value_->size());
    for (auto it = value_->begin(); it != value_->end(); ++it) out.emplace_back(it.key(), child(memberPath(it.key()), it.value()));
    return out;
}

template <class JsonT>
Result<long long> Field<JsonT>::integer(long long lo, long long hi) const {
    if (!value_->is_number_integer()) return expected(errorText(ErrorId::AWholeNumberFrom, lo, hi));
    // Unsigned values above INT64_MAX would wrap to negative numbers through get<long long>().
    const bool tooLarge = value_->is_number_unsigned() && value_->template get<std::uint64_t>() > static_cast<std::uint64_t>(hi);
    const long long v = tooLarge ? hi : value_->template get<long long>();
    if (tooLarge || v < lo || v > hi)
        return error(errorText(ErrorId::ExpectedFound, errorText(ErrorId::Range, lo, hi), value_->dump()));
    return v;
}

template <class JsonT>
Result<double> Field<JsonT>::number() const {
    if (!value_->is_number()) return expected(ErrorId::ANumber);
    const double v = value_->template get<double>();
    if (!std::isfinite(v)) return error(errorText(ErrorId::ExpectedFound, ErrorId::AFiniteNumber, value_->dump()));
    return v;
}

template <class JsonT>
Result<std::string> Field<JsonT>::text() const {
    if (!value_->is_string()) return expected(ErrorId::AText);
    return value_->template get<std::string>();
}

template <class JsonT>
Result<bool> Field<JsonT>::boolean() const {
    if (!value_->is_boolean()) return expected(ErrorId::TrueOrFalse);
    return value_->template get<bool>();
}

namespace {

// Shared by the optional getters: absent or null → nullopt, else what `read` makes of the member.
template <class T, class FieldT, class Read>
Result<std::optional<T>> optionalOf(const FieldT& object, const std::string& key, Read read) {
    auto found = object.optionalMember(key);
    if (!found) return found.error();
    if (!found.value()) return std::optional<T>{};
    auto value = read(*found.value());
    if (!value) return value.error();
    return std::optional<T>{std::move(value).value()};
}

}  // namespace

template <class JsonT>
Result<std::optional<long long>> Field<JsonT>::optionalInteger(const std::string& key, long long lo, long long hi) const {
    return optionalOf<long long>(*this, key, [&](const Field& f) { return f.integer(lo, hi); });
}

template <class JsonT>
Result<std::optional<std::string>> Field<JsonT>::optionalText(const std::string& key) const {
    return optionalOf<std::string>(*this, key, [](const Field& f) { return f.text(); });
}

template <class JsonT>
Result<std::optional<bool>> Field<JsonT>::optionalBoolean(const std::string& key) const {
    return optionalOf<bool>(*this, key, [](const Field& f) { return f.boolean(); });
}

template ErrorText describeText<Json>(const Json&);
template ErrorText describeText<OrderedJson>(const OrderedJson&);
template std::string describe<Json>(const Json&);
template std::string describe<OrderedJson>(const OrderedJson&);
template Result<Json> parse<Json>(std::string_view, const std::string&, JsonSyntaxError*);
template Result<OrderedJson> parse<OrderedJson>(std::string_view, const std::string&, JsonSyntaxError*);
template class Field<Json>;
template class Field<OrderedJson>;

}  // namespace attnscope::json
