#include "core/source/session.hpp"

#include "core/lesson/run_lesson.hpp"

namespace attnscope {

Result<void> Session::openLesson(Lesson lesson) {
    if (auto invalid = validateLesson(lesson, lesson.title.in("")); !invalid.ok()) return invalid;
    auto run = runLesson(lesson, lesson.sentence);
    if (!run) return run.error();
    sentence_ = lesson.sentence;
    lesson_ = std::move(lesson);
    trace_ = std::move(run).value();
    hasLesson_ = true;
    return {};
}

Result<void> Session::setSentence(std::string sentence) {
    auto run = runLesson(lesson_, sentence);
    if (!run) return run.error();
    sentence_ = std::move(sentence);
    trace_ = std::move(run).value();
    return {};
}

Result<void> Session::rerun() {
    if (auto invalid = validateLesson(lesson_, lesson_.title.in("")); !invalid.ok()) return invalid;
    auto run = runLesson(lesson_, sentence_);
    if (!run) return run.error();
    trace_ = std::move(run).value();
    return {};
}

}  // namespace attnscope
