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
#include "core/tokenizers/added_tokens.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

struct SpecialTokens {
    std::optional<int> cls, sep, mask, pad, unk, bos, eos;
};

// The special tokens a model receives around a sentence, as the tokenizer's files say
// (tokenizer.json's post_processor, tokenizer_config.json's add_bos_token / add_eos_token):
// BERT [CLS] … [SEP], Llama 2 and Gemma <s>/<bos> …, GPT-2, Qwen and Llama 3 here nothing.
struct Wrapping {
    std::vector<int> before, after;
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
    std::size_t longestPieceBytes() const { return longest_; }

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, int, Hash, std::equal_to<>> ids_;
    std::vector<std::string> pieces_;
    std::size_t longest_ = 0;
};

class Tokenizer {
public:
    virtual ~Tokenizer() = default;

    // Invalid UTF-8 is an Error naming the byte offset; never throws. At most maxTokens tokens:
    // the work stops once they are found (a model's position table bounds what it can use).
    Result<std::vector<Token>> encode(std::string_view text, std::size_t maxTokens = kNoTokenLimit) const;
    static constexpr std::size_t kNoTokenLimit = static_cast<std::size_t>(-1);

    std::optional<int> idOf(std::string_view piece) const { return vocab_.idOf(piece); }
    std::string pieceOf(int id) const { return vocab_.pieceOf(id); }
    int vocabSize() const { return vocab_.size(); }
    const SpecialTokens& specialTokens() const { return special_; }

    const Wrapping& wrapping() const { return wrapping_; }
    void setWrapping(Wrapping wrapping) { wrapping_ = std::move(wrapping); }
    // ids with wrapping().before and .after around them; tokens likewise (special, word -1).
    std::vector<int> wrap(const std::vector<int>& ids) const;
    std::vector<Token> wrap(const std::vector<Token>& tokens) const;

    // The bytes of text a token stands for ("Ġworld" → " world", "<0xE5>" → one byte, "##ing" as
    // spelled); a special token is its piece.
    virtual std::string bytesOf(const Token& token) const { return token.text; }
    // One token as a reader sees it alone ("Ġworld" → "␣world"); readTokens() reads a sequence.
    std::string displayText(const Token& token) const;
    virtual std::string_view kind() const = 0;  // "WordPiece" or "BPE"

    // Loaders call these after reading tokenizer_config.json / special_tokens_map.json.
    void setSpecialTokens(const SpecialTokens& special);
    void addSpecialPiece(const std::string& piece);  // matched literally in encode()'s input
    // An added token of tokenizer.json (special or not): split off the input before the model runs.
    void addAddedToken(const AddedToken& token);

protected:
    explicit Tokenizer(Vocabulary vocab) : vocab_(std::move(vocab)) {}
    // Encodes valid UTF-8 free of added tokens, numbering words from nextWord on; atStart: the
    // text begins the input (nothing, not even an added token, before it). May stop once out
    // holds maxTokens tokens.
    virtual Result<void> encodeText(std::string_view text, bool atStart, int& nextWord, std::vector<Token>& out,
                                    std::size_t maxTokens) const = 0;
    const Vocabulary& vocab() const { return vocab_; }
    Token makeToken(int id, int word) const;

private:
    Vocabulary vocab_;
    SpecialTokens special_;
    AddedTokenMatcher added_;
    Wrapping wrapping_;
};

}  // namespace attnscope
