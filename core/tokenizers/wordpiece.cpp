#include "core/tokenizers/wordpiece.hpp"

#include <fstream>

#include "core/text/error_messages.hpp"
#include "core/tokenizers/unicode.hpp"
#include "core/io/text_file.hpp"
#include "core/text/utf8.hpp"

namespace attnscope {

namespace {

// Python's str.split() separators that survive cleaning (U+2028/9 are neither Zs nor C*).
bool isSplitSpace(char32_t cp) { return unicode::isWhiteSpace(cp) || (cp >= 0x1C && cp <= 0x1F); }

// _clean_text and _tokenize_chinese_chars: one pass over the code points.
std::u32string normalizeText(std::string_view text, const WordPieceOptions& options) {
    std::u32string out;
    for (const utf8::CodePoint& point : utf8::decode(text).points) {
        const char32_t cp = point.value;
        if (options.cleanText && (cp == 0 || cp == 0xFFFD || unicode::isBertControl(cp))) continue;
        if (options.cleanText && unicode::isBertWhitespace(cp)) {
            out += U' ';
        } else if (options.handleChineseChars && unicode::isBertChineseChar(cp)) {
            out += U' ', out += cp, out += U' ';
        } else {
            out += cp;
        }
    }
    return out;
}

std::u32string lowercased(const std::u32string& word) {
    std::u32string out;
    for (char32_t cp : word) unicode::appendLowercase(cp, out);
    return out;
}

// NFD, then drop the combining marks (Mn): "café" → "cafe".
std::u32string accentsStripped(const std::u32string& word) {
    std::u32string decomposed, out;
    for (char32_t cp : word) unicode::appendDecomposition(cp, decomposed);
    for (char32_t cp : decomposed)
        if (!unicode::isNonspacingMark(cp)) out += cp;
    return out;
}

// Every punctuation character becomes a word of its own: "wait..." → "wait" "." "." ".".
void splitOnPunctuation(const std::u32string& word, std::vector<std::u32string>& out) {
    std::u32string current;
    for (char32_t cp : word) {
        if (!unicode::isBertPunctuation(cp)) {
            current += cp;
            continue;
        }
        if (!current.empty()) out.push_back(std::move(current));
        current.clear();
        out.push_back(std::u32string(1, cp));
    }
    if (!current.empty()) out.push_back(std::move(current));
}

}  // namespace

WordPieceTokenizer::WordPieceTokenizer(Vocabulary vocab, WordPieceOptions options)
    : Tokenizer(std::move(vocab)), options_(std::move(options)) {
    unkId_ = idOf(options_.unkToken);
    SpecialTokens special;
    special.cls = idOf("[CLS]");
    special.sep = idOf("[SEP]");
    special.mask = idOf("[MASK]");
    special.pad = idOf("[PAD]");
    special.unk = unkId_;
    setSpecialTokens(special);
}

std::vector<std::u32string> WordPieceTokenizer::basicTokenize(std::string_view text) const {
    const std::u32string normalized = normalizeText(text, options_);
    const bool strip = options_.stripAccents.value_or(options_.lowercase);
    std::vector<std::u32string> words;
    std::u32string current;
    auto flush = [&] {
        if (current.empty()) return;
        if (options_.lowercase) current = lowercased(current);
        if (strip) current = accentsStripped(current);
        splitOnPunctuation(current, words);
        current.clear();
    };
    for (char32_t cp : normalized) {
        if (isSplitSpace(cp)) flush();
        else current += cp;
    }
    flush();
    return words;
}

// Greedy longest match first; a word with any unmatched rest becomes a single unk token.
// Candidates longer than the vocabulary's longest piece cannot match and are never built, so a
// word costs O(length × longest²) instead of O(length³) (an 8,000-letter word took 216 s).
void WordPieceTokenizer::appendWordPieces(const std::u32string& word, int wordIndex,
                                          std::vector<Token>& out) const {
    const auto unknown = [&] {
        if (unkId_) out.push_back(makeToken(*unkId_, wordIndex));
    };
    if (static_cast<int>(word.size()) > options_.maxInputCharsPerWord) return unknown();
    std::vector<std::string> chars;
    for (char32_t cp : word) chars.push_back(utf8::encode(cp));
    const std::size_t longest = vocab().longestPieceBytes();
    std::vector<int> pieces;
    std::string candidate;
    for (std::size_t start = 0; start < chars.size();) {
        std::optional<int> found;
        std::size_t end = start, bytes = start > 0 ? options_.continuingPrefix.size() : 0;
        while (end < chars.size() && bytes + chars[end].size() <= longest) bytes += chars[end++].size();
        for (; end > start && !found; --end) {
            candidate = start > 0 ? options_.continuingPrefix : std::string();
            for (std::size_t i = start; i < end; ++i) candidate += chars[i];
            found = idOf(candidate);
        }
        if (!found) return unknown();
        pieces.push_back(*found);
        start = end + 1;  // the loop decremented end once past the match
    }
    for (int id : pieces) out.push_back(makeToken(id, wordIndex));
}

Result<void> WordPieceTokenizer::encodeText(std::string_view text, bool, int& nextWord, std::vector<Token>& out,
                                            std::size_t maxTokens) const {
    for (const std::u32string& word : basicTokenize(text)) {
        if (out.size() >= maxTokens) break;
        appendWordPieces(word, nextWord++, out);
    }
    return {};
}

Result<Vocabulary> readWordPieceVocab(const std::filesystem::path& vocabTxt) {
    if (auto error = checkReadableFile(vocabTxt, kMaxTokenizerFileBytes); !error.ok())
        return Error{error.error().whereForm(), errorText(ErrorId::WithNote, error.error().messageForm(),
                                                          errorText(ErrorId::ExpectedWhat, ErrorId::AWordPieceVocabTxt))};
    std::ifstream in(vocabTxt, std::ios::binary);
    if (!in)
        return Error{vocabTxt.string(), errorText(ErrorId::WithNote, ErrorId::CannotOpenFile,
                                                  errorText(ErrorId::ExpectedWhat, ErrorId::AWordPieceVocabTxt))};
    Vocabulary vocab;
    std::string line;
    for (int id = 0; std::getline(in, line); ++id) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (utf8::decode(line).invalidAt)
            return Error{errorText(ErrorId::WhereLine, vocabTxt.string(), id + 1),
                         errorText(ErrorId::ExpectedFound, ErrorId::Utf8Text, ErrorId::InvalidBytes)};
        vocab.add(line, id);
    }
    if (vocab.count() == 0)
        return Error{vocabTxt.string(), errorText(ErrorId::ExpectedFound, ErrorId::OnePiecePerLine, ErrorId::AnEmptyFile)};
    return vocab;
}

}  // namespace attnscope
