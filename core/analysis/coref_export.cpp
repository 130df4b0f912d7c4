#include "core/analysis/coref_export.hpp"
#include "core/export/table_format.hpp"
#include "core/io/json_index.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "core/trace/explain.hpp"
#include "core/text/messages.hpp"

namespace attnscope {

namespace {

using Json = nlohmann::ordered_json;

std::string dump(const Json& doc) { return doc.dump(1, ' ', false, Json::error_handler_t::replace) + "\n"; }

// Pads to `width` terminal columns (a CJK character takes two).
std::string padded(const std::string& text, std::size_t width) {
    const auto length = static_cast<std::size_t>(displayWidth(text));
    return text + std::string(width > length ? width - length : 0, ' ');
}

std::string counted(int n, MessageId one, MessageId many, Language language) {
    return fillMessage(message(n == 1 ? one : many, language), {std::to_string(n)});
}

std::string text(MessageId id, Language language) { return std::string(message(id, language)); }

std::string percent(double share) { return formatNumber(100 * share, 1) + "%"; }

std::string headName(const HeadRef& h) { return std::to_string(h.layer + 1) + ":" + std::to_string(h.head + 1); }

// A candidate's word; "(none)" in `language` for no candidate (JSON: English).
std::string candidateText(const SentenceResolution& s, const Resolution& r, int candidate,
                          Language language = Language::English) {
    if (candidate < 0) return text(MessageId::CorefNone, language);
    return s.words[static_cast<std::size_t>(r.candidates[static_cast<std::size_t>(candidate)])].text;
}

std::string marks(const Resolution& r, int c, Language language) {
    std::vector<MessageId> out;
    if (c == r.chosen) out.push_back(MessageId::CorefChosen);
    if (c == r.baselines.nearest) out.push_back(MessageId::CorefNearest);
    if (c == r.baselines.rule) out.push_back(MessageId::CorefRule);
    std::string joined;
    for (const MessageId m : out) joined += (joined.empty() ? "" : text(MessageId::ListSeparator, language)) + text(m, language);
    return joined;
}

std::string mentionToText(const SentenceResolution& s, const Resolution& r, int decimals, Language language) {
    std::string out = fillMessage(message(MessageId::CorefMention, language),
                                  {r.mention.text, std::to_string(r.mention.firstWord + 1), std::to_string(r.candidates.size())}) +
                      "\n";
    // The window says the same under its arcs (ui/coref/coref_view.cpp); a made-up Resolution has no raw attention.
    if (!r.candidates.empty() && r.rawScores.size() == static_cast<Eigen::Index>(r.candidates.size()))
        out += fillMessage(message(MessageId::CorefRenormalised, language), {percent(r.rawScores.sum())}) + "\n";
    std::size_t width = 0;
    for (int c = 0; c < static_cast<int>(r.candidates.size()); ++c)
        width = std::max(width, static_cast<std::size_t>(displayWidth(candidateText(s, r, c))));
    for (int c = 0; c < static_cast<int>(r.candidates.size()); ++c) {
        const std::string m = marks(r, c, language);
        out += "  " + padded(candidateText(s, r, c), width) + "  " + formatNumber(r.scores(c), decimals) +
               (m.empty() ? "" : "  " + m) + "\n";
    }
    const std::string chosenScore = r.chosen >= 0 ? " " + formatNumber(r.scores(r.chosen), decimals) : "";
    out += fillMessage(message(MessageId::CorefSummary, language),
                       {r.mention.text, candidateText(s, r, r.chosen, language), chosenScore,
                        candidateText(s, r, r.baselines.nearest, language), candidateText(s, r, r.baselines.rule, language)}) +
           "\n";
    if (r.heads.size() > 1 && r.chosen >= 0) {
        out += fillMessage(message(MessageId::CorefPerHead, language), {candidateText(s, r, r.chosen)});
        for (const HeadContribution& h : contributionsTo(r, r.chosen))
            out += " " + headName(h.head) + " " + formatNumber(h.score, decimals);
        out += "\n";
    }
    return out;
}

Json wordIndexOrNull(const Resolution& r, int candidate) {
    return candidate < 0 ? Json(nullptr) : Json(json::oneBased(r.candidates[static_cast<std::size_t>(candidate)]));
}

Json mentionToJson(const SentenceResolution& s, const Resolution& r) {
    Json candidates = Json::array();
    for (int c = 0; c < static_cast<int>(r.candidates.size()); ++c)
        candidates.push_back(Json{{"word", json::oneBased(r.candidates[static_cast<std::size_t>(c)])},
                                  {"text", candidateText(s, r, c)},
                                  {"score", r.scores(c)},
                                  {"raw_attention", c < r.rawScores.size() ? Json(r.rawScores(c)) : Json(nullptr)}});
    Json heads = Json::array(), headScores = Json::array();
    for (std::size_t k = 0; k < r.heads.size(); ++k) {
        heads.push_back(Json{{"layer", json::oneBased(r.heads[k].layer)}, {"head", json::oneBased(r.heads[k].head)}});
        Json row = Json::array();
        for (Eigen::Index c = 0; c < r.headScores.cols(); ++c) row.push_back(r.headScores(static_cast<Eigen::Index>(k), c));
        headScores.push_back(row);
    }
    Json pronoun = nullptr;
    if (r.mention.pronoun)
        pronoun = Json{{"number", numberName(r.mention.pronoun->number)},
                       {"referent", referentName(r.mention.pronoun->referent)}};
    return Json{{"text", r.mention.text},   {"first_word", json::oneBased(r.mention.firstWord)}, {"last_word", json::oneBased(r.mention.lastWord)},
                {"pronoun", pronoun},       {"scoring", scoringText(r)},
                {"candidates_attention", r.rawScores.sum()},  // the share the scores are renormalised from
                {"candidates", candidates},
                {"chosen", wordIndexOrNull(r, r.chosen)},
                {"baselines", Json{{"nearest", wordIndexOrNull(r, r.baselines.nearest)},
                                   {"rule", wordIndexOrNull(r, r.baselines.rule)}}},
                {"heads", heads},           {"head_scores", headScores}};
}

// Shortest text that reads back to the same double (what a spreadsheet or Python needs).
std::string exactNumber(double v) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, v).ptr;
    return std::string(text, end);
}

std::string csvFlag(bool on) { return on ? "1" : "0"; }

// The columns shared by a candidate's rows: mention, mention_word, candidate, candidate_word.
std::string candidateColumns(const SentenceResolution& s, const Resolution& r, int c) {
    return csvField(r.mention.text) + "," + std::to_string(r.mention.firstWord + 1) + "," +
           csvField(candidateText(s, r, c)) + "," + std::to_string(r.candidates[static_cast<std::size_t>(c)] + 1);
}

std::string candidateCsvRows(const SentenceResolution& s, const Resolution& r, int c) {
    const std::string marks = csvFlag(c == r.chosen) + "," + csvFlag(c == r.baselines.nearest) + "," +
                              csvFlag(c == r.baselines.rule) + "," + csvField(scoringText(r));
    std::string out = candidateColumns(s, r, c) + ",,," + exactNumber(r.scores(c)) + "," + marks + "\n";
    for (const HeadContribution& h : contributionsTo(r, c))
        out += candidateColumns(s, r, c) + "," + std::to_string(h.head.layer + 1) + "," +
               std::to_string(h.head.head + 1) + "," + exactNumber(h.score) + "," + marks + "\n";
    return out;
}

std::string intervalText(const Interval& i) { return "[" + percent(i.low) + ", " + percent(i.high) + "]"; }

// "baseline: rule-based 60.0% [20.0%, 100.0%] (3/5)"; the random pick's expected count with two decimals.
std::string baselineLine(MessageId label, const BaselineScore& b, const CorefEvaluation& e, Language language) {
    const bool whole = b.correct == std::floor(b.correct);
    return text(label, language) + " " + percent(b.accuracy) + " " + intervalText(b.interval) + " (" +
           (whole ? std::to_string(static_cast<int>(b.correct)) : formatNumber(b.correct, 2)) + "/" +
           std::to_string(e.evaluated) + ")\n";
}

std::string rankingRow(int rank, const HeadAccuracy& h, int evaluated, Language language) {
    char row[128];
    const std::string correct = std::to_string(h.correct) + "/" + std::to_string(evaluated);
    std::snprintf(row, sizeof row, "%4d  %5d  %4d  %8s  %-16s  ", rank, h.head.layer + 1, h.head.head + 1,
                  percent(h.accuracy).c_str(), intervalText(h.interval).c_str());
    if (!h.aboveRule()) return row + correct + "\n";
    return row + padded(correct, 9) + "  " + text(MessageId::EvalAboveRule, language) + "\n";
}

Json intervalJson(const Interval& i) { return Json::array({i.low, i.high}); }

Json baselineJson(const BaselineScore& b) {
    return Json{{"correct", b.correct}, {"accuracy", b.accuracy}, {"interval", intervalJson(b.interval)}};
}

Json headJson(const HeadAccuracy& h) {
    return Json{{"layer", json::oneBased(h.head.layer)}, {"head", json::oneBased(h.head.head)}, {"correct", h.correct}, {"accuracy", h.accuracy},
                {"interval", intervalJson(h.interval)}, {"minus_rule", intervalJson(h.overRule)},
                {"above_rule", h.aboveRule()}};
}

Json controlJson(const ControlComparison* control) {
    if (!control) return nullptr;
    return Json{{"seed", control->seed}, {"best", headJson(control->best)}, {"trained_heads_above", control->trainedAbove}};
}

std::string labelsText(const HeadStatistics& s, Language language) {
    std::string joined;
    for (const std::string& l : s.labels)
        joined += (joined.empty() ? "" : text(MessageId::ListSeparator, language)) + headLabelText(l, language);
    return joined;
}

// Shortest text that reads back as the same double.
std::string exact(double value) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    return std::string(text, end);
}

std::string csvRow(const std::vector<std::string>& cells) {
    std::string row;
    for (const std::string& c : cells) row += (row.empty() ? "" : ",") + c;
    return row + "\n";
}

std::string baselineCsvRow(const std::string& kind, const BaselineScore& b, const CorefEvaluation& e) {
    return csvRow({kind, "", "", exact(b.correct), std::to_string(e.evaluated), exact(b.accuracy), exact(b.interval.low),
                   exact(b.interval.high), "", ""});
}

std::string headCsvRow(const std::string& kind, const HeadAccuracy& h, const CorefEvaluation& e) {
    return csvRow({kind, std::to_string(h.head.layer + 1), std::to_string(h.head.head + 1), std::to_string(h.correct),
                   std::to_string(e.evaluated), exact(h.accuracy), exact(h.interval.low), exact(h.interval.high),
                   exact(h.overRule.low), exact(h.overRule.high)});
}

}  // namespace

std::string resolutionToText(const SentenceResolution& resolved, int decimals, Language language) {
    if (resolved.mentions.empty()) return text(MessageId::CorefNoPronoun, language) + "\n";
    std::string out = fillMessage(message(MessageId::CorefScoring, language), {scoringText(resolved.mentions.front(), language)}) + "\n";
    for (const Resolution& r : resolved.mentions) out += mentionToText(resolved, r, decimals, language);
    if (const std::string note = madeUpNote(resolved, language); !note.empty()) out += note + "\n";
    return out;
}

std::string resolutionToJson(const SentenceResolution& resolved) {
    Json words = Json::array();
    for (const Word& w : resolved.words)
        words.push_back(Json{{"text", w.text}, {"tokens", json::oneBased(w.tokens)}, {"punctuation", w.punctuation},
                             {"stop_word", w.stopWord}, {"made_up", w.madeUp}});
    Json mentions = Json::array();
    for (const Resolution& r : resolved.mentions) mentions.push_back(mentionToJson(resolved, r));
    return dump(Json{{"format", "attnscope-coref"}, {"version", 2}, {"words", words}, {"mentions", mentions}});
}

std::string resolutionToCsv(const SentenceResolution& resolved) {
    std::string out = "mention,mention_word,candidate,candidate_word,layer,head,score,chosen,nearest,rule,scoring\n";
    for (const Resolution& r : resolved.mentions)
        for (int c = 0; c < static_cast<int>(r.candidates.size()); ++c) out += candidateCsvRows(resolved, r, c);
    return out;
}

std::string evaluationToText(const CorefEvaluation& e, const CorefSet& set, int top, Language language,
                             const ControlComparison* control) {
    std::string out = fillMessage(message(MessageId::EvalSummary, language),
                                  {e.source, std::to_string(e.evaluated), std::to_string(e.outcomes.size()),
                                   std::to_string(e.skipped()), counted(e.layers, MessageId::EvalLayer, MessageId::EvalLayers, language),
                                   counted(e.headsPerLayer, MessageId::EvalHead, MessageId::EvalHeads, language)}) +
                      "\n";
    out += fillMessage(message(MessageId::EvalIntervals, language),
                       {formatNumber(100 * e.bootstrap.level, 0), std::to_string(e.evaluated),
                        std::to_string(e.bootstrap.resamples), std::to_string(e.bootstrap.seed)}) +
           "\n";
    out += baselineLine(MessageId::EvalRandom, e.random, e, language);
    out += baselineLine(MessageId::EvalFirst, e.first, e, language);
    out += baselineLine(MessageId::EvalNearest, e.nearest, e, language);
    out += baselineLine(MessageId::EvalRule, e.rule, e, language);
    out += baselineLine(MessageId::EvalRollout, e.rollout, e, language);
    if (control)
        out += fillMessage(message(MessageId::EvalControl, language),
                           {std::to_string(control->seed), headName(control->best.head), percent(control->best.accuracy),
                            intervalText(control->best.interval), std::to_string(control->trainedAbove + 1)}) +
               "\n";
    out += text(MessageId::EvalRankingHeader, language) + "\n";
    const int shown = top > 0 ? std::min(top, static_cast<int>(e.ranking.size())) : static_cast<int>(e.ranking.size());
    for (int i = 0; i < shown; ++i) out += rankingRow(i + 1, e.ranking[static_cast<std::size_t>(i)], e.evaluated, language);
    out += fillMessage(message(MessageId::EvalAboveRuleNote, language), {std::to_string(e.ranking.size())}) + "\n";
    if (e.skipped() > 0) out += text(MessageId::EvalSkipped, language) + "\n";
    for (const ExampleOutcome& o : e.outcomes)
        if (!o.evaluated)
            out += "  " + exampleLabel(set, set.examples[static_cast<std::size_t>(o.index)]) + ": " + noticeText(*o.skipReason, language) + "\n";
    return out;
}

std::string evaluationToJson(const CorefEvaluation& e, const CorefSet& set, const ControlComparison* control) {
    Json accuracy = Json::array();
    for (Eigen::Index l = 0; l < e.accuracy.rows(); ++l) {
        Json row = Json::array();
        for (Eigen::Index h = 0; h < e.accuracy.cols(); ++h) row.push_back(e.accuracy(l, h));
        accuracy.push_back(row);
    }
    Json ranking = Json::array();
    for (const HeadAccuracy& h : e.ranking) ranking.push_back(headJson(h));
    Json skipped = Json::array();
    for (const ExampleOutcome& o : e.outcomes) {
        if (o.evaluated) continue;
        const CorefExample& ex = set.examples[static_cast<std::size_t>(o.index)];
        skipped.push_back(Json{{"line", ex.line}, {"id", ex.id}, {"reason", noticeText(*o.skipReason, Language::English)}});
    }
    return dump(Json{{"format", "attnscope-coref-evaluation"},
                     {"version", 3},
                     {"set", e.source},
                     {"layers", e.layers},
                     {"heads", e.headsPerLayer},
                     {"examples", e.outcomes.size()},
                     {"evaluated", e.evaluated},
                     {"bootstrap", Json{{"resamples", e.bootstrap.resamples}, {"seed", e.bootstrap.seed},
                                        {"level", e.bootstrap.level}, {"resampled", "evaluated examples (sentences)"}}},
                     {"baselines", Json{{"random", baselineJson(e.random)}, {"first", baselineJson(e.first)},
                                        {"nearest", baselineJson(e.nearest)}, {"rule", baselineJson(e.rule)}}},
                     {"rollout", baselineJson(e.rollout)},
                     {"control", controlJson(control)},
                     {"accuracy", accuracy},
                     {"ranking", ranking},
                     {"skipped", skipped}});
}

std::string evaluationToCsv(const CorefEvaluation& e, const ControlComparison* control) {
    std::string out = "kind,layer,head,correct,evaluated,accuracy,low,high,minus_rule_low,minus_rule_high\n";
    out += baselineCsvRow("random", e.random, e);
    out += baselineCsvRow("first", e.first, e);
    out += baselineCsvRow("nearest", e.nearest, e);
    out += baselineCsvRow("rule", e.rule, e);
    out += baselineCsvRow("rollout", e.rollout, e);
    if (control) out += headCsvRow("control_best", control->best, e);
    for (const HeadAccuracy& h : e.ranking) out += headCsvRow("head", h, e);
    return out;
}

namespace {

// A share that compares positions of one sentence: none for a cross-attention head (its rows and
// columns are two sentences), written as an empty field, null or "–" rather than a 0 that reads as
// a measured share.
std::optional<double> positionalShare(const HeadStatistics& s, double share) {
    return s.positional ? std::optional<double>(share) : std::nullopt;
}

std::string csvValue(const std::optional<double>& v) { return v ? exact(*v) : ""; }
Json jsonValue(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }
std::string textValue(const std::optional<double>& v, int width) {
    if (!v) return std::string(static_cast<std::size_t>(std::max(0, width - 1)), ' ') + "–";
    char cell[32];
    std::snprintf(cell, sizeof cell, "%*.3f", width, *v);
    return cell;
}

}  // namespace

std::string headStatsToCsv(const std::vector<HeadStatistics>& stats) {
    std::string out = "layer,head,entropy,normalized_entropy,delimiter,previous,next,self,first,first_norm,coref_accuracy,labels\n";
    for (const HeadStatistics& s : stats) {
        std::string labels;
        for (const std::string& l : s.labels) labels += (labels.empty() ? "" : "; ") + l;
        out += csvRow({std::to_string(s.head.layer + 1), std::to_string(s.head.head + 1), exact(s.entropy),
                       exact(s.normalizedEntropy), exact(s.delimiterShare), csvValue(positionalShare(s, s.previousShare)),
                       csvValue(positionalShare(s, s.nextShare)), csvValue(positionalShare(s, s.selfShare)),
                       csvValue(positionalShare(s, s.firstShare)), s.normFirstShare ? exact(*s.normFirstShare) : "",
                       s.corefAccuracy ? exact(*s.corefAccuracy) : "", labels});
    }
    return out;
}

namespace {

// The rows' printf widths; the header's names (the catalogue's text, split at spaces) are set
// right-aligned over them in terminal columns, so 层 and 分隔符 (two columns a character) line up too.
constexpr std::array<int, 9> kHeadStatsWidths{5, 4, 7, 9, 8, 5, 5, 6, 6};

std::string headStatsHeader(Language language) {
    std::istringstream names{text(MessageId::HeadStatsHeader, language)};
    std::string header, name;
    for (std::size_t i = 0; names >> name; ++i) {
        if (i >= kHeadStatsWidths.size()) {
            header += name;
            continue;
        }
        header += std::string(static_cast<std::size_t>(std::max(0, kHeadStatsWidths[i] - displayWidth(name))), ' ') +
                  name + "  ";
    }
    return header;
}

}  // namespace

std::string headStatsToText(const std::vector<HeadStatistics>& stats, Language language) {
    std::string out = headStatsHeader(language) + "\n";
    for (const HeadStatistics& s : stats) {
        char row[160];
        const std::string coref = s.corefAccuracy ? percent(*s.corefAccuracy) : "-";
        std::snprintf(row, sizeof row, "%5d  %4d  %7.3f  %9.3f  ", s.head.layer + 1, s.head.head + 1, s.entropy,
                      s.delimiterShare);
        const std::string shares = textValue(positionalShare(s, s.previousShare), 8) + "  " +
                                   textValue(positionalShare(s, s.nextShare), 5) + "  " +
                                   textValue(positionalShare(s, s.selfShare), 5) + "  " +
                                   textValue(positionalShare(s, s.firstShare), 6) + "  ";
        const std::string line = row + shares;
        std::snprintf(row, sizeof row, "%6s  ", coref.c_str());
        out += line + row + labelsText(s, language) + "\n";
    }
    return out;
}

std::string headStatsToJson(const std::vector<HeadStatistics>& stats, const HeadLabelThresholds& t) {
    Json heads = Json::array();
    for (const HeadStatistics& s : stats)
        heads.push_back(Json{{"layer", json::oneBased(s.head.layer)},
                             {"head", json::oneBased(s.head.head)},
                             {"entropy", s.entropy},
                             {"normalized_entropy", s.normalizedEntropy},
                             {"delimiter", s.delimiterShare},
                             {"previous", jsonValue(positionalShare(s, s.previousShare))},
                             {"next", jsonValue(positionalShare(s, s.nextShare))},
                             {"self", jsonValue(positionalShare(s, s.selfShare))},
                             {"first", jsonValue(positionalShare(s, s.firstShare))},
                             {"first_norm", s.normFirstShare ? Json(*s.normFirstShare) : Json(nullptr)},
                             {"coref_accuracy", s.corefAccuracy ? Json(*s.corefAccuracy) : Json(nullptr)},
                             {"labels", s.labels}});
    const Json thresholds{{"delimiter", t.delimiter}, {"previous", t.previous}, {"next", t.next},
                          {"self", t.self},           {"broad_entropy", t.broadEntropy}, {"sink", t.sink}};
    return dump(Json{{"format", "attnscope-head-stats"}, {"version", 2}, {"thresholds", thresholds}, {"heads", heads}});
}

}  // namespace attnscope
