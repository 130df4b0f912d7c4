#include "core/tokenizers/byte_level_bpe.hpp"

#include "core/io/text_file.hpp"

#include <fstream>
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

Result<std::string> readWholeFile(const std::filesystem::path& path, ErrorId expected) {
    auto text = readTextFile(path, kMaxTokenizerFileBytes);
    if (!text)
        return Error{path.string(), errorText(ErrorId::WithNote, text.error().messageForm(), errorText(ErrorId::ExpectedWhat, expected))};
    return text;
}

}  // namespace

std::string bytesToByteLevel(std::string_view bytes) {
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char byte : bytes) out += utf8::encode(byteTable().toChar[byte]);
    return out;
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
