#include "app/cli_stream.hpp"

#include <QCommandLineParser>

#include "app/cli_support.hpp"
#include "core/analysis/head_order.hpp"
#include "core/io/atomic_file.hpp"
#include "core/text/error_messages.hpp"
#include "ui/common/core_error_text.hpp"

namespace attnscope {

namespace {

// One of --layers / --heads: counted from 1, 0-based out.
std::optional<std::string> readIndices(const QCommandLineParser& parser, const char* name, int count,
                                       std::vector<int>& out) {
    if (!parser.isSet(name)) return std::nullopt;
    const std::string option = std::string("--") + name;
    if (parser.value(name).trimmed().isEmpty())
        return translate("cli", "%1: an empty list (give numbers counted from 1, e.g. 1,3-5)").arg(option.c_str()).toStdString();
    auto indices = parseIndexList(parser.value(name).toStdString(), count, ErrorText::verbatim(option));
    if (!indices) return coreErrorString(indices.error());
    out = std::move(indices).value();
    return std::nullopt;
}

std::optional<std::string> readSteps(const QCommandLineParser& parser, std::vector<Step>& out) {
    if (!parser.isSet("steps")) return std::nullopt;
    const QStringList names = parser.value("steps").split(',');
    for (const QString& name : names) {
        const auto step = stepFromKey(name.trimmed().toStdString());
        if (!step)
            return translate("cli", "--steps: unknown step \"%1\" (see --help)").arg(name.trimmed()).toStdString();
        if (std::find(out.begin(), out.end(), *step) == out.end()) out.push_back(*step);
    }
    return std::nullopt;
}

}  // namespace

void addSelectionOptions(QCommandLineParser& parser) {
    parser.addOptions({
        {"layers", translate("cli", "Only these layers, counted from 1 (e.g. 1,3-5): json, csv, text and markdown."), "list"},
        {"heads", translate("cli", "Only these heads, counted from 1 (e.g. 2,7)."), "list"},
        {"steps", translate("cli", "Only these steps, comma-separated, named as for --step."), "list"},
        {"output", translate("cli", "With --print: write to FILE instead of standard output (replaced only once "
                   "everything was written)."), "file"},
    });
}

std::optional<std::string> readSelection(const QCommandLineParser& parser, int layers, int heads,
                                         TraceSelection& selection) {
    for (const auto& [one, many] : {std::pair{"layer", "layers"}, std::pair{"head", "heads"}, std::pair{"step", "steps"}})
        if (parser.isSet(one) && parser.isSet(many))
            return eitherNotBoth((std::string("--") + one).c_str(), (std::string("--") + many).c_str());
    if (auto bad = readIndices(parser, "layers", layers, selection.layers)) return bad;
    if (auto bad = readIndices(parser, "heads", heads, selection.heads)) return bad;
    if (parser.isSet("steps") && parser.value("steps").trimmed().isEmpty())
        return translate("cli", "--steps: an empty list (give step names as for --step)").toStdString();
    return readSteps(parser, selection.steps);
}

Result<void> writeWhole(const TextSink& sink, const std::string& text, const std::string& target) {
    if (sink(text)) return {};
    return Error{target, errorText(ErrorId::CouldNotBeWritten, std::string("the output refused a write"))};
}

int writeOutput(const QCommandLineParser& parser, const OutputProducer& produce) {
    if (!parser.isSet("output") || parser.value("output") == "-") {  // "-": standard output, as usual
        const std::string target = translate("cli", "standard output").toStdString();
        auto done = produce([](std::string_view text) { return write(text), true; }, target);
        return done.ok() ? 0 : fail(coreErrorString(done.error()));
    }
    const std::string path = parser.value("output").toStdString();
    auto done = writeFileAtomically(path, [&](FileChunkWriter& file) -> Result<void> {
        auto made = produce([&](std::string_view text) { return file.write(text); }, path);
        if (!file.status().ok()) return file.status();  // the OS's reason, not the stopped run's
        return made;
    });
    return done.ok() ? 0 : fail(coreErrorString(done.error()));
}

}  // namespace attnscope
