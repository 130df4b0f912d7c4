// Trace exports: aligned text, tidy CSV, Markdown worksheets and the JSON trace schema.
#include "core/export/export.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/trace/ablation.hpp"
#include "core/trace/explain.hpp"
#include "core/export/table_format.hpp"
#include "core/io/json_rows.hpp"
#include "core/text/messages.hpp"
#include "core/text/utf8.hpp"

namespace attnscope {

using Json = nlohmann::ordered_json;

std::optional<ExportFormat> exportFormatFromName(std::string_view name) {
    if (name == "text") return ExportFormat::Text;
    if (name == "json") return ExportFormat::Json;
    if (name == "csv") return ExportFormat::Csv;
    if (name == "markdown" || name == "md") return ExportFormat::Markdown;
    return std::nullopt;
}

namespace {

// One matrix to print: which step of which layer and head.
struct Block {
    Step step;
    int layer;
    int head;
};

void addLayerBlocks(const Trace& trace, const ExportRequest& request, int layer, std::vector<Block>& blocks) {
    const std::vector<Step> steps = request.step ? std::vector<Step>{*request.step} : stepsOf(trace, layer);
    for (const Step step : steps) {
        if (!isPerHead(step)) {
            blocks.push_back({step, layer, 0});
            continue;
        }
        for (int h = 0; h < trace.headCount(); ++h)
            if (!request.head || *request.head == h) blocks.push_back({step, layer, h});
    }
}

std::vector<Block> blocksFor(const Trace& trace, const ExportRequest& request) {
    std::vector<Block> blocks;
    for (int l = 0; l < trace.layerCount(); ++l)
        if (!request.layer || *request.layer == l) addLayerBlocks(trace, request, l, blocks);
    return blocks;
}

std::string blockTitle(const Trace& trace, const Block& b, Language language) {
    std::string title = stepTitleIn(trace, b.step, b.layer, language);
    const bool titleNamesLayer = b.step == Step::Input && b.layer > 0;
    if (trace.layerCount() > 1 && !titleNamesLayer)
        title = fillMessage(message(MessageId::TitleInLayer, language), {std::to_string(b.layer + 1), title});
    if (isPerHead(b.step) && trace.headCount() > 1)
        title = fillMessage(message(MessageId::TitleOfHead, language), {title, std::to_string(b.head + 1)});
    return title;
}

// A block's cells as a table.
Table tableOf(const Trace& trace, const Block& b, int decimals, Language language = Language::English) {
    return attnscope::tableOf(trace, b.step, b.layer, b.head, decimals, language);
}

std::vector<std::string> explanationsOf(const Trace& trace, const Block& b, int decimals, Language language) {
    std::vector<std::string> out;
    const Mat& m = stepMatrix(trace, b.step, b.layer, b.head);
    for (int r = 0; r < m.rows(); ++r)
        for (int c = 0; c < m.cols(); ++c) {
            auto e = explainCell(trace, CellRef{b.step, b.layer, b.head, r, c}, decimals, language);
            if (!e) continue;
            for (const std::string& line : e.value().lines) out.push_back(line);
            out.emplace_back();
        }
    return out;
}

std::string tokenLine(const std::vector<Token>& tokens, const std::string& separator) {
    std::string line;
    for (std::size_t i = 0; i < tokens.size(); ++i)
        line += (i ? separator : "") + tokens[i].text + (tokens[i].inTable ? "" : "*");
    return line;
}

std::string exportText(const Trace& trace, const ExportRequest& request, bool markdown) {
    std::ostringstream out;
    const std::string separator = markdown ? " · " : " | ";
    const Language language = request.language;
    out << message(markdown ? MessageId::LabelTokensMarkdown : MessageId::LabelTokens, language)
        << tokenLine(trace.tokens, separator) << "\n";
    if (trace.isCrossAttention())  // the columns of scores and weights, the rows of K and V
        out << (markdown ? "\n" : "") << message(markdown ? MessageId::LabelSourceTokensMarkdown : MessageId::LabelSourceTokens, language)
            << tokenLine(trace.keyTokens, separator) << "\n";
    out << (markdown ? "\n" : "");
    if (trace.handRounding)
        out << fillMessage(message(MessageId::LabelHandRounding, language), {std::to_string(*trace.handRounding)}) << "\n";
    for (const std::string& n : noticeTexts(trace.notices, language))
        out << (markdown ? "> " : "") << message(MessageId::LabelNotice, language) << n << "\n";
    for (const Block& b : blocksFor(trace, request)) {
        const Table t = tableOf(trace, b, request.decimals, language);
        out << "\n" << (markdown ? "### " : "== ") << blockTitle(trace, b, request.language) << (markdown ? "" : " ==") << "\n";
        out << (markdown ? "\n" + markdownTable(t) : textTable(t));
        if (!request.explain) continue;
        out << "\n";
        for (const std::string& line : explanationsOf(trace, b, request.decimals, request.language))
            out << (markdown && !line.empty() ? "    " : "") << line << "\n";
    }
    return out.str();
}

std::string exportCsv(const Trace& trace, const ExportRequest& request) {
    std::ostringstream out;
    out << "step,layer,head,row,row_label,col,col_label,value\n";
    for (const Block& b : blocksFor(trace, request)) {
        const Table t = tableOf(trace, b, request.decimals);
        for (std::size_t r = 0; r < t.rows.size(); ++r)
            for (std::size_t c = 0; c < t.columns.size(); ++c)
                out << stepKey(b.step) << "," << b.layer + 1 << ","
                    << (isPerHead(b.step) ? std::to_string(b.head + 1) : "") << ","
                    << r << "," << csvField(t.rows[r]) << "," << c << "," << csvField(t.columns[c]) << ","
                    << t.cells[r][c] << "\n";
    }
    return out.str();
}

Json numberJson(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    return v;
}

Json matrixJson(const Mat& m) { return json::matrixRows(m, numberJson); }

Json headJson(const HeadTrace& h) {
    return Json{{"q", matrixJson(h.q)},
                {"k", matrixJson(h.k)},
                {"v", matrixJson(h.v)},
                {"scores", matrixJson(h.scores)},
                {"scaled_scores", matrixJson(h.scaledScores)},
                {"mask", matrixJson(h.mask)},
                {"masked_scores", matrixJson(h.maskedScores)},
                {"weights", matrixJson(h.weights)},
                {"output", matrixJson(h.weightedSum)},
                {"ablated", h.ablated}};
}

Json layerJson(const LayerTrace& l) {
    Json heads = Json::array();
    for (const HeadTrace& h : l.heads) heads.push_back(headJson(h));
    Json layer{{"input", matrixJson(l.input)}, {"heads", std::move(heads)},
               {"concat", matrixJson(l.concat)}, {"output", matrixJson(l.output)}};
    if (l.keyInput.size() > 0) layer["key_input"] = matrixJson(l.keyInput);  // cross-attention: T_k×d
    return layer;
}

std::string_view positionalName(PositionalKind kind) {
    switch (kind) {
        case PositionalKind::Sinusoidal: return "sinusoidal";
        case PositionalKind::Table: return "table";
        default: return "none";
    }
}

Json tokensJson(const std::vector<Token>& all, bool detailed) {
    Json tokens = Json::array();
    for (const Token& t : all)
        tokens.push_back(detailed ? Json{{"text", t.text}, {"in_table", t.inTable}, {"id", t.id},
                                         {"word", t.word}, {"special", t.special}}
                                  : Json(t.text));
    return tokens;
}

// [[layer, head], …] counted from 1, as the command line's --ablate.
Json ablatedJson(const std::vector<HeadRef>& heads) {
    Json list = Json::array();
    for (const HeadRef& h : heads) list.push_back(Json::array({h.layer + 1, h.head + 1}));
    return list;
}

}  // namespace

std::string traceToJson(const Trace& trace, std::optional<int> onlyLayer) {
    Json doc = Json::object();
    doc["format"] = "attnscope-trace";
    doc["version"] = kTraceFormatVersion;
    doc["tokens"] = tokensJson(trace.tokens, false);
    doc["token_info"] = tokensJson(trace.tokens, true);
    if (trace.isCrossAttention()) doc["key_tokens"] = tokensJson(trace.keyTokens, false);
    doc["settings"] = Json{{"positional_encoding", positionalName(trace.positionalKind)},
                           {"projections", trace.projections},
                           {"scaled", trace.scaled},
                           {"scale_divisor", trace.scaleDivisor},
                           {"causal_mask", trace.causal},
                           {"padded_from", trace.paddedFrom >= 0 ? Json(trace.paddedFrom) : Json(nullptr)},
                           {"residual", trace.residual},
                           {"hand_rounding", trace.handRounding ? Json(*trace.handRounding) : Json(nullptr)}};
    doc["notices"] = noticeTexts(trace.notices, Language::English);  // English: the format stays stable
    doc["ablated"] = ablatedJson(ablatedHeads(trace));
    doc["embedding"] = matrixJson(trace.embedding);
    doc["positional"] = matrixJson(trace.positional);
    Json layers = Json::array();
    for (int l = 0; l < trace.layerCount(); ++l)
        if (!onlyLayer || *onlyLayer == l) layers.push_back(layerJson(trace.layers[l]));
    doc["layers"] = std::move(layers);
    if (onlyLayer) doc["layer_index"] = *onlyLayer;
    return doc.dump(1) + "\n";
}

std::string exportTrace(const Trace& trace, ExportFormat format, const ExportRequest& request) {
    switch (format) {
        case ExportFormat::Json: return traceToJson(trace, request.layer);
        case ExportFormat::Csv: return exportCsv(trace, request);
        case ExportFormat::Markdown: return exportText(trace, request, true);
        default: return exportText(trace, request, false);
    }
}

std::string matrixToJson(const Mat& m) {
    return Json{{"rows", m.rows()}, {"cols", m.cols()}, {"data", matrixJson(m)}}.dump();
}

}  // namespace attnscope
