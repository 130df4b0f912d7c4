#include <catch2/catch.hpp>

#include "core/lesson/lesson_tokenizer.hpp"

using attnscope::lessonTokenize;
using Tokens = std::vector<std::string>;

TEST_CASE("lesson tokenizer splits words and keeps punctuation", "[tokenizer]") {
    CHECK(lessonTokenize("Hello, world!", true).value() == Tokens{"hello", ",", "world", "!"});
    CHECK(lessonTokenize("Hello, world!", false).value() == Tokens{"Hello", ",", "world", "!"});
    CHECK(lessonTokenize("  many   spaces\t\nand tabs ", true).value() == Tokens{"many", "spaces", "and", "tabs"});
    CHECK(lessonTokenize("a...b", true).value() == Tokens{"a", ".", ".", ".", "b"});
}

TEST_CASE("an apostrophe inside a word stays in it", "[tokenizer]") {
    CHECK(lessonTokenize("The animal didn't cross", true).value() == Tokens{"the", "animal", "didn't", "cross"});
    CHECK(lessonTokenize("'quoted'", true).value() == Tokens{"'", "quoted", "'"});
}

TEST_CASE("every CJK character is its own token", "[tokenizer]") {
    CHECK(lessonTokenize("笔记本", true).value() == Tokens{"笔", "记", "本"});
    CHECK(lessonTokenize("我的笔记本很好。", true).value() == Tokens{"我", "的", "笔", "记", "本", "很", "好", "。"});
    CHECK(lessonTokenize("AI和笔记本", true).value() == Tokens{"ai", "和", "笔", "记", "本"});
}

TEST_CASE("empty and blank sentences give no tokens", "[tokenizer]") {
    CHECK(lessonTokenize("", true).value().empty());
    CHECK(lessonTokenize("   \t ", true).value().empty());
}

TEST_CASE("non-UTF-8 input is refused with the byte offset", "[tokenizer]") {
    const auto r = lessonTokenize("ok \xff bad", true);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().text().find("UTF-8") != std::string::npos);
    CHECK(r.error().text().find("byte 3") != std::string::npos);
    CHECK_FALSE(lessonTokenize("\xc0\xaf", true).ok());          // overlong '/'
    CHECK_FALSE(lessonTokenize("\xed\xa0\x80", true).ok());      // surrogate
    CHECK_FALSE(lessonTokenize("\xe4\xbd", true).ok());          // truncated
}

TEST_CASE("emoji and accents stay inside words", "[tokenizer]") {
    CHECK(lessonTokenize("café 🙂", true).value() == Tokens{"café", "🙂"});
}
