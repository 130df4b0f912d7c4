#pragma once
// GPT-2's byte-level BPE: the text is cut by GPT-2's pre-tokenization pattern
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// (matched by hand), each chunk's bytes are spelled with bytes_to_unicode's printable characters
// (space → "Ġ", newline → "Ċ"), and merges are applied lowest rank first.
//
// vocab.json: {"piece": id, ...}. merges.txt: an optional "#version" first line, then one merge
// per line, "left right", rank = order in the file.
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/tokenizers/tokenizer.hpp"

namespace attnscope {

struct BpeMerge {
    std::string left, right;
};

struct ByteLevelOptions {
    bool addPrefixSpace = false;  // a space before the first word, as if it were mid-sentence
};

class ByteLevelBpeTokenizer : public Tokenizer {
public:
    // Every merge's parts and result must be in the vocabulary; `where` names the source.
    static Result<std::unique_ptr<ByteLevelBpeTokenizer>> create(Vocabulary vocab, const std::vector<BpeMerge>& merges,
                                                                 ByteLevelOptions options, const std::string& where);
    std::string displayText(const Token& token) const override;
    std::string_view kind() const override { return "BPE"; }

protected:
    Result<void> encodeText(std::string_view text, int& nextWord, std::vector<Token>& out) const override;

private:
    struct MergeResult {
        int rank;
        int merged;
    };
    ByteLevelBpeTokenizer(Vocabulary vocab, ByteLevelOptions options);
    Result<std::vector<int>> chunkIds(std::string_view chunk) const;
    std::vector<int> applyMerges(std::vector<int> symbols) const;

    ByteLevelOptions options_;
    std::unordered_map<std::uint64_t, MergeResult> merges_;  // (left id << 32 | right id) → merge
    int byteIds_[256];
    mutable std::mutex cacheMutex_;
    mutable std::unordered_map<std::string, std::vector<int>> cache_;  // chunk → ids
};

// The piece spelled in bytes_to_unicode characters, back as raw bytes ("Ġworld" → " world").
std::string byteLevelToBytes(std::string_view piece);
// Readable form for labels: spaces as "␣", newlines as "↵", tabs as "⇥", bytes that are not
// whole UTF-8 characters (half an emoji) as "<0xF0>".
std::string byteLevelDisplay(std::string_view piece);

// GPT-2 pre-tokenization: the chunks of text (UTF-8), in order, covering it exactly.
std::vector<std::string_view> gpt2PreTokenize(std::string_view text);

// File readers; errors name the file and line.
Result<Vocabulary> readBpeVocabJson(const std::filesystem::path& vocabJson);
Result<std::vector<BpeMerge>> readBpeMerges(const std::filesystem::path& mergesTxt);
Result<Vocabulary> parseVocabJsonText(const std::string& text, const std::string& where);

}  // namespace attnscope
