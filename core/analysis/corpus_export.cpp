#include "core/analysis/corpus_export.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/io/json_index.hpp"
#include "core/text/messages.hpp"
#include "core/trace/explain.hpp"

namespace attnscope {

namespace {

using Json = nlohmann::ordered_json;

// The per-head numbers in one order for every format.
struct Column {
    const char* name;
    double CorpusHeadStats::*member;
};
constexpr Column kColumns[] = {
    {"first", &CorpusHeadStats::first},         {"last", &CorpusHeadStats::last},
    {"punctuation", &CorpusHeadStats::punctuation}, {"previous", &CorpusHeadStats::previous},
    {"self", &CorpusHeadStats::self},           {"next", &CorpusHeadStats::next},
    {"same_token", &CorpusHeadStats::sameToken}, {"entropy", &CorpusHeadStats::entropy},
    {"uniform_entropy", &CorpusHeadStats::uniformEntropy},
};

std::string offsetName(int offset) { return "offset" + std::string(offset >= 0 ? "+" : "") + std::to_string(offset); }

std::string exact(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", value);
    return text;
}

}  // namespace

std::string corpusStatsToText(const CorpusStats& stats, const std::string& description, int decimals,
                              Language language) {
    std::string out = description + "\n" +
                      fillMessage(message(MessageId::CorpusSummary, language),
                                  {std::to_string(stats.sentences), std::to_string(stats.queries)}) +
                      "\n";
    out += std::string(message(MessageId::CorpusHeader, language)) + "\n";  // "layer head" and kColumns' names
    for (const CorpusHeadStats& h : stats.heads) {
        out += std::to_string(h.head.layer + 1) + " " + std::to_string(h.head.head + 1);
        for (const Column& c : kColumns) out += " " + formatNumber(h.*c.member, decimals);
        out += "\n";
    }
    return out;
}

std::string corpusStatsToJson(const CorpusStats& stats, const std::string& description) {
    Json heads = Json::array();
    for (const CorpusHeadStats& h : stats.heads) {
        Json row{{"layer", json::oneBased(h.head.layer)}, {"head", json::oneBased(h.head.head)}};
        for (const Column& c : kColumns) row[c.name] = h.*c.member;
        row["offsets"] = h.offsets;
        heads.push_back(std::move(row));
    }
    const Json doc{{"format", "attnscope-corpus-stats"}, {"version", 2},
                   {"source", description},             {"sentences", stats.sentences},
                   {"queries", stats.queries},           {"layers", stats.layers},
                   {"heads_per_layer", stats.headsPerLayer}, {"max_offset", stats.maxOffset},
                   {"offset_queries", stats.offsetQueries}, {"notices", corpusNoticeTexts(stats.notices, Language::English)},
                   {"heads", heads}};
    return doc.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string corpusStatsToCsv(const CorpusStats& stats) {
    std::string out = "layer,head";
    for (const Column& c : kColumns) out += "," + std::string(c.name);
    for (int o = -stats.maxOffset; o <= stats.maxOffset; ++o) out += "," + offsetName(o);
    out += "\n";
    for (const CorpusHeadStats& h : stats.heads) {
        out += std::to_string(h.head.layer + 1) + "," + std::to_string(h.head.head + 1);
        for (const Column& c : kColumns) out += "," + exact(h.*c.member);
        for (double v : h.offsets) out += "," + exact(v);
        out += "\n";
    }
    return out;
}

}  // namespace attnscope
