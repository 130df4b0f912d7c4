#pragma once
// Corpus statistics (corpus_stats.hpp) as text, JSON and CSV for the command line and the
// window's exports. JSON counts layers and heads from 0, as the head-statistics JSON does; text
// and CSV count them from 1, as they are shown.
#include <string>

#include "core/analysis/corpus_stats.hpp"

namespace attnscope {

// One row per head: first, last, punctuation, previous, self, next, same token, entropy, uniform.
// In `language` (core's catalogue); JSON (notices included) and CSV stay English.
std::string corpusStatsToText(const CorpusStats& stats, const std::string& description, int decimals = 3,
                              Language language = Language::English);
// {"format": "attnscope-corpus-stats", "version": 1, "sentences", "queries", "max_offset",
//  "offset_queries", "notices", "heads": [{"layer", "head", "first", …, "offsets": [2K+1]}]}
std::string corpusStatsToJson(const CorpusStats& stats, const std::string& description);
// Header then one row per head; the offsets as columns "offset-8" … "offset+8".
std::string corpusStatsToCsv(const CorpusStats& stats);

}  // namespace attnscope
