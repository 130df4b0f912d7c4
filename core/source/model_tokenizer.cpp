#include "core/source/model_tokenizer.hpp"

#include "core/text/error_messages.hpp"
#include "core/tokenizers/load.hpp"
#include "core/tokenizers/tokenizer.hpp"

namespace attnscope {

Result<ModelTokenizer> ModelTokenizer::load(const std::filesystem::path& folder) {
    auto loaded = loadTokenizerFromFolder(folder);
    if (!loaded) return loaded.error();
    ModelTokenizer result;
    result.tokenizer_ = std::shared_ptr<const Tokenizer>(std::move(loaded).value());
    // WordPiece writes a word it cannot spell as [UNK]; without one the word would vanish from
    // the sentence and every position after it would shift, with nothing said.
    if (result.kind() == "WordPiece" && !result.tokenizer_->specialTokens().unk)
        return Error{folder.string(), ErrorId::WordPieceWithoutUnk};
    return result;
}

Result<std::vector<Token>> ModelTokenizer::encode(std::string_view text) const {
    auto tokens = tokenizer_->encode(text);
    if (!tokens) return tokens.error();
    std::vector<Token> shown = std::move(tokens).value();
    for (Token& token : shown) token.text = tokenizer_->displayText(token);
    return shown;
}

std::string ModelTokenizer::label(int id) const {
    Token token;
    token.id = id;
    token.text = tokenizer_->pieceOf(id);
    if (token.text.empty()) return "#" + std::to_string(id);
    return tokenizer_->displayText(token);
}

ModelSpecialPieces ModelTokenizer::specials() const {
    const SpecialTokens& s = tokenizer_->specialTokens();
    ModelSpecialPieces out;
    out.cls = s.cls;
    out.sep = s.sep;
    out.mask = s.mask;
    if (s.cls) out.clsText = tokenizer_->pieceOf(*s.cls);
    if (s.sep) out.sepText = tokenizer_->pieceOf(*s.sep);
    if (s.mask) out.maskText = tokenizer_->pieceOf(*s.mask);
    return out;
}

int ModelTokenizer::vocabSize() const { return tokenizer_->vocabSize(); }
std::string ModelTokenizer::kind() const { return std::string(tokenizer_->kind()); }

}  // namespace attnscope
