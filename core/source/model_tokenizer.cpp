#include "core/source/model_tokenizer.hpp"

#include "core/text/error_messages.hpp"
#include "core/tokenizers/load.hpp"
#include "core/tokenizers/token_reading.hpp"
#include "core/tokenizers/tokenizer.hpp"
#include "core/tokenizers/word_groups.hpp"

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

// The pieces read in sequence (token_reading.hpp): a character split over byte pieces is shown
// once, on the token that completes it. piece keeps the vocabulary's spelling.
std::vector<Token> ModelTokenizer::readable(std::vector<Token> tokens) const {
    std::vector<TokenBytes> bytes;
    bytes.reserve(tokens.size());
    for (const Token& t : tokens) bytes.push_back({t.special ? t.text : tokenizer_->bytesOf(t), t.special});
    const std::vector<TokenReading> readings = readTokens(bytes);
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        tokens[i].piece = std::move(tokens[i].text);
        tokens[i].text = readingLabel(readings[i]);
        tokens[i].completedAhead = readings[i].completedAhead;
        tokens[i].invalidText = readings[i].invalid;
    }
    return tokens;
}

Result<std::vector<Token>> ModelTokenizer::encode(std::string_view text, std::size_t maxTokens) const {
    auto tokens = tokenizer_->encode(text, maxTokens);
    if (!tokens) return tokens.error();
    return readable(std::move(tokens).value());
}

std::vector<Token> ModelTokenizer::wrap(const std::vector<Token>& tokens) const {
    std::vector<Token> raw = tokens;
    for (Token& t : raw) t.text = t.piece;
    return readable(tokenizer_->wrap(raw));
}

std::vector<int> ModelTokenizer::wrap(const std::vector<int>& ids) const { return tokenizer_->wrap(ids); }

std::size_t ModelTokenizer::wrappingSize() const {
    return tokenizer_->wrapping().before.size() + tokenizer_->wrapping().after.size();
}

std::vector<int> ModelTokenizer::wordGroups(const std::vector<Token>& tokens) const {
    const bool wordPiece = kind() == "WordPiece";
    std::vector<GroupingToken> grouping;
    grouping.reserve(tokens.size());
    for (const Token& t : tokens) {
        Token raw = t;
        raw.text = t.piece.empty() ? t.text : t.piece;
        std::string bytes = t.special ? std::string() : tokenizer_->bytesOf(raw);
        if (wordPiece && bytes.rfind("##", 0) == 0) bytes.erase(0, 2);  // BERT's continuation prefix
        grouping.push_back({std::move(bytes), t.special, t.word});
    }
    return attnscope::wordGroups(grouping, wordPiece);
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
