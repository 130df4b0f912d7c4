// Trace exports: aligned text, tidy CSV, Markdown worksheets and the JSON trace schema.
#include "core/export/export.hpp"
#include "core/export/trace_npz.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/trace/ablation.hpp"
#include "core/trace/explain.hpp"
#include "core/export/table_format.hpp"
#include "core/export/trace_stream.hpp"
#include "core/text/messages.hpp"
#include "core/text/utf8.hpp"
#include "core/trace/kv_cost.hpp"
#include "core/trace/token_names.hpp"

namespace attnscope {

using Json = nlohmann::ordered_json;

std::optional<ExportFormat> exportFormatFromName(std::string_view name) {
    if (name == "text") return ExportFormat::Text;
    if (name == "json") return ExportFormat::Json;
    if (name == "csv") return ExportFormat::Csv;
    if (name == "npy" || name == "npz") return ExportFormat::Npy;
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
    // The block after attention follows the last layer only (and exists only in lessons that have it).
    if (request.step && isBlockStep(*request.step) &&
        (layer != trace.layerCount() - 1 || stepMatrix(trace, *request.step, layer, 0).size() == 0))
        return;
    const std::vector<Step> steps = request.step ? std::vector<Step>{*request.step} : stepsOf(trace, layer);
    for (const Step step : steps) {
        if (!request.selection.hasStep(step)) continue;
        if (!isPerHead(step)) {
            blocks.push_back({step, layer, 0});
            continue;
        }
        for (int h = 0; h < trace.headCount(); ++h)
            if (printsHead(request, h)) blocks.push_back({step, layer, h});
    }
}

std::vector<Block> blocksFor(const Trace& trace, const ExportRequest& request) {
    std::vector<Block> blocks;
    for (int l = 0; l < trace.layerCount(); ++l)
        if ((!request.layer || *request.layer == l) && request.selection.hasLayer(l)) addLayerBlocks(trace, request, l, blocks);
    return blocks;
}

std::string blockTitle(const Trace& trace, const Block& b, Language language) {
    std::string title = stepTitleIn(trace, b.step, b.layer, language);
    const bool titleNamesLayer = b.step == Step::Input && b.layer > 0;
    if (trace.layerCount() > 1 && !titleNamesLayer)
        title = fillMessage(message(MessageId::TitleInLayer, language), {std::to_string(b.layer + 1), title});
    if (isPerHead(b.step) && trace.headCount() > 1)
        title = fillMessage(message(MessageId::TitleOfHead, language), {title, std::to_string(b.head + 1)});
    if (readsKeyValueHead(b.step)) title += kvSharingText(trace, b.layer, b.head, language, true);
    return title;
}

// A block's cells as a table.
Table tableOf(const Trace& trace, const Block& b, int decimals, Language language = Language::English) {
    return attnscope::tableOf(trace, b.step, b.layer, b.head, decimals, language);
}

std::vector<std::string> explanationsOf(const Trace& trace, const Block& b, int decimals, Language language) {
    std::vector<std::string> out;
    const GridRef m = stepMatrix(trace, b.step, b.layer, b.head);
    for (int r = 0; r < m.rows(); ++r)
        for (int c = 0; c < m.cols(); ++c) {
            auto e = explainCell(trace, CellRef{b.step, b.layer, b.head, r, c}, decimals, language);
            if (!e) continue;
            for (const std::string& line : e.value().lines) out.push_back(line);
            out.emplace_back();
        }
    return out;
}

// Grouped-query runs: what sharing keys costs and saves, H_kv = H, H/2, 1 (core/trace/kv_cost).
void writeKeyValueCosts(std::ostream& out, const Trace& trace, Language language, bool markdown) {
    const std::vector<std::string> lines = keyValueCostLines(trace, language);
    for (std::size_t i = 0; i < lines.size(); ++i)
        out << (i == 0 ? (markdown ? "\n" : "") : (markdown ? "- " : "  ")) << lines[i] << (i == 0 && markdown ? "\n\n" : "\n");
}

std::string exportText(const Trace& trace, const ExportRequest& request, bool markdown) {
    std::ostringstream out;
    const std::string separator = markdown ? " · " : " | ";
    const Language language = request.language;
    out << message(markdown ? MessageId::LabelTokensMarkdown : MessageId::LabelTokens, language)
        << tokenLine(trace.tokens, separator, MarkMadeUp::Yes) << "\n";
    if (trace.isCrossAttention())  // the columns of scores and weights, the rows of K and V
        out << (markdown ? "\n" : "") << message(markdown ? MessageId::LabelSourceTokensMarkdown : MessageId::LabelSourceTokens, language)
            << tokenLine(trace.keyTokens, separator, MarkMadeUp::Yes) << "\n";
    out << (markdown ? "\n" : "");
    if (trace.handRounding)
        out << fillMessage(message(MessageId::LabelHandRounding, language), {std::to_string(*trace.handRounding)}) << "\n";
    for (const std::string& n : noticeTexts(trace.notices, language))
        out << (markdown ? "> " : "") << message(MessageId::LabelNotice, language) << n << "\n";
    writeKeyValueCosts(out, trace, language, markdown);
    for (const Block& b : blocksFor(trace, request)) {
        const Table t = tableOf(trace, b, request.decimals, language);
        out << "\n" << (markdown ? "### " : "== ") << blockTitle(trace, b, request.language) << (markdown ? "" : " ==") << "\n";
        if (markdown) {
            out << "\n";
            writeMarkdownTable(out, t);
        } else {
            writeTextTable(out, t);
        }
        if (!request.explain) continue;
        out << "\n";
        for (const std::string& line : explanationsOf(trace, b, request.decimals, request.language))
            out << (markdown && !line.empty() ? "    " : "") << line << "\n";
    }
    return out.str();
}

}  // namespace

bool printsHead(const ExportRequest& request, int head) {
    return (!request.head || *request.head == head) && request.selection.hasHead(head);
}

std::vector<bool> headsPrinted(const ExportRequest& request, int heads) {
    std::vector<bool> printed;
    for (int h = 0; h < heads; ++h) printed.push_back(printsHead(request, h));
    return printed;
}

std::string traceToJson(const Trace& trace, std::optional<int> onlyLayer) {
    std::string out;
    TraceSelection selection;
    JsonTail tail;
    if (onlyLayer) {
        selection.layers = {*onlyLayer};
        tail.emplace_back("layer_index", *onlyLayer + 1);
    }
    writeTraceJson(trace, stringSink(out), NumberSpelling::Exact, selection, tail);
    return out;
}

namespace {

// Grouped-query attention (a layer lists each query head's key/value head): the CSV gains a last
// column kv_head, the key/value head a per-head row's query head reads (1-based). Without it the
// columns stay as they were.
bool hasKeyValueHeads(const Trace& trace) {
    return std::any_of(trace.layers.begin(), trace.layers.end(), [](const LayerTrace& l) { return !l.kvHeadOf.empty(); });
}

std::string kvHeadField(const Trace& trace, const Block& b) {
    const auto& kvHeadOf = trace.layers[static_cast<std::size_t>(b.layer)].kvHeadOf;
    const bool known = isPerHead(b.step) && static_cast<std::size_t>(b.head) < kvHeadOf.size();
    return known ? "," + std::to_string(kvHeadOf[static_cast<std::size_t>(b.head)] + 1) : ",";
}

}  // namespace

bool writeTraceCsv(const Trace& trace, const ExportRequest& request, const TextSink& sink, bool header,
                   std::optional<int> layerNumber) {
    const bool kvColumn = hasKeyValueHeads(trace);
    if (header && !sink(kvColumn ? "step,layer,head,row,row_label,col,col_label,value,kv_head\n"
                                 : "step,layer,head,row,row_label,col,col_label,value\n"))
        return false;
    std::string out;
    for (const Block& b : blocksFor(trace, request)) {
        const Table t = tableOf(trace, b, request.decimals);
        const std::string prefix = std::string(stepKey(b.step)) + "," + std::to_string(layerNumber.value_or(b.layer + 1)) +
                                   "," + (isPerHead(b.step) ? std::to_string(b.head + 1) : "") + ",";
        const std::string suffix = (kvColumn ? kvHeadField(trace, b) : "") + "\n";
        for (std::size_t r = 0; r < t.rows.size(); ++r) {
            const std::string rowPart = std::to_string(r + 1) + "," + csvField(t.rows[r]) + ",";
            for (std::size_t c = 0; c < t.columns.size(); ++c)
                out.append(prefix).append(rowPart).append(std::to_string(c + 1)).append(",")
                    .append(csvField(t.columns[c])).append(",").append(t.cells[r][c]).append(suffix);
        }
        if (!sink(out)) return false;
        out.clear();
    }
    return true;
}

std::string exportTrace(const Trace& trace, ExportFormat format, const ExportRequest& request) {
    std::string out;
    switch (format) {
        case ExportFormat::Json:
        case ExportFormat::Npy: {
            TraceSelection selection = request.selection;
            JsonTail tail;
            if (request.layer) {
                selection.layers = {*request.layer};
                tail.emplace_back("layer_index", *request.layer + 1);
            }
            if (request.selection.any()) tail.emplace_back("selection", selectionJson(request.selection));
            if (format == ExportFormat::Npy) writeTraceNpz(trace, stringSink(out), NumberSpelling::Exact, selection, tail);
            else writeTraceJson(trace, stringSink(out), NumberSpelling::Exact, selection, tail);
            return out;
        }
        case ExportFormat::Csv: return writeTraceCsv(trace, request, stringSink(out)), out;
        case ExportFormat::Markdown: return exportText(trace, request, true);
        default: return exportText(trace, request, false);
    }
}

std::string matrixToJson(const Mat& m) {
    Json rows = Json::array();
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        Json row = Json::array();
        for (Eigen::Index c = 0; c < m.cols(); ++c) {
            const double v = m(r, c);
            row.push_back(std::isnan(v) ? Json("nan") : std::isinf(v) ? Json(v < 0 ? "-inf" : "inf") : Json(v));
        }
        rows.push_back(std::move(row));
    }
    return Json{{"rows", m.rows()}, {"cols", m.cols()}, {"data", std::move(rows)}}.dump();
}

}  // namespace attnscope
