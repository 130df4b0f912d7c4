#include "core/tokenizers/text_pipeline.hpp"

#include <unicode/normalizer2.h>
#include <unicode/unistr.h>

#include "core/text/utf8.hpp"
#include "core/tokenizers/byte_level_bpe.hpp"
#include "core/tokenizers/unicode.hpp"

namespace attnscope {

namespace {

using Kind = NormalizerStep::Kind;

// Unicode normalization by ICU (the text is valid UTF-8: encode() checked it first).
std::string unicodeNormalized(const std::string& text, Kind kind) {
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* normalizer = kind == Kind::Nfc    ? icu::Normalizer2::getNFCInstance(status)
                                         : kind == Kind::Nfd  ? icu::Normalizer2::getNFDInstance(status)
                                         : kind == Kind::Nfkc ? icu::Normalizer2::getNFKCInstance(status)
                                                              : icu::Normalizer2::getNFKDInstance(status);
    if (U_FAILURE(status)) return text;
    const icu::UnicodeString normalized = normalizer->normalize(icu::UnicodeString::fromUTF8(text), status);
    if (U_FAILURE(status)) return text;
    std::string out;
    return normalized.toUTF8String(out);
}

std::string lowercased(const std::string& text) {
    std::u32string lower;
    for (const utf8::CodePoint& p : utf8::decode(text).points) unicode::appendLowercase(p.value, lower);
    std::string out;
    for (char32_t cp : lower) out += utf8::encode(cp);
    return out;
}

// The text with every match replaced by `content`.
Result<std::string> replaced(const std::string& text, const TextPattern& pattern, const std::string& content) {
    auto spans = pattern.findAll(text);
    if (!spans) return spans.error();
    std::string out;
    std::size_t at = 0;
    for (const ByteSpan& span : spans.value()) {
        out.append(text, at, span.begin - at);
        out += content;
        at = span.end;
    }
    out.append(text, at, std::string::npos);
    return out;
}

std::string stripped(const std::string& text, bool left) {
    const auto points = utf8::decode(text).points;
    std::size_t begin = 0, end = points.size();
    if (left)
        while (begin < end && unicode::isWhiteSpace(points[begin].value)) ++begin;
    else
        while (end > begin && unicode::isWhiteSpace(points[end - 1].value)) --end;
    if (begin == end) return {};
    return text.substr(points[begin].offset, points[end - 1].offset + points[end - 1].length - points[begin].offset);
}

// ------------------------------------------------------------------ splitting

struct Cut {
    ByteSpan span;
    bool match;
};

// The piece cut into matches and the gaps between them, in order, none empty.
std::vector<Cut> cuts(std::string_view text, const std::vector<ByteSpan>& matches, bool invert) {
    std::vector<Cut> out;
    std::size_t at = 0;
    for (const ByteSpan& m : matches) {
        if (m.begin > at) out.push_back({{at, m.begin}, invert});
        out.push_back({m, !invert});
        at = m.end;
    }
    if (at < text.size()) out.push_back({{at, text.size()}, invert});
    return out;
}

// Hugging Face's NormalizedString::split with a behavior.
std::vector<ByteSpan> splitBy(const std::vector<Cut>& parts, SplitBehavior behavior) {
    std::vector<ByteSpan> out;
    bool openNext = false;  // MergedWithNext: the last piece was a match waiting for what follows
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const Cut& cut = parts[i];
        switch (behavior) {
        case SplitBehavior::Removed:
            if (!cut.match) out.push_back(cut.span);
            break;
        case SplitBehavior::Isolated:
            out.push_back(cut.span);
            break;
        case SplitBehavior::Contiguous:
            if (cut.match && i > 0 && parts[i - 1].match) out.back().end = cut.span.end;
            else out.push_back(cut.span);
            break;
        case SplitBehavior::MergedWithPrevious:
            if (cut.match && !out.empty() && !parts[i - 1].match) out.back().end = cut.span.end;
            else out.push_back(cut.span);
            break;
        case SplitBehavior::MergedWithNext:
            if (!cut.match && openNext) out.back().end = cut.span.end;
            else out.push_back(cut.span);
            openNext = cut.match;
            break;
        }
    }
    return out;
}

// Matches one code point at a time (Digits, Punctuation, Metaspace's replacement).
template <class Pred>
std::vector<ByteSpan> charMatches(std::string_view text, Pred pred, bool contiguous) {
    std::vector<ByteSpan> out;
    for (const utf8::CodePoint& p : utf8::decode(text).points) {
        if (!pred(p)) continue;
        if (contiguous && !out.empty() && out.back().end == p.offset) out.back().end = p.offset + p.length;
        else out.push_back({p.offset, p.offset + p.length});
    }
    return out;
}

void appendSplit(const TextPiece& piece, const std::vector<ByteSpan>& matches, bool invert, SplitBehavior behavior,
                 std::vector<TextPiece>& out) {
    for (const ByteSpan& span : splitBy(cuts(piece.text, matches, invert), behavior))
        out.push_back({piece.text.substr(span.begin, span.end - span.begin), piece.atStart && span.begin == 0});
}

const TokenizerRegex& gpt2Pattern() {
    static const TokenizerRegex regex =
        TokenizerRegex::compile(R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)", "ByteLevel")
            .value();
    return regex;
}

Result<void> byteLevel(const PreTokenizerStep& step, TextPiece piece, std::vector<TextPiece>& out) {
    if (step.addPrefixSpace && piece.text.rfind(' ', 0) != 0) piece.text.insert(0, " ");
    std::vector<TextPiece> parts;
    if (step.useRegex) {
        auto spans = gpt2Pattern().findAll(piece.text);
        if (!spans) return spans.error();
        appendSplit(piece, spans.value(), false, SplitBehavior::Isolated, parts);
    } else {
        parts.push_back(std::move(piece));
    }
    for (TextPiece& part : parts) out.push_back({bytesToByteLevel(part.text), part.atStart});
    return {};
}

void metaspace(const PreTokenizerStep& step, TextPiece piece, std::vector<TextPiece>& out) {
    std::string text;
    for (char c : piece.text) c == ' ' ? text += step.replacement : text += c;
    const bool prepend = step.prependScheme == PrependScheme::Always || (step.prependScheme == PrependScheme::First && piece.atStart);
    if (prepend && text.rfind(step.replacement, 0) != 0) text.insert(0, step.replacement);
    const TextPiece replaced{std::move(text), piece.atStart};
    if (!step.split) return out.push_back(replaced);
    std::vector<ByteSpan> matches;
    for (std::size_t at = replaced.text.find(step.replacement); at != std::string::npos;
         at = replaced.text.find(step.replacement, at + step.replacement.size()))
        matches.push_back({at, at + step.replacement.size()});
    appendSplit(replaced, matches, false, SplitBehavior::MergedWithNext, out);
}

Result<void> runStep(const PreTokenizerStep& step, TextPiece piece, std::vector<TextPiece>& out) {
    using StepKind = PreTokenizerStep::Kind;
    switch (step.kind) {
    case StepKind::Split: {
        auto matches = step.pattern.findAll(piece.text);
        if (!matches) return matches.error();
        appendSplit(piece, matches.value(), step.invert, step.behavior, out);
        return {};
    }
    case StepKind::ByteLevel:
        return byteLevel(step, std::move(piece), out);
    case StepKind::Metaspace:
        metaspace(step, std::move(piece), out);
        return {};
    case StepKind::Digits:
        appendSplit(piece, charMatches(piece.text, [](const utf8::CodePoint& p) { return unicode::isNumber(p.value); },
                                       !step.individualDigits), false, SplitBehavior::Isolated, out);
        return {};
    case StepKind::Punctuation:
        appendSplit(piece, charMatches(piece.text, [](const utf8::CodePoint& p) { return unicode::isBertPunctuation(p.value); }, false),
                    false, step.behavior, out);
        return {};
    }
    return {};
}

}  // namespace

Result<std::vector<ByteSpan>> TextPattern::findAll(std::string_view text) const {
    if (regex) return regex->findAll(text);
    std::vector<ByteSpan> spans;
    if (literal.empty()) return spans;
    for (std::size_t at = text.find(literal); at != std::string_view::npos; at = text.find(literal, at + literal.size()))
        spans.push_back({at, at + literal.size()});
    return spans;
}

Result<std::string> normalizeText(const std::vector<NormalizerStep>& steps, std::string text) {
    for (const NormalizerStep& step : steps) {
        switch (step.kind) {
        case Kind::Nfc: case Kind::Nfd: case Kind::Nfkc: case Kind::Nfkd:
            text = unicodeNormalized(text, step.kind);
            break;
        case Kind::Lowercase:
            text = lowercased(text);
            break;
        case Kind::Prepend:
            if (!text.empty()) text.insert(0, step.content);
            break;
        case Kind::Replace: {
            auto result = replaced(text, step.pattern, step.content);
            if (!result) return result.error();
            text = std::move(result).value();
            break;
        }
        case Kind::StripLeft: case Kind::StripRight:
            text = stripped(text, step.kind == Kind::StripLeft);
            break;
        }
    }
    return text;
}

Result<std::vector<TextPiece>> preTokenize(const std::vector<PreTokenizerStep>& steps, TextPiece text) {
    std::vector<TextPiece> pieces{std::move(text)};
    for (const PreTokenizerStep& step : steps) {
        std::vector<TextPiece> next;
        for (TextPiece& piece : pieces)
            if (auto e = runStep(step, std::move(piece), next); !e.ok()) return e.error();
        pieces = std::move(next);
    }
    std::erase_if(pieces, [](const TextPiece& p) { return p.text.empty(); });
    return pieces;
}

}  // namespace attnscope
