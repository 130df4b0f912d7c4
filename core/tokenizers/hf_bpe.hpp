#pragma once
// The BPE tokenizers of tokenizer.json files: Llama 3, Qwen 2/2.5/3, SmolLM2 and GPT-2 (byte-level:
// a Split by regular expression or ByteLevel's own pattern, bytes spelled as characters) and
// Llama 2, TinyLlama, Mistral and Gemma (SentencePiece-style: "▁" for spaces from Prepend/Replace
// normalizers or Metaspace, characters not in the vocabulary as <0xNN> byte pieces or <unk>).
// The steps run as Hugging Face's tokenizers library runs them: added tokens are split off
// first (Tokenizer::encode), then each part is normalized, pre-tokenized, and each piece encoded
// by the model.
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/tokenizers/bpe_merges.hpp"
#include "core/tokenizers/text_pipeline.hpp"
#include "core/tokenizers/tokenizer.hpp"

namespace attnscope {

struct BpeModelOptions {
    std::optional<std::string> unkToken;
    bool fuseUnk = false;       // consecutive unknown characters become one <unk>
    bool byteFallback = false;  // an unknown character becomes its UTF-8 bytes' <0xNN> pieces
    bool ignoreMerges = false;  // a piece already in the vocabulary is taken whole (Llama 3)
};

struct BpePipeline {
    std::vector<NormalizerStep> normalizer;
    std::vector<PreTokenizerStep> preTokenizer;
    BpeModelOptions model;
};

class HfBpeTokenizer : public Tokenizer {
public:
    // `where` names the file's merges in errors (a merge naming a piece not in the vocabulary;
    // byte_fallback without the 256 byte pieces).
    static Result<std::unique_ptr<HfBpeTokenizer>> create(Vocabulary vocab, const std::vector<BpeMerge>& merges,
                                                          BpePipeline pipeline, const std::string& where);
    std::string bytesOf(const Token& token) const override;
    std::string_view kind() const override { return "BPE"; }
    bool byteLevel() const { return byteLevel_; }

protected:
    Result<void> encodeText(std::string_view text, bool atStart, int& nextWord, std::vector<Token>& out,
                            std::size_t maxTokens) const override;

private:
    HfBpeTokenizer(Vocabulary vocab, BpePipeline pipeline);
    std::vector<int> pieceIds(const std::string& piece) const;
    std::vector<int> symbolIds(const std::string& piece) const;

    BpePipeline pipeline_;
    BpeMerges merges_;
    bool byteLevel_ = false;
    std::optional<int> unkId_;
    int byteIds_[256];  // <0x00> … <0xFF>, -1 where absent
    mutable std::mutex cacheMutex_;
    mutable std::unordered_map<std::string, std::vector<int>> cache_;  // piece → ids
};

}  // namespace attnscope
