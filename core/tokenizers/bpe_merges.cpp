#include "core/tokenizers/bpe_merges.hpp"

#include <queue>

#include "core/text/error_messages.hpp"

namespace attnscope {

namespace {

std::uint64_t pairKey(int left, int right) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) | static_cast<std::uint32_t>(right);
}

}  // namespace

Result<BpeMerges> BpeMerges::create(const Vocabulary& vocab, const std::vector<BpeMerge>& merges, const std::string& where) {
    BpeMerges table;
    table.merges_.reserve(merges.size());
    for (std::size_t rank = 0; rank < merges.size(); ++rank) {
        const BpeMerge& merge = merges[rank];
        const auto left = vocab.idOf(merge.left), right = vocab.idOf(merge.right);
        const auto merged = vocab.idOf(merge.left + merge.right);
        if (!left || !right || !merged) {
            const std::string missing = !left ? merge.left : !right ? merge.right : merge.left + merge.right;
            return Error{errorText(ErrorId::WhereMerge, where, rank + 1, merge.left, merge.right),
                         errorText(ErrorId::MergePiecesMissing, missing)};
        }
        table.merges_.insert_or_assign(pairKey(*left, *right), MergeResult{static_cast<int>(rank), *merged});
    }
    return table;
}

std::vector<int> BpeMerges::apply(std::vector<int> ids) const {
    struct Candidate {
        int rank, left, right, leftId, rightId;
        bool operator>(const Candidate& o) const { return rank != o.rank ? rank > o.rank : left > o.left; }
    };
    const int n = static_cast<int>(ids.size());
    if (n < 2) return ids;
    std::vector<int> next(n), prev(n);
    for (int i = 0; i < n; ++i) next[i] = i + 1 < n ? i + 1 : -1, prev[i] = i - 1;
    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> queue;
    const auto consider = [&](int left) {
        if (left < 0 || next[left] < 0) return;
        const auto it = merges_.find(pairKey(ids[left], ids[next[left]]));
        if (it != merges_.end()) queue.push({it->second.rank, left, next[left], ids[left], ids[next[left]]});
    };
    for (int i = 0; i + 1 < n; ++i) consider(i);
    while (!queue.empty()) {
        const Candidate c = queue.top();
        queue.pop();
        const bool stale = ids[c.left] != c.leftId || next[c.left] != c.right || ids[c.right] != c.rightId;
        if (stale) continue;
        ids[c.left] = merges_.at(pairKey(c.leftId, c.rightId)).merged;
        ids[c.right] = -1;  // removed
        next[c.left] = next[c.right];
        if (next[c.left] >= 0) prev[next[c.left]] = c.left;
        consider(prev[c.left]);
        consider(c.left);
    }
    std::vector<int> out;
    for (int i = 0; i >= 0; i = next[i]) out.push_back(ids[i]);
    return out;
}

}  // namespace attnscope
