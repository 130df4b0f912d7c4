// The encoder–decoder run as text or Markdown: the stages in the order the explainers draw them.
#include "core/export/encoder_decoder_export.hpp"

#include <cstdio>

#include "core/text/messages.hpp"

namespace attnscope {

namespace {

std::string joinedTokens(const std::vector<Token>& tokens) {
    std::string text;
    for (const Token& t : tokens) text += (text.empty() ? "" : " ") + t.text;
    return text;
}

std::string fixed(double value, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::vector<std::string> splitColumns(std::string_view header) {
    std::vector<std::string> columns(1);
    for (const char c : header) {
        if (c == '|') columns.emplace_back();
        else columns.back() += c;
    }
    return columns;
}

std::string heading(const std::string& text, bool markdown) { return (markdown ? "## " : "== ") + text + (markdown ? "\n\n" : " ==\n"); }

// A stage's steps; a --step the stage lacks (e.g. logits in the encoder) prints nothing for it.
std::string stageText(const Trace& trace, ExportFormat format, const ExportRequest& request) {
    if (request.step) {
        bool present = false;
        for (int l = 0; l < trace.layerCount() && !present; ++l)
            for (const Step s : stepsOf(trace, l)) present = present || s == *request.step;
        if (!present) return "";
    }
    return exportTrace(trace, format, request);
}

}  // namespace

Table teacherForcingTable(const EncoderDecoderRun& run, int decimals, Language language) {
    Table t;
    std::vector<std::string> names = splitColumns(message(MessageId::TeacherForcingHeader, language));
    t.columns.assign(names.begin() + 1, names.end());  // the first names the row labels
    for (std::size_t i = 0; i < run.labels.size(); ++i) {
        const auto at = static_cast<Eigen::Index>(i);
        t.rows.push_back(std::to_string(i + 1));
        t.cells.push_back({run.cross.tokens.at(i).text, run.labels[i], fixed(run.labelProbability[at], decimals),
                           fixed(run.loss[at], decimals)});
    }
    return t;
}

std::string exportEncoderDecoderStage(const EncoderDecoderRun& run, EncoderDecoderStage stage, ExportFormat format,
                                      const ExportRequest& request) {
    const bool markdown = format == ExportFormat::Markdown;
    const Language language = request.language;
    const auto say = [&](MessageId id, std::initializer_list<std::string_view> args) {
        return fillMessage(message(id, language), args);
    };
    const std::string source = joinedTokens(run.encoder.tokens);
    const Trace& trace = stageTrace(run, stage);
    switch (stage) {
        case EncoderDecoderStage::Encoder: return heading(say(MessageId::StageEncoder, {source}), markdown) + stageText(trace, format, request);
        case EncoderDecoderStage::DecoderSelf:
            return heading(say(MessageId::StageDecoderSelf, {joinedTokens(trace.tokens)}), markdown) + stageText(trace, format, request);
        case EncoderDecoderStage::Cross: break;
    }
    const Table labels = teacherForcingTable(run, request.decimals, language);
    return heading(say(MessageId::StageCross, {joinedTokens(trace.tokens), source}), markdown) + stageText(trace, format, request) +
           "\n" + heading(std::string(message(MessageId::StageLabels, language)), markdown) +
           (markdown ? markdownTable(labels) : textTable(labels)) + "\n" +
           say(MessageId::TeacherForcingMean, {std::to_string(run.labels.size()), fixed(run.meanLoss, request.decimals)}) + "\n";
}

std::string exportEncoderDecoder(const EncoderDecoderRun& run, ExportFormat format, const ExportRequest& request) {
    return exportEncoderDecoderStage(run, EncoderDecoderStage::Encoder, format, request) + "\n" +
           exportEncoderDecoderStage(run, EncoderDecoderStage::DecoderSelf, format, request) + "\n" +
           exportEncoderDecoderStage(run, EncoderDecoderStage::Cross, format, request);
}

}  // namespace attnscope
