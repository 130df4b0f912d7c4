#pragma once
// core's message catalogue (issue 12): the texts core/ hands to a reader, by id, in English and
// Simplified Chinese, complete in both (tests/core/test_messages.cpp). No Qt here: the caller
// passes the language (the window: the interface language; the command line and the exports:
// English). Terms follow docs/glossary.md. So far: the step titles.
#include <optional>
#include <string>
#include <string_view>

#include "core/trace/trace.hpp"
#include "core/text/language.hpp"

namespace attnscope {

std::optional<Language> languageFromCode(std::string_view code);  // "en", "zh_CN" (also "zh…")

enum class MessageId {
    StepEmbedding, StepInput, StepQuery, StepKey, StepValue, StepScores, StepScaled, StepMasked,
    StepWeights, StepWeightedSum, StepConcat, StepOutput, StepPositional, StepWQ, StepWK, StepWV, StepWO,
    StepMask, StepSourceInput,
    StepMaskedCausalPadding,  // Masked scores of a padded batch, with a causal mask
    StepMaskedPadding,        // … without one
    StepInputResidual,        // {1}: the layer (1-based); {2}, {3}: subscripts of this and the previous layer
    StepInputPassedOn,        // {1}: the layer (1-based); {2}: the previous layer
    Count
};

// The text of `id`; {1}, {2}, … are its arguments (fillMessage).
std::string_view message(MessageId id, Language language);
std::string fillMessage(std::string_view text, std::initializer_list<std::string_view> arguments);

// The catalogue's step title: stepTitle / stepTitleIn (core/trace/trace.hpp) in `language`.
std::string_view stepTitle(Step step, Language language);
std::string stepTitleIn(const Trace& trace, Step step, int layer, Language language);

}  // namespace attnscope
