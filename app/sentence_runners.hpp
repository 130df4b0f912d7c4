#pragma once
// How the app turns a sentence into a Trace for core's coreference evaluation, shared by the
// command line (attnscope heads) and the window's Heads tab: a lesson or an opened model, each
// captured by a shared pointer so a run on a worker thread keeps it alive.
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>

#include "core/source/model_session.hpp"
#include "core/analysis/coref_eval.hpp"
#include "core/analysis/token_movement_run.hpp"
#include "core/lesson/lesson.hpp"
#include "core/lesson/run_encoder_decoder.hpp"

namespace attnscope {

// Every layer's weights, nothing in full detail (the evaluation reads weights only), except layer
// `detailLayer` (0-based; -1: none), kept in full detail (its queries and keys: attnscope qk).
// `ablate`: heads switched off in every run (attnscope compare, the Compare tab's sentence B).
SentenceRunner modelSentenceRunner(std::shared_ptr<const OpenedModel> model, int detailLayer = -1,
                                   std::vector<HeadRef> ablate = {});
// A lesson's runners: with `stage` (an encoder–decoder's), that stage with every stage's heads off
// as the view holds them, except the shown stage's: `ablate` (core's runEncoderDecoderStage).
SentenceRunner lessonSentenceRunner(std::shared_ptr<const Lesson> lesson, std::vector<HeadRef> ablate = {},
                                    std::optional<StageView> stage = std::nullopt);

// A sentence's norm-weighted Trace (core's normWeightedTrace: every head's weights replaced by its
// "weight × ‖value‖" shares), run as the runners above run it (`ablate` off); cancel through the
// RunControl. The Compare tab's sentence B when the attention views are shaded by weight × ‖value‖.
using NormSentenceRunner = std::function<Result<Trace>(const std::string& sentence, const RunControl& control)>;
NormSentenceRunner modelNormSentenceRunner(std::shared_ptr<const OpenedModel> model, std::vector<HeadRef> ablate = {});
NormSentenceRunner lessonNormSentenceRunner(std::shared_ptr<const Lesson> lesson, std::vector<HeadRef> ablate = {},
                                            std::optional<StageView> stage = std::nullopt);

// A sentence's Trace with its residual states (core's StatesRun), `detailLayer` (0-based; -1: none)
// in full detail, run as the runners above run it; cancel and progress through the RunControl. The
// X → Y tab: what attention did to each word of sentence A, one word of A and of B compared.
using StatesSentenceRunner = std::function<Result<StatesRun>(const std::string& sentence, int detailLayer, const RunControl& control)>;
StatesSentenceRunner modelStatesRunner(std::shared_ptr<const OpenedModel> model, std::vector<HeadRef> ablate = {});
StatesSentenceRunner lessonStatesRunner(std::shared_ptr<const Lesson> lesson, std::vector<HeadRef> ablate = {},
                                        std::optional<StageView> stage = std::nullopt);

// Makes the random-weights control's runner (withShuffledWeights; heavy: call it off the GUI thread).
using ControlRunnerFactory = std::function<Result<SentenceRunner>()>;

// The shipped sets (resources/coref/*.jsonl, compiled in): ":/coref/english.jsonl", …
QStringList builtInCorefSets();
// A file path or a built-in ":/coref/…" resource; errors name the file, line and field.
Result<CorefSet> loadCorefSet(const QString& pathOrResource);

}  // namespace attnscope
