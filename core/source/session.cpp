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
    ablate_.clear();
    hasLesson_ = true;
    return {};
}

Result<void> Session::setSentence(std::string sentence) {
    auto run = runLesson(lesson_, sentence, settings());
    if (!run) return run.error();
    sentence_ = std::move(sentence);
    trace_ = std::move(run).value();
    return {};
}

Result<void> Session::rerun() {
    if (auto invalid = validateLesson(lesson_, lesson_.title.in("")); !invalid.ok()) return invalid;
    auto run = runLesson(lesson_, sentence_, settings());
    if (!run) return run.error();
    trace_ = std::move(run).value();
    return {};
}

Result<void> Session::setAblation(std::vector<HeadRef> heads) {
    RunSettings ablated;
    ablated.ablate = heads;
    auto run = runLesson(lesson_, sentence_, ablated);
    if (!run) return run.error();
    ablate_ = std::move(heads);
    trace_ = std::move(run).value();
    return {};
}

RunSettings Session::settings() const {
    RunSettings settings;
    settings.ablate = ablate_;
    return settings;
}

}  // namespace attnscope
