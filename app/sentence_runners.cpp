#include "app/sentence_runners.hpp"

#include <QFileInfo>

#include "app/lesson_source.hpp"
#include "core/io/text_file.hpp"
#include "core/lesson/encoder_decoder_stage.hpp"

#include "core/analysis/norm_attention.hpp"
#include "core/lesson/run_lesson.hpp"

namespace attnscope {

namespace {

RunControl weightsOnly(std::vector<HeadRef> ablate, int detailLayer) {
    RunControl control;
    control.ablate = std::move(ablate);
    control.fullDetailMaxTokens = 0;  // coreference needs the weights only,
    control.allWeightsBudget = SIZE_MAX;  // of every layer: never a long run (core/model/long_run.hpp)
    control.detailLayer = detailLayer;
    control.topK = 1;
    return control;
}

}  // namespace

SentenceRunner modelSentenceRunner(std::shared_ptr<const OpenedModel> model, int detailLayer,
                                   std::vector<HeadRef> ablate) {
    return [model = std::move(model), control = weightsOnly(std::move(ablate), detailLayer)](const std::string& sentence) -> Result<Trace> {
        auto run = runSentence(*model, sentence, control);
        if (!run) return run.error();
        return std::move(run).value().trace;
    };
}

NormSentenceRunner modelNormSentenceRunner(std::shared_ptr<const OpenedModel> model, std::vector<HeadRef> ablate) {
    return [model = std::move(model), ablate = std::move(ablate)](const std::string& sentence, const RunControl& outer) -> Result<Trace> {
        RunControl control = weightsOnly(ablate, -1);
        control.cancel = outer.cancel;
        auto run = runSentence(*model, sentence, control);
        if (!run) return run.error();
        control.progress = outer.progress;  // per layer of the norms, the slow part
        return normWeightedTrace(model->model, run.value(), control);
    };
}

NormSentenceRunner lessonNormSentenceRunner(std::shared_ptr<const Lesson> lesson, std::vector<HeadRef> ablate,
                                            std::optional<StageView> stage) {
    return [run = lessonSentenceRunner(std::move(lesson), std::move(ablate), std::move(stage))](const std::string& sentence,
                                                                                               const RunControl&) -> Result<Trace> {
        auto trace = run(sentence);  // a lesson keeps every layer in full detail
        if (!trace) return trace.error();
        return normWeightedTrace(trace.value());
    };
}

SentenceRunner lessonSentenceRunner(std::shared_ptr<const Lesson> lesson, std::vector<HeadRef> ablate, std::optional<StageView> stage) {
    if (stage)
        return [lesson = std::move(lesson), view = withShownStageHeads(*stage, std::move(ablate))](const std::string& sentence) {
            return runEncoderDecoderStage(*lesson, sentence, view);
        };
    return [lesson = std::move(lesson), ablate = std::move(ablate)](const std::string& sentence) {
        RunSettings settings;
        settings.ablate = ablate;
        return runLesson(*lesson, sentence, settings);
    };
}

StatesSentenceRunner modelStatesRunner(std::shared_ptr<const OpenedModel> model, std::vector<HeadRef> ablate) {
    return [model = std::move(model), ablate = std::move(ablate)](const std::string& sentence, int detailLayer, const RunControl& outer) {
        RunControl control;
        control.ablate = ablate;
        control.cancel = outer.cancel;
        control.progress = outer.progress;
        return modelStatesRun(*model, sentence, detailLayer, control);
    };
}

StatesSentenceRunner lessonStatesRunner(std::shared_ptr<const Lesson> lesson, std::vector<HeadRef> ablate, std::optional<StageView> stage) {
    if (stage)
        return [lesson = std::move(lesson), view = withShownStageHeads(*stage, std::move(ablate))](const std::string& sentence, int,
                                                                                               const RunControl&) {
            return stageStatesRun(*lesson, sentence, view);
        };
    return [lesson = std::move(lesson), ablate = std::move(ablate)](const std::string& sentence, int, const RunControl&) {
        RunSettings settings;
        settings.ablate = ablate;
        return lessonStatesRun(*lesson, sentence, settings);  // every layer in full detail
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
