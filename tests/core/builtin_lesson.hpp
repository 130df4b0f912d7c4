#pragma once
// The built-in lessons (resources/lessons/NAME.json) for core tests, read from the source tree;
// a test fails at once if one cannot be read or parsed.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "core/lesson/lesson.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/io/text_file.hpp"

namespace attnscope::testing {

inline Lesson builtInLesson(const std::string& name) {
    const auto path = std::filesystem::path(ATTNSCOPE_SOURCE_DIR) / "resources/lessons" / (name + ".json");
    auto text = readTextFile(path);
    REQUIRE(text.ok());
    auto lesson = parseLesson(text.value(), path.string());
    INFO((lesson ? std::string() : lesson.error().text()));
    REQUIRE(lesson.ok());
    return std::move(lesson).value();
}

// The lesson run on `sentence`, or on its own sentence when empty.
inline Trace runBuiltInLesson(const std::string& name, const std::string& sentence = {}) {
    const Lesson lesson = builtInLesson(name);
    auto trace = runLesson(lesson, sentence.empty() ? lesson.sentence : sentence);
    REQUIRE(trace.ok());
    return std::move(trace).value();
}

}  // namespace attnscope::testing
