#include "app/cli_session.hpp"

#include <QFileInfo>

#include "app/cli_support.hpp"
#include "app/file_hashes.hpp"
#include "core/lesson/encoder_decoder_stage.hpp"
#include "core/source/saved_session.hpp"
#include "core/trace/ablation.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/qt_text.hpp"

namespace attnscope {

namespace {

bool given(const QStringList& arguments, const QString& option) {
    return std::any_of(arguments.begin(), arguments.end(),
                       [&](const QString& a) { return a == "--" + option || a.startsWith("--" + option + "="); });
}

// The session's options the command line did not give itself.
void addSessionOptions(QStringList& arguments, const SavedSession& s) {
    const auto add = [&](const QString& option, const QString& value) {
        if (!given(arguments, option)) arguments << "--" + option << value;
    };
    if (!given(arguments, "model") && !given(arguments, "lesson"))
        arguments << (s.kind == SessionSource::Model ? "--model" : "--lesson") << qs(s.source);
    add("sentence", qs(s.sentence));
    // A decoder stage's heads and layers are that stage's: the command line must act on it too
    // (without --stage it keeps the encoder, the stage a session without one meant).
    if (const auto stage = stageOfKey(s.stage); stage && *stage != EncoderDecoderStage::Encoder) add("stage", qs(s.stage));
    if (!s.ablated.empty()) add("ablate", qs(headSpecText(s.ablated)));
    if (!given(arguments, "layers")) add("layer", QString::number(s.layer + 1));
    if (!given(arguments, "heads")) add("head", QString::number(s.head + 1));
    // The window's figure as it was shaded (View: weight × ‖value‖), for the PNG it exports.
    if (s.norms && given(arguments, "export-png") && !given(arguments, "norms")) arguments << "--norms";
}

void noticeChangedFiles(const SavedSession& s) {
    if (!QFileInfo::exists(qs(s.source))) return;  // a hub id: not hashed here
    const std::vector<std::string> changed = changedFiles(s.files, hashSourceFiles(qs(s.source)));
    if (changed.empty()) return;
    QStringList names;
    for (const std::string& n : changed) names << qs(n);
    notice(translate("cli", "%1 changed on disk since the session was saved: %2; it runs as it is now")
               .arg(qs(s.source), names.join(", "))
               .toStdString());
}

}  // namespace

std::optional<QString> sessionOption(const QStringList& arguments) {
    for (int i = 0; i < arguments.size(); ++i) {
        if (arguments[i].startsWith("--session-file=")) return arguments[i].mid(15);
        if (arguments[i] == "--session-file") return i + 1 < arguments.size() ? arguments[i + 1] : QString();
    }
    return std::nullopt;
}

std::optional<std::string> withSessionOptions(QStringList& arguments) {
    const auto path = sessionOption(arguments);
    if (!path) return std::nullopt;
    if (path->isEmpty()) return translate("cli", "--session-file needs a session FILE (File ▸ Save session)").toStdString();
    const auto session = readSessionFile(path->toStdString());
    if (!session) return coreErrorString(session.error());
    const int at = arguments.indexOf("--session-file");
    if (at >= 0) arguments.remove(at, 2);
    else arguments.removeIf([](const QString& a) { return a.startsWith("--session-file="); });
    addSessionOptions(arguments, session.value());
    noticeChangedFiles(session.value());
    return std::nullopt;
}

int runWithSession(const QStringList& arguments, int (*run)(const QStringList&)) {
    QStringList expanded = arguments;
    if (auto error = withSessionOptions(expanded)) return fail(*error);
    return run(expanded);
}

}  // namespace attnscope
