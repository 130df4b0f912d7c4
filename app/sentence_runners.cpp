#include "app/sentence_runners.hpp"

#include <QFile>
#include <QFileInfo>

#include "core/run_lesson.hpp"

namespace attnscope {

SentenceRunner modelSentenceRunner(std::shared_ptr<const OpenedModel> model) {
    return [model = std::move(model)](const std::string& sentence) -> Result<Trace> {
        RunControl control;
        control.fullDetailMaxTokens = 0;  // coreference needs the weights only
        control.topK = 1;
        auto run = runSentence(*model, sentence, control);
        if (!run) return run.error();
        return std::move(run).value().trace;
    };
}

SentenceRunner lessonSentenceRunner(std::shared_ptr<const Lesson> lesson) {
    return [lesson = std::move(lesson)](const std::string& sentence) { return runLesson(*lesson, sentence); };
}

QStringList builtInCorefSets() { return {":/coref/english.jsonl", ":/coref/chinese.jsonl"}; }

Result<CorefSet> loadCorefSet(const QString& pathOrResource) {
    QFile file(pathOrResource);
    const std::string name = QFileInfo(pathOrResource).fileName().toStdString();
    if (!file.open(QIODevice::ReadOnly))
        return Error{pathOrResource.toStdString(), "cannot be read: " + file.errorString().toStdString()};
    const QByteArray text = file.readAll();
    // Built-in sets are named by file name in messages; files by their path as given.
    const std::string source = pathOrResource.startsWith(":/") ? name : pathOrResource.toStdString();
    return parseCorefSet(std::string_view(text.constData(), static_cast<std::size_t>(text.size())), source);
}

}  // namespace attnscope
