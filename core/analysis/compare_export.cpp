#include "core/analysis/compare_export.hpp"

#include <charconv>
#include <nlohmann/json.hpp>

#include "core/export/table_format.hpp"
#include "core/io/json_index.hpp"
#include "core/io/json_rows.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/messages.hpp"
#include "core/trace/ablation.hpp"
#include "core/trace/explain.hpp"

namespace attnscope {

namespace {

using Json = nlohmann::ordered_json;

std::string tokenList(const std::vector<Token>& tokens) {
    std::string out;
    for (std::size_t t = 0; t < tokens.size(); ++t) out += (t ? " " : "") + std::to_string(t + 1) + ":" + tokens[t].text;
    return out;
}

std::string joined(const std::vector<std::string>& words) {
    std::string out;
    for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
    return out;
}

std::string alignmentText(const Alignment& a, Language language) {
    const auto say = [language](MessageId id, std::vector<std::string> args = {}) {
        return fillMessage(message(id, language), args) + "\n";
    };
    if (a.by == Alignment::By::Position) return say(MessageId::CompareByPosition);
    std::string out = say(MessageId::CompareByWord, {std::to_string(a.units.size())});
    if (!a.onlyInA.empty()) out += say(MessageId::CompareOnlyInA, {joined(a.onlyInA)});
    if (!a.onlyInB.empty()) out += say(MessageId::CompareOnlyInB, {joined(a.onlyInB)});
    return out;
}

std::vector<std::string> unitLabels(const Alignment& alignment) {
    std::vector<std::string> labels;
    for (const AlignedUnit& u : alignment.units) labels.push_back(unitLabel(u));
    return labels;
}

std::string matrixText(const Mat& m, const std::vector<std::string>& rows, const std::vector<std::string>& columns, int decimals) {
    Table t{columns, rows, {}};  // Table lists its columns first: a cross-attention's U_q×U is not square
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        t.cells.emplace_back();
        for (Eigen::Index c = 0; c < m.cols(); ++c) t.cells.back().push_back(formatNumber(m(r, c), decimals));
    }
    return textTable(t);
}

Json rows(const Mat& m) { return json::matrixRows(m); }

Json tokensJson(const std::vector<Token>& tokens) {
    Json out = Json::array();
    for (const Token& t : tokens) out.push_back({{"text", t.text}, {"id", t.id}});
    return out;
}

// Which scale the numbers are, the same word in the JSON and in every CSV row.
const char* shadingName(const SentenceComparison& c) { return c.normWeighted ? "norms" : "weights"; }

}  // namespace

Result<SentenceComparison> compareHeads(const Trace& a, const Trace& b, const std::vector<HeadRef>& heads) {
    SentenceComparison out{a.tokens, b.tokens, ablatedHeads(a), {}};
    if (ablatedHeads(b) != out.ablated)
        return Error{errorText(ErrorId::WhereSentenceNamed, "B"),
                     errorText(ErrorId::ExpectedFound, errorText(ErrorId::TheHeadsSwitchedOffInA, headSpecText(out.ablated)),
                               headSpecText(ablatedHeads(b)))};
    for (const HeadRef& head : heads) {
        auto c = compareHead(a, b, head);
        if (!c) return c.error();
        out.heads.push_back(std::move(c).value());
    }
    if (out.heads.empty())
        return Error{ErrorText(ErrorId::WhereHeads), errorText(ErrorId::ExpectedFound, ErrorId::AtLeastOneHeadToCompare, ErrorId::NoneFound)};
    return out;
}

std::string comparisonToText(const SentenceComparison& c, int decimals, Language language) {
    std::string out = "A: " + tokenList(c.tokensA) + "\nB: " + tokenList(c.tokensB) + "\n" +
                      alignmentText(c.alignment(), language);
    if (!c.ablated.empty()) out += fillMessage(message(MessageId::CompareHeadsOff, language), {headSpecText(c.ablated)}) + "\n";
    const std::vector<std::string> labels = unitLabels(c.alignment()), rowLabels = unitLabels(c.heads.front().rows);
    const auto block = [&](const char* which, HeadRef head, const Mat& m) {
        return "\n" + fillMessage(message(MessageId::CompareBlock, language),
                                   {which, std::to_string(head.layer + 1), std::to_string(head.head + 1)}) +
               "\n" + matrixText(m, rowLabels, labels, decimals);
    };
    for (const HeadComparison& h : c.heads)
        out += block("A", h.head, h.a) + block("B", h.head, h.b) + block("A − B", h.head, h.difference);
    return out.back() == '\n' ? out : out + "\n";
}

std::string comparisonToJson(const SentenceComparison& c) {
    const Alignment& a = c.alignment();
    Json units = Json::array();
    for (const AlignedUnit& u : a.units)
        units.push_back({{"a", u.textA}, {"b", u.textB}, {"tokens_a", json::oneBased(u.tokensA)}, {"tokens_b", json::oneBased(u.tokensB)}});
    Json ablated = Json::array(), heads = Json::array();
    for (const HeadRef& h : c.ablated) ablated.push_back({h.layer + 1, h.head + 1});
    for (const HeadComparison& h : c.heads)
        heads.push_back({{"layer", h.head.layer + 1}, {"head", h.head.head + 1}, {"a", rows(h.a)}, {"b", rows(h.b)},
                         {"difference", rows(h.difference)}});
    const Json doc{{"format", "attnscope-compare"}, {"version", 2},
                   {"alignment", a.by == Alignment::By::Position ? "position" : "word"},
                   {"tokens_a", tokensJson(c.tokensA)}, {"tokens_b", tokensJson(c.tokensB)},
                   {"units", units}, {"only_in_a", a.onlyInA}, {"only_in_b", a.onlyInB},
                   {"ablated", ablated}, {"heads", heads}, {"shading", shadingName(c)}};
    return doc.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string comparisonToCsv(const SentenceComparison& c) {
    const std::vector<AlignedUnit>& units = c.alignment().units;
    const std::vector<AlignedUnit>& queries = c.heads.front().rows.units;
    std::string out = "layer,head,query,key,query_text,key_text,a,b,difference,shading\n";
    for (const HeadComparison& h : c.heads)
        for (std::size_t q = 0; q < queries.size(); ++q)
            for (std::size_t k = 0; k < units.size(); ++k) {
                const auto r = Eigen::Index(q), col = Eigen::Index(k);
                out += std::to_string(h.head.layer + 1) + "," + std::to_string(h.head.head + 1) + "," +
                       std::to_string(q + 1) + "," + std::to_string(k + 1) + "," + csvField(unitLabel(queries[q])) + "," +
                       csvField(unitLabel(units[k])) + "," + shortestNumber(h.a(r, col)) + "," + shortestNumber(h.b(r, col)) + "," +
                       shortestNumber(h.difference(r, col)) + "," + shadingName(c) + "\n";
            }
    return out;
}

}  // namespace attnscope
