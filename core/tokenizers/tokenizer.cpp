#include "core/tokenizers/tokenizer.hpp"

#include <algorithm>

#include "core/text/error_messages.hpp"
#include "core/text/utf8.hpp"

namespace attnscope {

void Vocabulary::add(std::string piece, int id) {
    if (id < 0) return;
    if (static_cast<std::size_t>(id) >= pieces_.size()) pieces_.resize(static_cast<std::size_t>(id) + 1);
    pieces_[static_cast<std::size_t>(id)] = piece;
    ids_[std::move(piece)] = id;
}

std::optional<int> Vocabulary::idOf(std::string_view piece) const {
    const auto it = ids_.find(piece);
    if (it == ids_.end()) return std::nullopt;
    return it->second;
}

std::string Vocabulary::pieceOf(int id) const {
    if (id < 0 || id >= size()) return {};
    return pieces_[static_cast<std::size_t>(id)];
}

void Tokenizer::setSpecialTokens(const SpecialTokens& special) {
    special_ = special;
    for (const auto& id : {special.cls, special.sep, special.mask, special.pad, special.unk, special.bos, special.eos})
        if (id) addSpecialPiece(pieceOf(*id));
}

void Tokenizer::addSpecialPiece(const std::string& piece) {
    if (piece.empty() || !idOf(piece)) return;
    if (std::find(specialPieces_.begin(), specialPieces_.end(), piece) != specialPieces_.end()) return;
    specialPieces_.push_back(piece);
    // Longest first, so "<|endoftext|>" wins over any special piece that is its prefix.
    std::stable_sort(specialPieces_.begin(), specialPieces_.end(),
                     [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
}

Token Tokenizer::makeToken(int id, int word) const {
    Token token;
    token.id = id;
    token.text = pieceOf(id);
    token.word = word;
    return token;
}

Result<std::vector<Token>> Tokenizer::encode(std::string_view text) const {
    const utf8::Decoded decoded = utf8::decode(text);
    if (decoded.invalidAt) {
        return Error{ErrorId::WhereText, errorText(ErrorId::InvalidUtf8At, *decoded.invalidAt)};
    }
    std::vector<Token> tokens;
    int nextWord = 0;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        // The earliest special piece from pos (longest at equal positions).
        std::size_t found = std::string_view::npos;
        const std::string* piece = nullptr;
        for (const std::string& candidate : specialPieces_) {
            const std::size_t at = text.find(candidate, pos);
            if (at < found) found = at, piece = &candidate;
        }
        const std::size_t end = piece ? found : text.size();
        if (auto encoded = encodeText(text.substr(pos, end - pos), nextWord, tokens); !encoded.ok()) return encoded.error();
        if (!piece) break;
        Token special = makeToken(*idOf(*piece), nextWord++);
        special.special = true;
        tokens.push_back(std::move(special));
        pos = found + piece->size();
    }
    return tokens;
}

void assignRoleByName(SpecialTokens& special, std::string_view piece, int id) {
    if (piece == "[CLS]") special.cls = id;
    else if (piece == "[SEP]") special.sep = id;
    else if (piece == "[MASK]" || piece == "<mask>") special.mask = id;
    else if (piece == "[PAD]" || piece == "<pad>") special.pad = id;
    else if (piece == "[UNK]" || piece == "<unk>") special.unk = id;
    else if (piece == "<s>") special.bos = special.cls = id;
    else if (piece == "</s>") special.eos = special.sep = id;
    else if (piece == "<|endoftext|>") special.bos = special.eos = special.unk = id;
}

}  // namespace attnscope
