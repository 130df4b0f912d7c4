#include "core/tokenizers/hf_bpe.hpp"

#include <charconv>
#include <cstdio>

#include "core/text/error_messages.hpp"
#include "core/text/utf8.hpp"
#include "core/tokenizers/byte_level_bpe.hpp"

namespace attnscope {

namespace {

std::string bytePiece(unsigned char byte) {
    char name[8];
    std::snprintf(name, sizeof name, "<0x%02X>", byte);
    return name;
}

bool hasByteLevelStep(const BpePipeline& pipeline) {
    for (const PreTokenizerStep& step : pipeline.preTokenizer)
        if (step.kind == PreTokenizerStep::Kind::ByteLevel) return true;
    return false;
}

}  // namespace

HfBpeTokenizer::HfBpeTokenizer(Vocabulary vocab, BpePipeline pipeline)
    : Tokenizer(std::move(vocab)), pipeline_(std::move(pipeline)), byteLevel_(hasByteLevelStep(pipeline_)) {
    for (int b = 0; b < 256; ++b) byteIds_[b] = idOf(bytePiece(static_cast<unsigned char>(b))).value_or(-1);
    if (pipeline_.model.unkToken) unkId_ = idOf(*pipeline_.model.unkToken);
}

Result<std::unique_ptr<HfBpeTokenizer>> HfBpeTokenizer::create(Vocabulary vocab, const std::vector<BpeMerge>& merges,
                                                               BpePipeline pipeline, const std::string& where) {
    std::unique_ptr<HfBpeTokenizer> tokenizer(new HfBpeTokenizer(std::move(vocab), std::move(pipeline)));
    auto table = BpeMerges::create(tokenizer->vocab(), merges, where);
    if (!table) return table.error();
    tokenizer->merges_ = std::move(table).value();
    if (tokenizer->pipeline_.model.byteFallback) {
        for (int b = 0; b < 256; ++b)
            if (tokenizer->byteIds_[b] < 0)
                return Error{where, errorText(ErrorId::ByteFallbackWithoutBytes, bytePiece(static_cast<unsigned char>(b)))};
    }
    return tokenizer;
}

// Hugging Face's BPE::merge_word: each character its own symbol; one not in the vocabulary becomes
// its byte pieces (byte_fallback) or <unk> (fused when fuse_unk), or is dropped without an unk.
std::vector<int> HfBpeTokenizer::symbolIds(const std::string& piece) const {
    std::vector<int> ids;
    bool pendingUnk = false;  // an <unk> not yet written (fuse_unk joins the next one into it)
    for (const utf8::CodePoint& p : utf8::decode(piece).points) {
        const std::string_view ch = std::string_view(piece).substr(p.offset, p.length);
        if (const auto id = idOf(ch)) {
            if (pendingUnk) ids.push_back(*unkId_), pendingUnk = false;
            ids.push_back(*id);
            continue;
        }
        if (pipeline_.model.byteFallback) {
            for (unsigned char byte : ch) ids.push_back(byteIds_[byte]);
            continue;
        }
        if (!unkId_) continue;
        if (pendingUnk && !pipeline_.model.fuseUnk) ids.push_back(*unkId_);
        pendingUnk = true;
    }
    if (pendingUnk) ids.push_back(*unkId_);
    return ids;
}

std::vector<int> HfBpeTokenizer::pieceIds(const std::string& piece) const {
    if (pipeline_.model.ignoreMerges)
        if (const auto id = idOf(piece)) return {*id};
    {
        std::lock_guard lock(cacheMutex_);
        if (const auto it = cache_.find(piece); it != cache_.end()) return it->second;
    }
    std::vector<int> ids = merges_.apply(symbolIds(piece));
    std::lock_guard lock(cacheMutex_);
    if (cache_.size() > 100000) cache_.clear();  // bounded: a long session must not grow forever
    cache_.emplace(piece, ids);
    return ids;
}

Result<void> HfBpeTokenizer::encodeText(std::string_view text, bool atStart, int& nextWord, std::vector<Token>& out,
                                        std::size_t maxTokens) const {
    auto normalized = normalizeText(pipeline_.normalizer, std::string(text));
    if (!normalized) return normalized.error();
    auto pieces = preTokenize(pipeline_.preTokenizer, TextPiece{std::move(normalized).value(), atStart});
    if (!pieces) return pieces.error();
    for (const TextPiece& piece : pieces.value()) {
        if (out.size() >= maxTokens) break;
        for (int id : pieceIds(piece.text)) out.push_back(makeToken(id, nextWord));
        ++nextWord;
    }
    return {};
}

// Byte-level pieces spell bytes as characters; SentencePiece pieces spell spaces as "▁" and the
// bytes of byte_fallback as "<0xNN>".
std::string HfBpeTokenizer::bytesOf(const Token& token) const {
    if (byteLevel_) return byteLevelToBytes(token.text);
    const std::string& piece = token.text;
    unsigned byte = 0;
    const bool bytePiece = piece.size() == 6 && piece.rfind("<0x", 0) == 0 && piece[5] == '>' &&
                           std::from_chars(piece.data() + 3, piece.data() + 5, byte, 16).ptr == piece.data() + 5;
    if (bytePiece && pipeline_.model.byteFallback) return std::string(1, static_cast<char>(byte));
    std::string out;
    const std::string space = "\xE2\x96\x81";
    for (std::size_t at = 0; at < piece.size();) {
        if (piece.compare(at, space.size(), space) == 0) out += ' ', at += space.size();
        else out += piece[at++];
    }
    return out;
}

}  // namespace attnscope
