#pragma once
// What the window shows: the lesson, the sentence and the last trace that ran successfully.
// A failed run never replaces the trace, so the screen always holds a valid state.
#include <optional>
#include <string>
#include <vector>

#include "core/lesson/lesson.hpp"
#include "core/base/result.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

struct RunSettings;

class Session {
public:
    // Replaces the lesson and runs it on its own sentence; on error nothing changes.
    Result<void> openLesson(Lesson lesson);
    // Runs the lesson on a new sentence; on error the previous trace stays.
    Result<void> setSentence(std::string sentence);
    // Runs again after the lesson was edited in place.
    Result<void> rerun();
    // Runs the sentence again with these heads switched off (0-based; empty: none), as
    // RunSettings::ablate; on error the previous heads and trace stay. A new lesson starts with none.
    Result<void> setAblation(std::vector<HeadRef> heads);
    const std::vector<HeadRef>& ablation() const { return ablate_; }

    bool hasLesson() const { return hasLesson_; }
    Lesson& lesson() { return lesson_; }
    const Lesson& lesson() const { return lesson_; }
    const std::string& sentence() const { return sentence_; }
    const Trace& trace() const { return trace_; }
    int decimals() const { return lesson_.decimals; }

private:
    RunSettings settings() const;  // the heads switched off

    Lesson lesson_;
    std::string sentence_;
    Trace trace_;
    std::vector<HeadRef> ablate_;
    bool hasLesson_ = false;
};

}  // namespace attnscope
