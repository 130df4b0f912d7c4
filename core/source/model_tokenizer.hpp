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

    // Tokens with ids; text is the reader's form ("␣world" for byte-level BPE). Invalid UTF-8
    // is an Error naming the byte.
    Result<std::vector<Token>> encode(std::string_view text) const;
    std::string label(int id) const;  // a vocabulary id as a reader sees it
    ModelSpecialPieces specials() const;
    int vocabSize() const;
    std::string kind() const;  // "WordPiece" or "BPE"

private:
    std::shared_ptr<const Tokenizer> tokenizer_;  // shared: the worker and the window both use it
};

}  // namespace attnscope
