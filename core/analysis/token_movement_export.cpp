// The exports of what attention did to each word (see token_movement_export.hpp).
//
// Shape legend: T tokens, d model width, L layers.
#include "core/analysis/token_movement_export.hpp"

#include <cstdio>
#include <sstream>
#include <nlohmann/json.hpp>

#include "core/export/table_format.hpp"
#include "core/text/messages.hpp"

namespace attnscope {

namespace {

using Json = nlohmann::ordered_json;

std::string dump(const Json& doc) { return doc.dump(1, ' ', false, Json::error_handler_t::replace) + "\n"; }

Json rowOf(const Mat& m, int row) {
    Json out = Json::array();
    for (Eigen::Index c = 0; c < m.cols(); ++c) out.push_back(m(row, c));
    return out;
}

std::string fixed(double value, int decimals) {
    char cell[48];
    std::snprintf(cell, sizeof cell, "%.*f", decimals, value);
    return cell;
}

// CSV quoting: a text with a comma, quote or line break in double quotes, quotes doubled.
std::string csvText(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string out = "\"";
    for (char ch : text) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
}

const std::string& textOf(const std::vector<Token>& tokens, int i) { return tokens.at(static_cast<std::size_t>(i)).text; }

Json layerJson(const TokenMovement& m) { return m.layer ? Json(*m.layer + 1) : Json(nullptr); }

std::vector<std::string> headerColumns(MessageId id, Language language) {
    std::vector<std::string> columns;
    std::istringstream names{std::string(message(id, language))};
    for (std::string name; names >> name;) columns.push_back(name);
    return columns;
}

}  // namespace

Result<SameWordCurve> sameWordCurve(const Trace& a, const std::vector<Mat>& statesA, int tokenA,
                                    const Trace& b, const std::vector<Mat>& statesB, int tokenB) {
    auto cosines = sameTokenCosines(statesA, tokenA, statesB, tokenB);
    if (!cosines) return cosines.error();
    return SameWordCurve{tokenA, tokenB, textOf(a.tokens, tokenA), textOf(b.tokens, tokenB), std::move(cosines).value()};
}

std::vector<std::string> stateNames(int layers, Language language) {
    std::vector<std::string> names;
    for (int l = 1; l <= layers; ++l) names.push_back(fillMessage(message(MessageId::StateEntering, language), {std::to_string(l)}));
    names.push_back(fillMessage(message(MessageId::StateLeaving, language), {std::to_string(layers)}));
    return names;
}

std::string movementToJson(const TokenMovement& m, const Trace& trace, const std::string& source) {
    Json tokens = Json::array();
    for (const TokenMove& t : m.tokens) {
        Json sources = Json::array();
        for (const SourceContribution& s : t.sources)
            sources.push_back(Json{{"token", s.token + 1}, {"text", textOf(trace.columnTokens(), s.token)}, {"norm", s.norm}});
        tokens.push_back(Json{{"token", t.token + 1}, {"text", textOf(trace.tokens, t.token)}, {"distance", t.distance},
                              {"cosine", t.cosine}, {"x", rowOf(m.x, t.token)}, {"y", rowOf(m.y, t.token)},
                              {"sources", sources}});
    }
    return dump(Json{{"format", "attnscope-token-movement"}, {"version", 1}, {"source", source}, {"indices", "1-based"},
                     {"layer", layerJson(m)}, {"tokens", tokens}});
}

std::string movementToCsv(const TokenMovement& m, const Trace& trace) {
    std::string out = "layer,token,text,distance,cosine,rank,source,source_text,source_norm\n";
    const std::string layer = m.layer ? std::to_string(*m.layer + 1) : std::string("stack");
    for (const TokenMove& t : m.tokens) {
        const std::string head = layer + "," + std::to_string(t.token + 1) + "," + csvText(textOf(trace.tokens, t.token)) + "," +
                                 shortestNumber(t.distance) + "," + shortestNumber(t.cosine) + ",";
        if (t.sources.empty()) out += head + ",,,\n";
        for (std::size_t r = 0; r < t.sources.size(); ++r) {
            const SourceContribution& s = t.sources[r];
            out += head + std::to_string(r + 1) + "," + std::to_string(s.token + 1) + "," +
                   csvText(textOf(trace.columnTokens(), s.token)) + "," + shortestNumber(s.norm) + "\n";
        }
    }
    return out;
}

std::string movementToText(const TokenMovement& m, const Trace& trace, int decimals, int top, Language language) {
    Table t;
    t.columns = headerColumns(MessageId::MovementHeader, language);
    for (const TokenMove& move : m.tokens) {
        std::string sources;
        for (std::size_t r = 0; r < move.sources.size() && static_cast<int>(r) < top; ++r)
            sources += (r ? ", " : "") + textOf(trace.columnTokens(), move.sources[r].token) + " " + fixed(move.sources[r].norm, decimals);
        t.rows.push_back(std::to_string(move.token + 1) + " " + textOf(trace.tokens, move.token));
        t.cells.push_back({fixed(move.distance, decimals), fixed(move.cosine, decimals), sources.empty() ? "-" : sources});
    }
    const std::string note = m.layer ? fillMessage(message(MessageId::MovementNoteLayer, language), {std::to_string(*m.layer + 1)})
                                     : fillMessage(message(MessageId::MovementNoteStack, language), {std::to_string(trace.layerCount())});
    return note + "\n" + textTable(t);
}

std::string sameWordToJson(const SameWordCurve& c, const std::string& source) {
    Json states = Json::array();
    const std::vector<std::string> names = stateNames(static_cast<int>(c.cosines.size()) - 1, Language::English);
    for (std::size_t l = 0; l < c.cosines.size(); ++l) states.push_back(Json{{"state", names[l]}, {"cosine", c.cosines[l]}});
    return dump(Json{{"format", "attnscope-same-word"}, {"version", 1}, {"source", source}, {"indices", "1-based"},
                     {"token_a", c.tokenA + 1}, {"text_a", c.textA}, {"token_b", c.tokenB + 1}, {"text_b", c.textB},
                     {"states", states}});
}

std::string sameWordToCsv(const SameWordCurve& c) {
    std::string out = "state,layer,cosine\n";
    const std::vector<std::string> names = stateNames(static_cast<int>(c.cosines.size()) - 1, Language::English);
    for (std::size_t l = 0; l < c.cosines.size(); ++l)
        out += csvText(names[l]) + "," + std::to_string(l + 1 < c.cosines.size() ? l + 1 : l) + "," + shortestNumber(c.cosines[l]) + "\n";
    return out;
}

std::string sameWordToText(const SameWordCurve& c, int decimals, Language language) {
    Table t;
    t.columns = {"cos"};
    const std::vector<std::string> names = stateNames(static_cast<int>(c.cosines.size()) - 1, language);
    for (std::size_t l = 0; l < c.cosines.size(); ++l) t.rows.push_back(names[l]), t.cells.push_back({fixed(c.cosines[l], decimals)});
    return fillMessage(message(MessageId::SameWordNote, language),
                       {c.textA, std::to_string(c.tokenA + 1), c.textB, std::to_string(c.tokenB + 1)}) + "\n" + textTable(t);
}

}  // namespace attnscope
