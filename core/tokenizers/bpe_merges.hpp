#pragma once
// BPE's merge table and the merging itself, shared by GPT-2's vocab.json + merges.txt and
// tokenizer.json's BPE model: adjacent symbols are merged lowest rank first, leftmost first among
// equal ranks (Hugging Face's Word::merge_all, GPT-2's bpe()).
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/base/result.hpp"
#include "core/tokenizers/tokenizer.hpp"

namespace attnscope {

struct BpeMerge {
    std::string left, right;
};

class BpeMerges {
public:
    // Every merge's parts and their join must be in the vocabulary; a pair listed twice keeps its
    // last rank (as Hugging Face and transformers.js read the list). `where` names the source.
    static Result<BpeMerges> create(const Vocabulary& vocab, const std::vector<BpeMerge>& merges, const std::string& where);
    std::vector<int> apply(std::vector<int> symbols) const;

private:
    struct MergeResult {
        int rank;
        int merged;
    };
    std::unordered_map<std::uint64_t, MergeResult> merges_;  // (left id << 32 | right id) → merge
};

}  // namespace attnscope
