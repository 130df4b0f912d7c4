#pragma once
// The lesson editor's changes to the block after attention (format version 6): which parts it has
// (residual, the kinds of norm and feed-forward network, the output head) and keeping its weights
// in shape when d_model or the words of the table change. Each result passes validateLesson.
// Shape legend: d model width, d_ff feed-forward width, V the words of the embedding table.
#include "core/base/result.hpp"
#include "core/lesson/lesson.hpp"

namespace attnscope {

enum class OutputHeadChoice { None, Tied, Own };

struct LessonBlockChoice {
    bool residual = false;
    BlockNorm norm = BlockNorm::None;
    BlockFfn ffn = BlockFfn::None;
    int dFf = 4;  // the feed-forward width for a new network (an existing one keeps its own)
    BlockNorm finalNorm = BlockNorm::None;
    OutputHeadChoice head = OutputHeadChoice::None;
};

LessonBlockChoice blockChoiceOf(const Lesson& lesson);
// A part switched on starts neutral: γ = 1, β = 0, ε = 0.00001; a new feed-forward network has
// zero weights (d×d_ff, d_ff×d) for the teacher to fill; an own output head starts as the
// embedding table transposed (d×V). A part switched off loses its weights.
Result<Lesson> applyLessonBlockChoice(const Lesson& lesson, const LessonBlockChoice& choice);

// d_model changed: every block weight keeps its top-left block, γ's new entries are 1.
void resizeLessonBlock(Lesson& lesson, int dModel);
// A word added at the end of the table (a zero column of an own W_vocab and b_vocab) or the word at
// `index` deleted (its column).
void addVocabularyWord(Lesson& lesson);
void deleteVocabularyWord(Lesson& lesson, int index);

}  // namespace attnscope
