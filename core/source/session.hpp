#pragma once
// What the window shows: the lesson, the sentence and the last trace that ran successfully.
// A failed run never replaces the trace, so the screen always holds a valid state.
#include <optional>
#include <string>

#include "core/lesson/lesson.hpp"
#include "core/base/result.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

class Session {
public:
    // Replaces the lesson and runs it on its own sentence; on error nothing changes.
    Result<void> openLesson(Lesson lesson);
    // Runs the lesson on a new sentence; on error the previous trace stays.
    Result<void> setSentence(std::string sentence);
    // Runs again after the lesson was edited in place.
    Result<void> rerun();

    bool hasLesson() const { return hasLesson_; }
    Lesson& lesson() { return lesson_; }
    const Lesson& lesson() const { return lesson_; }
    const std::string& sentence() const { return sentence_; }
    const Trace& trace() const { return trace_; }
    int decimals() const { return lesson_.decimals; }

private:
    Lesson lesson_;
    std::string sentence_;
    Trace trace_;
    bool hasLesson_ = false;
};

}  // namespace attnscope
