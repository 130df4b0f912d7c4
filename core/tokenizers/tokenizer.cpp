#include "core/tokenizers/tokenizer.hpp"


#include <algorithm>

#include "core/text/error_messages.hpp"
#include "core/text/utf8.hpp"
#include "core/tokenizers/token_reading.hpp"

namespace attnscope {

void Vocabulary::add(std::string piece, int id) {
    if (id < 0) return;
    if (static_cast<std::size_t>(id) >= pieces_.size()) pieces_.resize(static_cast<std::size_t>(id) + 1);
    pieces_[static_cast<std::size_t>(id)] = piece;
    longest_ = std::max(longest_, piece.size());
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
    const auto id = idOf(piece);
    if (piece.empty() || !id) return;
    AddedToken token;
    token.content = piece;
    token.id = *id;
    token.special = true;
    added_.add(token);
}

void Tokenizer::addAddedToken(const AddedToken& token) { added_.add(token); }

std::vector<int> Tokenizer::wrap(const std::vector<int>& ids) const {
    std::vector<int> out = wrapping_.before;
    out.insert(out.end(), ids.begin(), ids.end());
    out.insert(out.end(), wrapping_.after.begin(), wrapping_.after.end());
    return out;
}

std::vector<Token> Tokenizer::wrap(const std::vector<Token>& tokens) const {
    const auto special = [this](int id) {
        Token token = makeToken(id, -1);
        token.special = true;
        return token;
    };
    std::vector<Token> out;
    out.reserve(tokens.size() + wrapping_.before.size() + wrapping_.after.size());
    for (int id : wrapping_.before) out.push_back(special(id));
    out.insert(out.end(), tokens.begin(), tokens.end());
    for (int id : wrapping_.after) out.push_back(special(id));
    return out;
}

std::string Tokenizer::displayText(const Token& token) const {
    return readingLabel(readTokens({TokenBytes{token.special ? token.text : bytesOf(token), token.special}}).front());
}

Token Tokenizer::makeToken(int id, int word) const {
    Token token;
    token.id = id;
    token.text = pieceOf(id);
    token.word = word;
    return token;
}

Result<std::vector<Token>> Tokenizer::encode(std::string_view text, std::size_t maxTokens) const {
    const utf8::Decoded decoded = utf8::decode(text);
    if (decoded.invalidAt) {
        return Error{ErrorId::WhereText, errorText(ErrorId::InvalidUtf8At, *decoded.invalidAt)};
    }
    std::vector<Token> tokens;
    int nextWord = 0;
    for (std::size_t pos = 0; pos <= text.size() && tokens.size() < maxTokens;) {
        const auto match = added_.find(text, pos);
        const std::size_t end = match ? match->begin : text.size();
        if (end > pos || pos == 0) {
            auto encoded = encodeText(text.substr(pos, end - pos), pos == 0, nextWord, tokens, maxTokens);
            if (!encoded.ok()) return encoded.error();
        }
        if (!match) break;
        Token added = makeToken(match->token->id, nextWord++);
        added.special = match->token->special;
        tokens.push_back(std::move(added));
        pos = match->end;
    }
    if (tokens.size() > maxTokens) tokens.resize(maxTokens);
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
