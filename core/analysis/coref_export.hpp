#pragma once
// Coreference results as text and JSON (the command line prints these; a view can export them).
// Layers, heads, words and tokens count from 1 in text, CSV and JSON (docs/cli.md).
// Formats: docs/coreference.md.
#include <string>
#include <vector>

#include "core/analysis/coref_eval.hpp"
#include "core/analysis/coreference.hpp"
#include "core/analysis/head_stats.hpp"

namespace attnscope {

// The text forms are in `language` (core's catalogue, core/text/messages.hpp); JSON and CSV stay English.

// Per mention: every candidate with its score, the chosen one and the baselines marked, then a
// summary line "it → animal 0.932 (nearest: street, rule: street)"; with several heads, each
// head's score for the chosen candidate.
std::string resolutionToText(const SentenceResolution& resolved, int decimals, Language language = Language::English);
// {"format": "attnscope-coref", "version": 1, "words": [...], "mentions": [...]}
std::string resolutionToJson(const SentenceResolution& resolved);
// One row per mention × candidate with the combined score (layer and head empty), then one row
// per head combined with that head's own score. Words, layers and heads 1-based as in the text;
// scores at full precision (shortest text that reads back to the same double).
// mention,mention_word,candidate,candidate_word,layer,head,score,chosen,nearest,rule,scoring
std::string resolutionToCsv(const SentenceResolution& resolved);

// The bootstrap settings, the baselines (random pick's expectation, first candidate, nearest,
// rule) and rollout with their intervals, the random-weights control's best head when given,
// then every head best first (`top` > 0 keeps that many) with its interval and a mark when it is
// significantly above the rule baseline, then the skipped examples with their reasons.
std::string evaluationToText(const CorefEvaluation& evaluation, const CorefSet& set, int top,
                             Language language = Language::English, const ControlComparison* control = nullptr);
// Version 2: baselines random/first/nearest/rule and rollout as {correct, accuracy, interval},
// "bootstrap" settings, "control" (null without one), ranking rows with "interval",
// "minus_rule" (paired interval of accuracy − rule) and "above_rule". Layers and heads 0-based.
std::string evaluationToJson(const CorefEvaluation& evaluation, const CorefSet& set,
                             const ControlComparison* control = nullptr);
// For spreadsheets: "kind,layer,head,correct,evaluated,accuracy,low,high,minus_rule_low,
// minus_rule_high", the baselines and rollout first (kind random / first / nearest / rule /
// rollout, no layer or head; random's correct is the expected count), the control's best head
// (kind control_best) when given, then every head best first (kind head, layer and head from 1).
// Numbers in full precision (they read back exactly).
std::string evaluationToCsv(const CorefEvaluation& evaluation, const ControlComparison* control = nullptr);

// One row per head: layer, head, label(s), entropy, shares.
std::string headStatsToText(const std::vector<HeadStatistics>& stats, Language language = Language::English);
// "layer,head,entropy,normalized_entropy,delimiter,previous,next,self,coref_accuracy,labels";
// layers and heads from 1, labels joined by "; ".
std::string headStatsToCsv(const std::vector<HeadStatistics>& stats);
std::string headStatsToJson(const std::vector<HeadStatistics>& stats, const HeadLabelThresholds& thresholds);

}  // namespace attnscope
