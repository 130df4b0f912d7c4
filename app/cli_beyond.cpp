// attnscope norms / lens / dla: the numbers and every format come from core/analysis
// (norm_attention, logit_lens, head_effect); this file reads options, runs the sentence, writes.
#include "app/cli_beyond.hpp"

#include <QCommandLineParser>
#include <climits>
#include <memory>
#include <string>

#include "app/cli_support.hpp"
#include "core/analysis/head_effect.hpp"
#include "core/analysis/logit_lens.hpp"
#include "core/analysis/norm_attention.hpp"
#include "core/source/model_session.hpp"
#include "core/text/error_messages.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/qt_text.hpp"

namespace attnscope {

namespace {

void addOptions(QCommandLineParser& parser) {
    addSubcommandBasics(parser, translate(
        "cli", "attnscope norms: each head's attention on the first and special tokens, by weight and by norm ‖α·f(x)‖.\n"
               "attnscope lens: the logit lens, each layer's top tokens per position.\n"
               "attnscope dla: each head's direct contribution to the predicted token's logit, beside switching it off."),
        translate("cli", "norms, lens or dla"));
    addOptionRows(parser, {
        {"matrix", QT_TRANSLATE_NOOP("cli", "norms: one head's norm-weighted T×T matrix instead (LAYER:HEAD, counted from 1; JSON)."), "head"},
        {"top", QT_TRANSLATE_NOOP("cli", "lens: the K most likely tokens of each cell (default 5)."), "k"},
        {"prediction", QT_TRANSLATE_NOOP("cli", "dla: which prediction to attribute (1 = first; default 1)."), "n"},
        {"no-ablation", QT_TRANSLATE_NOOP("cli", "dla: leave out the ablation ranking (one run of the model per head).")},
        {"ablate", QT_TRANSLATE_NOOP("cli", "Switch these heads off in the run (LAYER:HEAD, counted from 1, comma-separated)."), "heads"},
        kTextJsonCsvRow,
        kTextDecimalsRow,
        kAtomicOutRow,
        kLanguageRow,
    });
}

struct Request {
    std::string command, format;
    int decimals = 3;
    std::shared_ptr<const OpenedModel> model;
    std::vector<HeadRef> ablate;
    std::string sentence;
};

Result<Request> readRequest(const QCommandLineParser& parser) {
    Request r;
    r.command = parser.positionalArguments().value(0).toStdString();
    r.format = parser.value("format").isEmpty() ? "text" : parser.value("format").toStdString();
    if (r.format != "text" && r.format != "json" && r.format != "csv")
        return Error{"--format", translate("cli", "expected text, json or csv, got \"%1\"").arg(qs(r.format)).toStdString()};
    std::string error;
    r.decimals = readCount(parser, "decimals", 0, 12, error).value_or(3);
    if (!error.empty()) return Error{"", error};
    auto opened = openModelOrLesson(parser, translate("cli", "%1 needs --model FOLDER|ID").arg(qs(r.command)));
    if (!opened) return opened.error();
    if (!opened.value().model)
        return Error{"--lesson", translate("cli", "%1 needs a model's weights and output head; give --model").arg(qs(r.command)).toStdString()};
    r.model = opened.value().model;
    if (auto bad = readAblation(parser, r.model->layerCount(), r.model->headCount(), r.ablate)) return Error{"", *bad};
    if (parser.value("sentence").contains(QChar(0xFFFD)))
        return Error{"--sentence", errorText(ErrorId::ExpectedFoundNote, ErrorId::Utf8Text, ErrorId::InvalidBytes, ErrorId::ShownAsFffd)};
    r.sentence = parser.value("sentence").toStdString();
    if (r.sentence.find_first_not_of(" \t") == std::string::npos)
        return Error{"", translate("cli", "%1 needs --sentence TEXT").arg(qs(r.command)).toStdString()};
    return r;
}

// Every layer kept in full detail: the norms read each head's V and the layer's W_O.
Result<ModelRun> runFull(const Request& r, int topK) {
    RunControl control;
    control.ablate = r.ablate;
    control.fullDetailMaxTokens = INT_MAX;
    control.allWeightsBudget = SIZE_MAX;  // never a long run (core/model/long_run.hpp)
    control.topK = topK;
    auto run = runSentence(*r.model, r.sentence, control);
    if (run) notices(run.value().trace.notices);
    return run;
}

std::string sourceText(const Request& r) { return modelShapeText(*r.model, Language::English); }

Result<HeadRef> readMatrixHead(const QCommandLineParser& parser, const Request& r) {
    const QStringList parts = parser.value("matrix").split(':');
    bool okLayer = false, okHead = false;
    const int layer = parts.size() == 2 ? parts[0].toInt(&okLayer) : 0, head = parts.size() == 2 ? parts[1].toInt(&okHead) : 0;
    if (!okLayer || !okHead || layer < 1 || layer > r.model->layerCount() || head < 1 || head > r.model->headCount())
        return Error{"--matrix", translate("cli", "expected LAYER:HEAD with layers 1 to %1 and heads 1 to %2, got \"%3\"")
                                     .arg(r.model->layerCount()).arg(r.model->headCount()).arg(parser.value("matrix")).toStdString()};
    return HeadRef{layer - 1, head - 1};
}

Result<std::string> runNorms(const QCommandLineParser& parser, const Request& r) {
    std::optional<HeadRef> matrix;
    if (parser.isSet("matrix")) {
        auto head = readMatrixHead(parser, r);
        if (!head) return head.error();
        if (r.format != "json") return Error{"--matrix", translate("cli", "is written as JSON; add --format json").toStdString()};
        matrix = head.value();
    }
    auto run = runFull(r, 1);
    if (!run) return run.error();
    const Trace& trace = run.value().trace;
    if (matrix) {
        auto norms = normWeightedAttention(trace, matrix->layer, matrix->head);
        if (!norms) return norms.error();
        return normMatrixToJson(trace, matrix->layer, matrix->head, norms.value());
    }
    auto shares = sinkShares(trace);
    if (!shares) return shares.error();
    if (r.format == "json") return sinkSharesToJson(shares.value(), sourceText(r));
    if (r.format == "csv") return sinkSharesToCsv(shares.value());
    return modelShapeText(*r.model, coreLanguage()) + "\n" + sinkSharesToText(shares.value(), r.decimals, coreLanguage());
}

Result<std::string> runLens(const QCommandLineParser& parser, const Request& r) {
    std::string error;
    const int k = readCount(parser, "top", 1, INT_MAX, error).value_or(5);
    if (!error.empty()) return Error{"", error};
    auto run = runFull(r, k);
    if (!run) return run.error();
    auto lens = logitLens(r.model->model, run.value(), k);
    if (!lens) return lens.error();
    const IdLabel label = [&](int id) { return r.model->tokenizer.label(id); };
    const Trace& trace = run.value().trace;
    if (r.format == "json") return lensToJson(lens.value(), trace, label, sourceText(r));
    if (r.format == "csv") return lensToCsv(lens.value(), trace, label);
    return modelShapeText(*r.model, coreLanguage()) + "\n" + lensToText(lens.value(), trace, label, r.decimals, coreLanguage());
}

Result<std::string> runDla(const QCommandLineParser& parser, const Request& r) {
    std::string error;
    const int prediction = readCount(parser, "prediction", 1, INT_MAX, error).value_or(1) - 1;
    if (!error.empty()) return Error{"", error};
    auto run = runFull(r, 5);
    if (!run) return run.error();
    auto attributed = attributeLogit(r.model->model, run.value(), prediction);
    if (!attributed) return attributed.error();
    std::optional<HeadEffects> effects;
    if (!parser.isSet("no-ablation")) {
        auto ranked = rankHeadsByEffect(r.model->model, run.value(), prediction);
        if (!ranked) return ranked.error();
        effects = std::move(ranked).value();
    }
    const HeadEffects* e = effects ? &*effects : nullptr;
    const IdLabel label = [&](int id) { return r.model->tokenizer.label(id); };
    if (r.format == "json") return attributionToJson(attributed.value(), e, label, sourceText(r));
    if (r.format == "csv") return attributionToCsv(attributed.value(), e);
    return modelShapeText(*r.model, coreLanguage()) + "\n" +
           attributionToText(attributed.value(), e, label, r.decimals, coreLanguage());
}

}  // namespace

bool isBeyondWeightsCommand(const QString& command) { return command == "norms" || command == "lens" || command == "dla"; }

int runBeyondWeightsCommand(const QStringList& arguments) {
    QCommandLineParser parser;
    addOptions(parser);
    if (const auto ended = parseOrAnswer(parser, arguments)) return *ended;
    if (parser.positionalArguments().size() != 1)
        return fail(translate("cli", "%1 expects options only, got %2").arg(arguments[1], parser.positionalArguments().mid(1).join(' ')).toStdString());
    auto request = readRequest(parser);
    if (!request) return fail(coreErrorString(request.error()));
    const Request& r = request.value();
    auto text = r.command == "norms" ? runNorms(parser, r) : r.command == "lens" ? runLens(parser, r) : runDla(parser, r);
    if (!text) return fail(coreErrorString(text.error()));
    return writeOutput(parser, text.value());
}

}  // namespace attnscope
