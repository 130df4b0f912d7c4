#pragma once
// What the model view shows and in which order: the layer / head filters typed by the user
// ("1-3,7") and the heads of each layer ordered by one of their statistics (head_stats.hpp).
// The view only draws what these return.
#include <string_view>
#include <vector>

#include "core/analysis/head_stats.hpp"
#include "core/base/result.hpp"

namespace attnscope {

// "1-3,7" → {0, 1, 2, 6}: numbers and ranges counted from 1, separated by commas (spaces
// allowed), 0-based, sorted, repeats merged. Empty (or only spaces): every index of `count`.
// Errors name the offending item ("x", "3-1", "0", "13" when count is 12) under `where`.
Result<std::vector<int>> parseIndexList(std::string_view text, int count, const ErrorText& where);

// The statistics the heads of a layer can be ordered by (fields of HeadStatistics).
enum class HeadSortKey { Entropy, DelimiterShare, PreviousShare, NextShare, SelfShare };
inline constexpr int kHeadSortKeyCount = 5;

double statisticValue(const HeadStatistics& stats, HeadSortKey key);

// Per layer (index = layer), that layer's head indices ordered by `key`, highest first; equal
// values keep head order. Layers and heads come from the statistics' HeadRefs: a layer with no
// statistics gets an empty list.
std::vector<std::vector<int>> headOrderBy(const std::vector<HeadStatistics>& stats, HeadSortKey key);

}  // namespace attnscope
