#include "core/text/utf8.hpp"

#include <algorithm>

namespace attnscope::utf8 {

namespace {

bool isContinuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

// Reads one code point at text[pos]; returns its length, or 0 when the sequence is invalid.
std::size_t readOne(std::string_view text, std::size_t pos, char32_t& out) {
    const auto lead = static_cast<unsigned char>(text[pos]);
    std::size_t length = 0;
    char32_t cp = 0;
    char32_t minimum = 0;
    if (lead < 0x80) return out = lead, 1;
    if ((lead & 0xE0) == 0xC0) length = 2, cp = lead & 0x1F, minimum = 0x80;
    else if ((lead & 0xF0) == 0xE0) length = 3, cp = lead & 0x0F, minimum = 0x800;
    else if ((lead & 0xF8) == 0xF0) length = 4, cp = lead & 0x07, minimum = 0x10000;
    else return 0;
    if (pos + length > text.size()) return 0;
    for (std::size_t i = 1; i < length; ++i) {
        const auto byte = static_cast<unsigned char>(text[pos + i]);
        if (!isContinuation(byte)) return 0;
        cp = (cp << 6) | (byte & 0x3F);
    }
    const bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
    if (cp < minimum || cp > 0x10FFFF || surrogate) return 0;
    out = cp;
    return length;
}

}  // namespace

Decoded decode(std::string_view text) {
    Decoded result;
    result.points.reserve(text.size());
    for (std::size_t pos = 0; pos < text.size();) {
        char32_t cp = 0;
        const std::size_t length = readOne(text, pos, cp);
        if (length == 0) {
            result.invalidAt = pos;
            return result;
        }
        result.points.push_back({cp, pos, length});
        pos += length;
    }
    return result;
}

std::string encode(char32_t cp) {
    std::string out;
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return out;
}

namespace {

void appendEscaped(std::string& out, unsigned char byte) {
    static const char* const kHex = "0123456789abcdef";
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 15];
}

bool isControl(char32_t cp) { return (cp < 0x20 && cp != '\n' && cp != '\t') || (cp >= 0x7f && cp < 0xa0); }

}  // namespace

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t pos = 0; pos < text.size();) {
        char32_t cp = 0;
        const std::size_t length = readOne(text, pos, cp);
        if (length == 0 || isControl(cp)) {
            for (std::size_t b = 0; b < std::max<std::size_t>(length, 1); ++b)
                appendEscaped(out, static_cast<unsigned char>(text[pos + b]));
        } else {
            out.append(text.substr(pos, length));
        }
        pos += std::max<std::size_t>(length, 1);
    }
    return out;
}

}  // namespace attnscope::utf8

