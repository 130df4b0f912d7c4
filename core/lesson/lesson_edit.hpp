#pragma once
// Changes a lesson editor asks for: adding, renaming and deleting words of the embedding table,
// and changing d_model, H, d_k and d_v. Each returns the changed lesson, or an Error and nothing
// changed; the result always passes validateLesson, so the run after it is valid.
#include <string>

#include "core/base/result.hpp"
#include "core/lesson/lesson.hpp"

namespace attnscope {

// A new word gets a row of zeros at the end of the table, so it starts out contributing nothing.
// A word must be exactly one token as the lesson's tokenizer reads it (not empty, no space or
// punctuation, lower case when the lesson lower-cases) and not already in the table.
Result<Lesson> addLessonWord(const Lesson& lesson, const std::string& word);
Result<Lesson> renameLessonWord(const Lesson& lesson, const std::string& from, const std::string& to);
Result<Lesson> deleteLessonWord(const Lesson& lesson, const std::string& word);

struct LessonDimensions {
    int dModel = 1;
    int numHeads = 1;
    int dK = 1;
    int dV = 1;
};

LessonDimensions dimensionsOf(const Lesson& lesson);

// Every matrix keeps its top-left block that fits the new shape; new cells are zero, new heads
// are all zeros, new feature names are their 0-based index. Ranges as in a lesson file.
Result<Lesson> resizeLesson(const Lesson& lesson, const LessonDimensions& dims);

}  // namespace attnscope
