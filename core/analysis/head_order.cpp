#include "core/analysis/head_order.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>

#include "core/text/error_messages.hpp"

namespace attnscope {

namespace {

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
}

// A whole number made of digits only (no sign, no spaces inside); nullopt otherwise.
std::optional<long long> wholeNumber(std::string_view s) {
    s = trimmed(s);
    if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    long long n = 0;
    std::from_chars(s.data(), s.data() + s.size(), n);
    return n;
}

// One item, "7" or "1-3", appended 0-based to `out`.
Result<void> addItem(std::string_view item, int count, const ErrorText& where, std::vector<int>& out) {
    const std::size_t dash = item.find('-');
    const auto first = wholeNumber(item.substr(0, dash));
    const auto last = dash == std::string_view::npos ? first : wholeNumber(item.substr(dash + 1));
    const std::string shown(trimmed(item));
    if (!first || !last || *last < *first) return Error{where, errorText(ErrorId::IndexListItem, shown)};
    for (const long long n : {*first, *last})
        if (n < 1 || n > count) return Error{where, errorText(ErrorId::IndexOutOfRange, std::to_string(n), count)};
    for (long long n = *first; n <= *last; ++n) out.push_back(static_cast<int>(n - 1));
    return {};
}

}  // namespace

Result<std::vector<int>> parseIndexList(std::string_view text, int count, const ErrorText& where) {
    std::vector<int> indices;
    if (trimmed(text).empty()) {
        for (int i = 0; i < count; ++i) indices.push_back(i);
        return indices;
    }
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        if (auto added = addItem(text.substr(start, comma - start), count, where, indices); !added) return added.error();
        if (comma == text.size()) break;
        start = comma + 1;
    }
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    return indices;
}

double statisticValue(const HeadStatistics& stats, HeadSortKey key) {
    switch (key) {
    case HeadSortKey::Entropy: return stats.entropy;
    case HeadSortKey::DelimiterShare: return stats.delimiterShare;
    case HeadSortKey::PreviousShare: return stats.previousShare;
    case HeadSortKey::NextShare: return stats.nextShare;
    case HeadSortKey::SelfShare: return stats.selfShare;
    }
    return 0;
}

std::vector<std::vector<int>> headOrderBy(const std::vector<HeadStatistics>& stats, HeadSortKey key) {
    int layers = 0;
    for (const HeadStatistics& s : stats) layers = std::max(layers, s.head.layer + 1);
    std::vector<std::vector<const HeadStatistics*>> byLayer(static_cast<std::size_t>(layers));
    for (const HeadStatistics& s : stats)
        if (s.head.layer >= 0) byLayer[static_cast<std::size_t>(s.head.layer)].push_back(&s);
    std::vector<std::vector<int>> order(byLayer.size());
    for (std::size_t l = 0; l < byLayer.size(); ++l) {
        auto& heads = byLayer[l];
        std::stable_sort(heads.begin(), heads.end(), [key](const HeadStatistics* a, const HeadStatistics* b) {
            const double va = statisticValue(*a, key), vb = statisticValue(*b, key);
            return va != vb ? va > vb : a->head.head < b->head.head;
        });
        for (const HeadStatistics* s : heads) order[l].push_back(s->head.head);
    }
    return order;
}

}  // namespace attnscope
