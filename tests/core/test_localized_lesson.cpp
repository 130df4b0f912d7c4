// Lesson format version 3: title, description and feature names in several languages.
#include <catch2/catch.hpp>
#include <string>

#include "core/lesson/lesson.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/text/localized_text.hpp"
#include "core/trace/trace.hpp"

using namespace attnscope;

namespace {

// A version 3 lesson with `fields` (a JSON fragment ending in a comma) added at the top level.
std::string lessonWith(const std::string& fields, int version = 3) {
    return R"({"format": "attnscope-lesson", "version": )" + std::to_string(version) + ", " + fields +
           R"( "d_model": 2, "projections": false, "embeddings": {"猫": [1, 0], "鼠": [0, 1]}})";
}

std::string errorOf(const std::string& json) {
    const auto lesson = parseLesson(json, "zh.json");
    REQUIRE_FALSE(lesson.ok());
    return lesson.error().text();
}

}  // namespace

TEST_CASE("LocalizedText::in picks the language, then its base language, then English, then any", "[lesson][i18n]") {
    LocalizedText text;
    text.set("zh_CN", "猫");
    text.set("en", "cat");
    CHECK(text.in("zh_CN") == "猫");
    CHECK(text.in("en_US") == "cat");   // same base language
    CHECK(text.in("zh_TW") == "猫");    // same base language, other region
    CHECK(text.in("de_DE") == "cat");   // unknown: English
    CHECK(text.in("") == "cat");
    LocalizedText chineseOnly;
    chineseOnly.set("zh_CN", "猫");
    CHECK(chineseOnly.in("en_US") == "猫");  // no English: the one there is
    const LocalizedText plain("cat");
    CHECK(plain.isPlain());
    CHECK(plain.in("zh_CN") == "cat");  // a plain string is every language's text
    CHECK(LocalizedText().in("en").empty());
}

TEST_CASE("language codes: ll or ll_RR", "[lesson][i18n]") {
    for (const char* good : {"en", "zh_CN", "yue", "pt_BR"}) CHECK(isLanguageCode(good));
    for (const char* bad : {"", "e", "zh-CN", "ZH", "zh_cn", "english", "中文", "zh_CHN", "zh_"}) {
        INFO(bad);
        CHECK_FALSE(isLanguageCode(bad));
    }
}

TEST_CASE("a version 3 lesson gives title, description and features in two languages", "[lesson][i18n]") {
    const auto lesson = parseLesson(
        lessonWith(R"("title": {"en": "Cats", "zh_CN": "猫"}, "description": "same for all",
                      "features": [{"en": "animal", "zh_CN": "动物"}, "small"],)"),
        "zh.json");
    INFO((lesson.ok() ? std::string() : lesson.error().text()));
    REQUIRE(lesson.ok());
    CHECK(lesson.value().title.in("zh_CN") == "猫");
    CHECK(lesson.value().title.in("en_GB") == "Cats");
    CHECK(lesson.value().description.in("zh_CN") == "same for all");
    REQUIRE(lesson.value().featureNames.size() == 2);
    CHECK(lesson.value().featureNames[0].in("zh_CN") == "动物");
    CHECK(lesson.value().featureNames[1].in("zh_CN") == "small");

    // The run carries the names; the axis labels are asked for in a language.
    const auto trace = runLesson(lesson.value(), "猫鼠");
    REQUIRE(trace.ok());
    CHECK(columnLabels(trace.value(), Step::Embedding, 0, 0, "zh_CN") == std::vector<std::string>{"动物", "small"});
    CHECK(columnLabels(trace.value(), Step::Embedding, 0, 0, "en") == std::vector<std::string>{"animal", "small"});
    CHECK(columnLabels(trace.value(), Step::Embedding, 0, 0) == std::vector<std::string>{"animal", "small"});
}

TEST_CASE("saving keeps every language, and an unknown but well-formed code", "[lesson][i18n]") {
    const auto lesson = parseLesson(
        lessonWith(R"("title": {"en": "Cats", "zh_CN": "猫", "fr": "Chats"},
                      "features": [{"en": "animal", "zh_CN": "动物"}, {"zh_CN": "小"}],)"),
        "zh.json");
    REQUIRE(lesson.ok());
    const std::string written = serializeLesson(lesson.value());
    CHECK(written.find("\"version\": 3") != std::string::npos);
    CHECK(written.find("\"fr\": \"Chats\"") != std::string::npos);
    const auto again = parseLesson(written, "written");
    REQUIRE(again.ok());
    CHECK(again.value().title == lesson.value().title);
    CHECK(again.value().description == lesson.value().description);
    CHECK(again.value().featureNames == lesson.value().featureNames);
    CHECK(again.value().title.in("fr_FR") == "Chats");
    CHECK(serializeLesson(again.value()) == written);
}

TEST_CASE("plain texts are still written as version 1 with plain strings", "[lesson][i18n]") {
    const auto lesson = parseLesson(lessonWith(R"("title": "Cats", "features": ["a", "b"],)", 1), "v1.json");
    REQUIRE(lesson.ok());
    const std::string written = serializeLesson(lesson.value());
    CHECK(written.find("\"version\": 1") != std::string::npos);
    CHECK(written.find("\"title\": \"Cats\"") != std::string::npos);
}

TEST_CASE("malformed localized texts name the field and what was expected", "[lesson][i18n][errors]") {
    CHECK_THAT(errorOf(lessonWith(R"("title": 7,)")),
               Catch::Contains("title") && Catch::Contains("expected text, or an object {language: text}") &&
                   Catch::Contains("found the number 7"));
    CHECK_THAT(errorOf(lessonWith(R"("title": {},)")),
               Catch::Contains("title") && Catch::Contains("at least one language, found an empty object"));
    CHECK_THAT(errorOf(lessonWith(R"("description": {"chinese": "猫"},)")),
               Catch::Contains("description.chinese") && Catch::Contains("found \"chinese\""));
    CHECK_THAT(errorOf(lessonWith(R"("title": {"zh-CN": "猫"},)")), Catch::Contains("found \"zh-CN\""));
    CHECK_THAT(errorOf(lessonWith(R"("title": {"en": 3},)")), Catch::Contains("title.en") && Catch::Contains("text"));
    CHECK_THAT(errorOf(lessonWith(R"("features": [{"en": "a"}, []],)")), Catch::Contains("features[1]"));
    // The object form is new in version 3; a version 2 file that uses it says so.
    CHECK_THAT(errorOf(lessonWith(R"("title": {"en": "Cats"},)", 2)),
               Catch::Contains("title") && Catch::Contains("needs \"version\": 3"));
}
