#pragma once
// A pretrained model's tokenizer behind the narrow interface the window and the worker need
// (encode, a reader's label for an id, the [CLS]/[SEP]/[MASK] pieces).
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

class Tokenizer;

// The model-relevant special tokens, with the text a reader sees.
struct ModelSpecialPieces {
    std::optional<int> cls, sep, mask;
    std::string clsText, sepText, maskText;
};

class ModelTokenizer {
public:
    static Result<ModelTokenizer> load(const std::filesystem::path& folder);

    // Tokens with ids; text is the reader's form ("␣world" for byte-level BPE, a Chinese character
    // on the piece that completes it), piece the vocabulary's. Invalid UTF-8 is an Error naming
    // the byte. No special tokens are added: wrap() adds them.
    // At most maxTokens tokens: the work stops there.
    Result<std::vector<Token>> encode(std::string_view text, std::size_t maxTokens = static_cast<std::size_t>(-1)) const;
    // The special tokens the model receives around a sentence, as the tokenizer's files say
    // (post_processor, add_bos_token): BERT [CLS] … [SEP], Llama 2 / Gemma <s>/<bos> …, GPT-2 none.
    std::vector<int> wrap(const std::vector<int>& ids) const;
    std::vector<Token> wrap(const std::vector<Token>& tokens) const;  // tokens from encode()
    std::size_t wrappingSize() const;  // how many tokens wrap() adds
    // Each token's word (0, 1, … in order) for the word-level views (core/tokenizers/word_groups.hpp):
    // BERT's word pieces, byte pieces and Chinese characters joined into words.
    std::vector<int> wordGroups(const std::vector<Token>& tokens) const;
    std::string label(int id) const;  // a vocabulary id as a reader sees it
    ModelSpecialPieces specials() const;
    int vocabSize() const;
    std::string kind() const;  // "WordPiece" or "BPE"

private:
    std::vector<Token> readable(std::vector<Token> tokens) const;

    std::shared_ptr<const Tokenizer> tokenizer_;  // shared: the worker and the window both use it
};

}  // namespace attnscope
