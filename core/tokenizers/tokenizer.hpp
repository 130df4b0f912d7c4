#pragma once
// The interface of the real (pretrained-model) tokenizers: WordPiece (BERT) and byte-level BPE
// (GPT-2), loaded from vocab files or a Hugging Face tokenizer.json (see load.hpp).
//
// encode() gives one Token per vocabulary piece: id, text = the piece as the vocabulary spells it
// ("##ing", "Ġworld"), word = index of the pre-tokenized word it came from (numbered from 0 in
// order, like Hugging Face's word_ids()). It adds no [CLS]/[SEP]/<|endoftext|>; a special token
// written literally in the text ("[MASK]") is recognised as that token (special = true).
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/base/result.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

struct SpecialTokens {
    std::optional<int> cls, sep, mask, pad, unk, bos, eos;
};

// Guesses a role from the conventional names: [CLS], <|endoftext|>, <s>, </s>, <pad>, …
void assignRoleByName(SpecialTokens& special, std::string_view piece, int id);

// Vocabulary stores one string per id up to the largest id, so a tiny file with one huge id would
// allocate gigabytes (found by fuzz/tokenizer_fuzz). The largest published vocabularies have
// ~256K entries; 4M leaves room and bounds that table to ~130 MB.
constexpr long long kMaxTokenId = (1 << 22) - 1;

// Piece ↔ id. Ids need not be dense; size() is the largest id + 1 (the embedding rows needed).
class Vocabulary {
public:
    void add(std::string piece, int id);
    std::optional<int> idOf(std::string_view piece) const;
    std::string pieceOf(int id) const;  // "" for an id with no piece
    int size() const { return static_cast<int>(pieces_.size()); }
    int count() const { return static_cast<int>(ids_.size()); }

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, int, Hash, std::equal_to<>> ids_;
    std::vector<std::string> pieces_;
};

class Tokenizer {
public:
    virtual ~Tokenizer() = default;

    // Invalid UTF-8 is an Error naming the byte offset; never throws.
    Result<std::vector<Token>> encode(std::string_view text) const;

    std::optional<int> idOf(std::string_view piece) const { return vocab_.idOf(piece); }
    std::string pieceOf(int id) const { return vocab_.pieceOf(id); }
    int vocabSize() const { return vocab_.size(); }
    const SpecialTokens& specialTokens() const { return special_; }

    // The token as a reader should see it; byte-level BPE turns "Ġworld" into "␣world".
    virtual std::string displayText(const Token& token) const { return token.text; }
    virtual std::string_view kind() const = 0;  // "WordPiece" or "BPE"

    // Loaders call these after reading tokenizer_config.json / special_tokens_map.json.
    void setSpecialTokens(const SpecialTokens& special);
    void addSpecialPiece(const std::string& piece);  // matched literally in encode()'s input

protected:
    explicit Tokenizer(Vocabulary vocab) : vocab_(std::move(vocab)) {}
    // Encodes valid UTF-8 free of special tokens, numbering words from nextWord on.
    virtual Result<void> encodeText(std::string_view text, int& nextWord, std::vector<Token>& out) const = 0;
    const Vocabulary& vocab() const { return vocab_; }
    Token makeToken(int id, int word) const;

private:
    Vocabulary vocab_;
    SpecialTokens special_;
    std::vector<std::string> specialPieces_;
};

}  // namespace attnscope
