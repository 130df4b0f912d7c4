#include "app/sentence_runners.hpp"

#include <QFileInfo>

#include "app/lesson_source.hpp"
#include "core/io/text_file.hpp"

#include "core/lesson/run_lesson.hpp"

namespace attnscope {

SentenceRunner modelSentenceRunner(std::shared_ptr<const OpenedModel> model, int detailLayer,
                                   std::vector<HeadRef> ablate) {
    return [model = std::move(model), detailLayer, ablate = std::move(ablate)](const std::string& sentence) -> Result<Trace> {
        RunControl control;
        control.ablate = ablate;
        control.fullDetailMaxTokens = 0;  // coreference needs the weights only,
        control.allWeightsBudget = SIZE_MAX;  // of every layer: never a long run (core/model/long_run.hpp)
        control.detailLayer = detailLayer;
        control.topK = 1;
        auto run = runSentence(*model, sentence, control);
        if (!run) return run.error();
        return std::move(run).value().trace;
    };
}

SentenceRunner lessonSentenceRunner(std::shared_ptr<const Lesson> lesson, std::vector<HeadRef> ablate) {
    return [lesson = std::move(lesson), ablate = std::move(ablate)](const std::string& sentence) {
        RunSettings settings;
        settings.ablate = ablate;
        return runLesson(*lesson, sentence, settings);
    };
}

QStringList builtInCorefSets() { return {":/coref/english.jsonl", ":/coref/chinese.jsonl"}; }

Result<CorefSet> loadCorefSet(const QString& pathOrResource) {
    const std::string name = QFileInfo(pathOrResource).fileName().toStdString();
    auto text = readResourceOrFile(pathOrResource, kMaxCorefSetBytes);
    if (!text) return text.error();
    // Built-in sets are named by file name in messages; files by their path as given.
    const std::string source = pathOrResource.startsWith(":/") ? name : pathOrResource.toStdString();
    return parseCorefSet(text.value(), source);
}

}  // namespace attnscope
