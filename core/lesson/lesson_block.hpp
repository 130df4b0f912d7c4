#pragma once
// The "block" of a lesson file (format version 6): what follows the last attention layer, read,
// checked and written (docs/lesson-format.md, "The block after attention").
// Shape legend: d model width, d_ff feed-forward width, V the words of the embedding table.
#include <string>

#include "core/lesson/lesson.hpp"
#include "core/lesson/lesson_fields.hpp"

namespace attnscope {

// Reads doc["block"] when present (errors name the field; a block needs version 6).
void readLessonBlock(const lesson_fields::Field& doc, int version, Lesson& lesson);
// The "block" object of a lesson that has one (Lesson::block.present()).
Json lessonBlockJson(const LessonBlock& block);
// Every shape against d_model, d_ff and the words of the table; ε > 0; finite numbers.
Result<void> validateLessonBlock(const Lesson& lesson, const std::string& source);
// The block's weights as the run records them (a tied head: the embedding table transposed, d×V).
BlockTrace blockWeights(const Lesson& lesson);
// The head's columns: the words of the embedding table, in file order (V).
std::vector<std::string> lessonVocabulary(const Lesson& lesson);

}  // namespace attnscope
