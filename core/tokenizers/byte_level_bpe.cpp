#include "core/tokenizers/byte_level_bpe.hpp"

#include "core/io/text_file.hpp"

#include <fstream>
#include <queue>
#include <sstream>

#include "core/io/json_reader.hpp"
#include "core/text/error_messages.hpp"
#include "core/tokenizers/vocab_json.hpp"
#include "core/tokenizers/unicode.hpp"
#include "core/text/utf8.hpp"

namespace attnscope {

namespace {

// GPT-2's bytes_to_unicode: printable Latin-1 bytes stand for themselves, the other 68 bytes
// take the code points 256, 257, … in byte order, so every byte is a visible character.
struct ByteTable {
    char32_t toChar[256];
    int toByte[324];
    ByteTable() {
        std::fill(std::begin(toByte), std::end(toByte), -1);
        char32_t next = 256;
        for (int b = 0; b < 256; ++b) {
            const bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174);
            toChar[b] = printable ? static_cast<char32_t>(b) : next++;
            toByte[toChar[b]] = b;
        }
    }
};

const ByteTable& byteTable() {
    static const ByteTable table;
    return table;
}

std::uint64_t pairKey(int left, int right) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) | static_cast<std::uint32_t>(right);
}

using Points = std::vector<utf8::CodePoint>;

bool isOtherSymbol(char32_t cp) {
    return !unicode::isWhiteSpace(cp) && !unicode::isLetter(cp) && !unicode::isNumber(cp);
}

template <class Pred>
std::size_t runEnd(const Points& p, std::size_t i, Pred pred) {
    while (i < p.size() && pred(p[i].value)) ++i;
    return i;
}

// 's|'t|'re|'ve|'m|'ll|'d (ASCII apostrophe, case-sensitive): the length matched, or 0.
std::size_t contractionLength(const Points& p, std::size_t i) {
    if (p[i].value != U'\'' || i + 1 >= p.size()) return 0;
    const char32_t a = p[i + 1].value;
    if (a == U's' || a == U't' || a == U'm' || a == U'd') return 2;
    if (i + 2 >= p.size()) return 0;
    const char32_t b = p[i + 2].value;
    const bool two = (a == U'r' && b == U'e') || (a == U'v' && b == U'e') || (a == U'l' && b == U'l');
    return two ? 3 : 0;
}

// End (code-point index) of the chunk starting at i: the alternatives in the pattern's order.
std::size_t chunkEnd(const Points& p, std::size_t i) {
    if (const std::size_t n = contractionLength(p, i)) return i + n;
    const bool spaceFirst = p[i].value == U' ' && i + 1 < p.size();
    for (bool (*cls)(char32_t) : {&unicode::isLetter, &unicode::isNumber, &isOtherSymbol}) {
        if (spaceFirst && cls(p[i + 1].value)) return runEnd(p, i + 1, cls);  // " ?X+" with the space
        if (cls(p[i].value)) return runEnd(p, i, cls);
    }
    const std::size_t end = runEnd(p, i, unicode::isWhiteSpace);
    // \s+(?!\S): leave the last space to start the next word; else \s+ takes the whole run.
    if (end < p.size() && end - i >= 2) return end - 1;
    return std::max(end, i + 1);
}

void appendHexByte(unsigned char byte, std::string& out) {
    static const char* hex = "0123456789ABCDEF";
    out += "<0x", out += hex[byte >> 4], out += hex[byte & 15], out += ">";
}

void appendVisibleChar(std::string_view ch, std::string& out) {
    if (ch == " ") out += "␣";
    else if (ch == "\n") out += "↵";
    else if (ch == "\t") out += "⇥";
    else if (ch.size() == 1 && (static_cast<unsigned char>(ch[0]) < 0x20 || ch[0] == 0x7F))
        appendHexByte(static_cast<unsigned char>(ch[0]), out);
    else out += ch;
}

Result<std::string> readWholeFile(const std::filesystem::path& path, ErrorId expected) {
    auto text = readTextFile(path, kMaxTokenizerFileBytes);
    if (!text)
        return Error{path.string(), errorText(ErrorId::WithNote, text.error().messageForm(), errorText(ErrorId::ExpectedWhat, expected))};
    return text;
}

}  // namespace

std::vector<std::string_view> gpt2PreTokenize(std::string_view text) {
    const Points points = utf8::decode(text).points;
    std::vector<std::string_view> chunks;
    for (std::size_t i = 0; i < points.size();) {
        const std::size_t end = chunkEnd(points, i);
        const std::size_t from = points[i].offset;
        const std::size_t to = points[end - 1].offset + points[end - 1].length;
        chunks.push_back(text.substr(from, to - from));
        i = end;
    }
    return chunks;
}

std::string byteLevelToBytes(std::string_view piece) {
    std::string out;
    for (const utf8::CodePoint& point : utf8::decode(piece).points) {
        const bool mapped = point.value < 324 && byteTable().toByte[point.value] >= 0;
        if (mapped) out += static_cast<char>(byteTable().toByte[point.value]);
        else out += piece.substr(point.offset, point.length);
    }
    return out;
}

std::string byteLevelDisplay(std::string_view piece) {
    const std::string bytes = byteLevelToBytes(piece);
    std::string out;
    for (std::size_t pos = 0; pos < bytes.size();) {
        const std::string_view rest = std::string_view(bytes).substr(pos);
        const utf8::Decoded decoded = utf8::decode(rest);
        const std::size_t valid = decoded.invalidAt.value_or(rest.size());
        for (const utf8::CodePoint& point : decoded.points)
            appendVisibleChar(rest.substr(point.offset, point.length), out);
        pos += valid;
        if (pos < bytes.size()) appendHexByte(static_cast<unsigned char>(bytes[pos]), out);
        ++pos;
    }
    return out;
}

ByteLevelBpeTokenizer::ByteLevelBpeTokenizer(Vocabulary vocab, ByteLevelOptions options)
    : Tokenizer(std::move(vocab)), options_(options) {
    for (int b = 0; b < 256; ++b) byteIds_[b] = idOf(utf8::encode(byteTable().toChar[b])).value_or(-1);
    SpecialTokens special;
    special.bos = special.eos = special.unk = idOf("<|endoftext|>");
    setSpecialTokens(special);
}

Result<std::unique_ptr<ByteLevelBpeTokenizer>> ByteLevelBpeTokenizer::create(Vocabulary vocab,
                                                                             const std::vector<BpeMerge>& merges,
                                                                             ByteLevelOptions options,
                                                                             const std::string& where) {
    std::unique_ptr<ByteLevelBpeTokenizer> tokenizer(new ByteLevelBpeTokenizer(std::move(vocab), options));
    for (std::size_t rank = 0; rank < merges.size(); ++rank) {
        const BpeMerge& merge = merges[rank];
        const auto left = tokenizer->idOf(merge.left), right = tokenizer->idOf(merge.right);
        const auto merged = tokenizer->idOf(merge.left + merge.right);
        if (!left || !right || !merged) {
            const std::string missing = !left ? merge.left : !right ? merge.right : merge.left + merge.right;
            return Error{errorText(ErrorId::WhereMerge, where, rank + 1, merge.left, merge.right),
                         errorText(ErrorId::MergePiecesMissing, missing)};
        }
        tokenizer->merges_.try_emplace(pairKey(*left, *right), MergeResult{static_cast<int>(rank), *merged});
    }
    return tokenizer;
}

// Lowest rank first, leftmost first among equal ranks: the order GPT-2's bpe() merges in.
std::vector<int> ByteLevelBpeTokenizer::applyMerges(std::vector<int> ids) const {
    struct Candidate {
        int rank, left, right, leftId, rightId;
        bool operator>(const Candidate& o) const { return rank != o.rank ? rank > o.rank : left > o.left; }
    };
    const int n = static_cast<int>(ids.size());
    std::vector<int> next(n), prev(n);
    for (int i = 0; i < n; ++i) next[i] = i + 1 < n ? i + 1 : -1, prev[i] = i - 1;
    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> queue;
    const auto consider = [&](int left) {
        if (left < 0 || next[left] < 0) return;
        const auto it = merges_.find(pairKey(ids[left], ids[next[left]]));
        if (it != merges_.end()) queue.push({it->second.rank, left, next[left], ids[left], ids[next[left]]});
    };
    for (int i = 0; i + 1 < n; ++i) consider(i);
    while (!queue.empty()) {
        const Candidate c = queue.top();
        queue.pop();
        const bool stale = ids[c.left] != c.leftId || next[c.left] != c.right || ids[c.right] != c.rightId;
        if (stale) continue;
        ids[c.left] = merges_.at(pairKey(c.leftId, c.rightId)).merged;
        ids[c.right] = -1;  // removed
        next[c.left] = next[c.right];
        if (next[c.left] >= 0) prev[next[c.left]] = c.left;
        consider(prev[c.left]);
        consider(c.left);
    }
    std::vector<int> out;
    for (int i = 0; i >= 0; i = next[i]) out.push_back(ids[i]);
    return out;
}

Result<std::vector<int>> ByteLevelBpeTokenizer::chunkIds(std::string_view chunk) const {
    {
        std::lock_guard lock(cacheMutex_);
        if (const auto it = cache_.find(std::string(chunk)); it != cache_.end()) return it->second;
    }
    std::vector<int> ids;
    for (unsigned char byte : chunk) {
        if (byteIds_[byte] < 0)
            return Error{ErrorId::WhereText, errorText(ErrorId::ByteHasNoPiece, byte)};
        ids.push_back(byteIds_[byte]);
    }
    ids = applyMerges(std::move(ids));
    std::lock_guard lock(cacheMutex_);
    if (cache_.size() > 100000) cache_.clear();  // bounded: a long session must not grow forever
    cache_.emplace(std::string(chunk), ids);
    return ids;
}

Result<void> ByteLevelBpeTokenizer::encodeText(std::string_view text, int& nextWord, std::vector<Token>& out) const {
    std::string prefixed;
    if (options_.addPrefixSpace && !text.empty() && text.front() != ' ') {
        prefixed = " " + std::string(text);
        text = prefixed;
    }
    for (std::string_view chunk : gpt2PreTokenize(text)) {
        auto ids = chunkIds(chunk);
        if (!ids) return ids.error();
        for (int id : ids.value()) out.push_back(makeToken(id, nextWord));
        ++nextWord;
    }
    return {};
}

std::string ByteLevelBpeTokenizer::displayText(const Token& token) const { return byteLevelDisplay(token.text); }

Result<Vocabulary> parseVocabJsonText(const std::string& text, const std::string& where) {
    auto parsed = json::parse(text, where);
    if (!parsed) return parsed.error();
    const json::Field<json::Json> root(parsed.value(), where);
    auto vocab = readVocabObject(root, ErrorId::AJsonObjectPieceId);
    if (vocab && vocab.value().count() == 0)
        return root.error(errorText(ErrorId::ExpectedFound, ErrorId::AtLeastOnePiece, ErrorId::AnEmptyVocabulary));
    return vocab;
}

Result<Vocabulary> readVocabObject(const json::Field<json::Json>& object, ErrorId what) {
    auto entries = object.members(what);
    if (!entries) return entries.error();
    Vocabulary vocab;
    for (const auto& [piece, idField] : entries.value()) {
        auto id = idField.integer(0, kMaxTokenId);
        if (!id) return id.error();
        vocab.add(piece, static_cast<int>(id.value()));
    }
    return vocab;
}

Result<Vocabulary> readBpeVocabJson(const std::filesystem::path& vocabJson) {
    auto text = readWholeFile(vocabJson, ErrorId::ABpeVocabJson);
    if (!text) return text.error();
    return parseVocabJsonText(text.value(), vocabJson.string());
}

Result<std::vector<BpeMerge>> readBpeMerges(const std::filesystem::path& mergesTxt) {
    auto text = readWholeFile(mergesTxt, ErrorId::ABpeMergesTxt);
    if (!text) return text.error();
    std::istringstream in(text.value());
    std::vector<BpeMerge> merges;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if ((number == 1 && line.rfind("#version", 0) == 0) || line.empty()) continue;
        const std::size_t space = line.find(' ');
        const bool twoParts = space != std::string::npos && space > 0 && space + 1 < line.size() &&
                              line.find(' ', space + 1) == std::string::npos;
        if (!twoParts)
            return Error{errorText(ErrorId::WhereLine, mergesTxt.string(), number),
                         errorText(ErrorId::ExpectedFound, ErrorId::TwoPiecesOneSpace, errorText(ErrorId::Quoted, line))};
        merges.push_back({line.substr(0, space), line.substr(space + 1)});
    }
    return merges;
}

}  // namespace attnscope
