#pragma once
// One sentence run for "what attention did to each word" (token_movement.hpp): its Trace and its
// residual states, the way `attnscope movement` and the window's X → Y tab both run it, and the
// word the two-context curve starts on.
//
// Shape legend: T tokens, d model width, L layers.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/analysis/token_movement.hpp"
#include "core/lesson/run_encoder_decoder.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/source/model_session.hpp"
#include "core/text/language.hpp"

namespace attnscope {

// What y is at one layer, as its run made it: a lesson's attention output alone (no residual
// connection), a lesson's x + attention output, or a model layer's hidden state (attention and
// feed-forward network, each added to the residual stream, with the model's norms).
enum class LayerOutput { AttentionOnly, AttentionPlusInput, WholeLayer };

struct StatesRun {
    Trace trace;
    std::vector<Mat> states;  // L+1, T×d (residualStates)
    LayerOutput output = LayerOutput::AttentionOnly;
};

// "y = x + the attention output: the residual connection", in `language`.
std::string layerOutputText(LayerOutput output, Language language);

// A lesson keeps every layer in full detail; `settings`: its heads switched off, as the window runs it.
Result<StatesRun> lessonStatesRun(const Lesson& lesson, std::string_view sentence, const RunSettings& settings = {});
// An encoder–decoder lesson's stage as the window shows it (its heads off): the encoder as
// lessonStatesRun runs the lesson; a decoder stage moves each decoder row from the stage's input
// (Y₀, or Y₁ for the cross-attention) to its output plus that input (Y₁, or Y₂).
Result<StatesRun> stageStatesRun(const Lesson& lesson, std::string_view source, const StageView& view);
// A model's run keeping only `detailLayer` (0-based; -1: none) in full detail, whatever T (the sources
// of that layer read its values); a long run (control.allWeightsBudget) rebuilds that layer alone.
// `control`'s cancel, progress, ablate and budget are kept.
Result<StatesRun> modelStatesRun(const OpenedModel& opened, std::string_view sentence, int detailLayer, RunControl control = {});

// The word to compare when none is chosen: a token (not special) whose text appears in both runs,
// case aside, the longest such text; among equally long ones the one the contexts changed most
// (lowest cosine leaving the last layer), then the first in A. None when the sentences share no word.
std::optional<std::pair<int, int>> sameWordDefault(const StatesRun& a, const StatesRun& b);

}  // namespace attnscope
