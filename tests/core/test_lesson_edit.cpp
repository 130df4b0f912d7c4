// The lesson editor's structural changes (core/lesson/lesson_edit): words of the embedding table
// and the dimensions, against matrices written out by hand.
#include <catch2/catch.hpp>

#include "core/lesson/lesson.hpp"
#include "core/lesson/lesson_edit.hpp"
#include "core/lesson/run_lesson.hpp"

using namespace attnscope;

namespace {

// d_model 2, one head, d_k 2, d_v 1, a W_O and a bias on Q: every kind of matrix the resize touches.
const char* kLesson = R"({"format": "attnscope-lesson", "version": 1, "title": "edit", "sentence": "a b",
  "d_model": 2, "heads": 1, "d_k": 2, "d_v": 1, "features": ["x", "y"],
  "embeddings": {"a": [1, 2], "b": [3, 4]},
  "heads_weights": [{"W_Q": [[1, 2], [3, 4]], "W_K": [[5, 6], [7, 8]], "W_V": [[9], [10]], "b_Q": [0.5, -0.5]}],
  "W_O": [[11, 12]]})";

Lesson lesson() {
    auto parsed = parseLesson(kLesson, "edit.json");
    REQUIRE(parsed.ok());
    return parsed.value();
}

Mat mat(std::initializer_list<std::initializer_list<double>> rows) {
    Mat m(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.begin()->size()));
    Eigen::Index r = 0;
    for (const auto& row : rows) {
        Eigen::Index c = 0;
        for (double v : row) m(r, c++) = v;
        ++r;
    }
    return m;
}

std::vector<std::string> words(const Lesson& l) {
    std::vector<std::string> out;
    for (const auto& entry : l.embeddings) out.push_back(entry.first);
    return out;
}

}  // namespace

TEST_CASE("a new word gets a row of zeros at the end and is no longer hashed", "[lesson_edit]") {
    auto added = addLessonWord(lesson(), "c");
    REQUIRE(added.ok());
    CHECK(words(added.value()) == std::vector<std::string>{"a", "b", "c"});
    CHECK(Mat(*added.value().findEmbedding("c")) == mat({{0, 0}}));
    auto run = runLesson(added.value(), "a c");
    REQUIRE(run.ok());
    CHECK(Mat(run.value().layers[0].input.row(1)) == mat({{0, 0}}));  // the hash rule would give non-zero numbers
}

TEST_CASE("renaming keeps the row and its place, deleting removes the row", "[lesson_edit]") {
    auto renamed = renameLessonWord(lesson(), "a", "z");
    REQUIRE(renamed.ok());
    CHECK(words(renamed.value()) == std::vector<std::string>{"z", "b"});
    CHECK(Mat(*renamed.value().findEmbedding("z")) == mat({{1, 2}}));
    auto deleted = deleteLessonWord(lesson(), "a");
    REQUIRE(deleted.ok());
    CHECK(words(deleted.value()) == std::vector<std::string>{"b"});
    CHECK(Mat(*deleted.value().findEmbedding("b")) == mat({{3, 4}}));
}

TEST_CASE("bad words are refused with a message naming the word", "[lesson_edit]") {
    const Lesson l = lesson();
    auto empty = addLessonWord(l, "");
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.error().message == "expected a word, found nothing");
    auto duplicate = renameLessonWord(l, "a", "b");
    REQUIRE_FALSE(duplicate.ok());
    CHECK(duplicate.error().where == "embeddings");
    CHECK(duplicate.error().message == "\"b\" is already in the embedding table");
    auto two = addLessonWord(l, "two words");
    REQUIRE_FALSE(two.ok());
    CHECK(two.error().message ==
          "\"two words\" is read as 2 token(s), two | words; a word of the table must be one token exactly as the "
          "tokenizer reads it");
    auto upper = addLessonWord(l, "Cat");  // the lesson lower-cases: "Cat" could never be looked up
    REQUIRE_FALSE(upper.ok());
    CHECK(upper.error().message.find("cat;") != std::string::npos);
    auto missing = deleteLessonWord(l, "q");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().message == "\"q\" is not in the embedding table");
}

TEST_CASE("growing the dimensions keeps the top-left block and fills zeros", "[lesson_edit]") {
    auto grown = resizeLesson(lesson(), {3, 2, 3, 2});
    REQUIRE(grown.ok());
    const Lesson& g = grown.value();
    CHECK(dimensionsOf(g).dModel == 3);
    CHECK(Mat(*g.findEmbedding("a")) == mat({{1, 2, 0}}));
    REQUIRE(g.layers[0].heads.size() == 2);
    const HeadWeights& h0 = g.layers[0].heads[0];
    CHECK(h0.wq == mat({{1, 2, 0}, {3, 4, 0}, {0, 0, 0}}));
    CHECK(h0.wk == mat({{5, 6, 0}, {7, 8, 0}, {0, 0, 0}}));
    CHECK(h0.wv == mat({{9, 0}, {10, 0}, {0, 0}}));
    CHECK(Mat(h0.bq) == mat({{0.5, -0.5, 0}}));
    CHECK(h0.bk.size() == 0);  // an absent bias stays absent
    const HeadWeights& h1 = g.layers[0].heads[1];
    CHECK(h1.wq == Mat::Zero(3, 3));
    CHECK(h1.wv == Mat::Zero(3, 2));
    CHECK(g.layers[0].wo == mat({{11, 12, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}}));  // (H·d_v)×d = 4×3
    REQUIRE(g.featureNames.size() == 3);
    CHECK(g.featureNames[2].in("") == "3");  // a new feature is named as people count, from 1
    CHECK(runLesson(g, g.sentence).ok());  // the run after it is valid
}

TEST_CASE("shrinking the dimensions keeps the top-left block", "[lesson_edit]") {
    auto shrunk = resizeLesson(lesson(), {1, 1, 1, 1});
    REQUIRE(shrunk.ok());
    const Lesson& s = shrunk.value();
    CHECK(Mat(*s.findEmbedding("b")) == mat({{3}}));
    CHECK(s.layers[0].heads[0].wq == mat({{1}}));
    CHECK(s.layers[0].heads[0].wk == mat({{5}}));
    CHECK(s.layers[0].heads[0].wv == mat({{9}}));
    CHECK(s.layers[0].wo == mat({{11}}));
    CHECK(s.featureNames.size() == 1);
    auto run = runLesson(s, s.sentence);
    REQUIRE(run.ok());
    // a = 1, b = 3; q = x·1 + 0.5, k = x·5: scores (1.5·5, 1.5·15; 3.5·5, 3.5·15), d_k = 1 → no scaling.
    CHECK(run.value().layers[0].heads[0].scores == mat({{7.5, 22.5}, {17.5, 52.5}}));
}

TEST_CASE("out-of-range dimensions are refused and name the field", "[lesson_edit]") {
    auto zero = resizeLesson(lesson(), {2, 1, 0, 1});
    REQUIRE_FALSE(zero.ok());
    CHECK(zero.error().where == "d_k");
    CHECK(zero.error().message == "expected a whole number from 1 to 4096, found 0");
    auto heads = resizeLesson(lesson(), {2, 65, 2, 1});
    REQUIRE_FALSE(heads.ok());
    CHECK(heads.error().where == "heads");
    auto tooWide = resizeLesson(lesson(), {2, 64, 4096, 1});  // 64·4096 query columns per token
    REQUIRE_FALSE(tooWide.ok());
    CHECK(tooWide.error().where == "edit: heads");
}

TEST_CASE("without projections d_k and d_v follow d_model", "[lesson_edit]") {
    Lesson l = lesson();
    l.projections = false;
    l.layers[0].heads.clear();
    l.dK = l.dV = 2;
    l.layers[0].wo = Mat();
    auto refused = resizeLesson(l, {3, 1, 2, 2});
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().where == "d_k");
    auto grown = resizeLesson(l, {3, 1, 3, 3});
    REQUIRE(grown.ok());
    CHECK(grown.value().layers[0].heads.empty());
}

TEST_CASE("new lessons and their settings: zeros to fill, texts per language, flags", "[lesson][edit]") {
    NewLessonSpec spec;
    spec.englishTitle = "Notebook";
    spec.chineseTitle = "笔记本";
    spec.words = "笔记本 笔";  // 笔 twice: one row
    spec.featureNames = {"a", "b", "c"};
    spec.dModel = 3;
    spec.dK = 2;
    spec.causalMask = true;
    spec.decimals = 6;
    const auto made = newLesson(spec);
    REQUIRE(made.ok());
    const Lesson& l = made.value();
    CHECK(words(l) == std::vector<std::string>{"笔", "记", "本"});
    CHECK(l.title.in("zh_CN") == "笔记本");
    CHECK(l.title.in("en") == "Notebook");
    CHECK(l.layers.at(0).heads.at(0).wq == Mat::Zero(3, 2));
    CHECK(l.causalMask);
    CHECK(l.decimals == 6);
    spec.featureNames = {"a"};
    CHECK(newLesson(spec).error().text() == "features: expected a list of 3 names (d_model), found 1");

    // The settings row edits the Chinese texts; the English ones stay.
    LessonSettings settings = settingsOf(l, "zh_CN");
    CHECK(settings.title == "笔记本");
    settings.title = "笔记本练习";
    settings.featureNames = {"甲", "乙", "丙"};
    settings.scale = false;
    settings.causalMask = false;
    const auto changed = applyLessonSettings(l, settings, "zh_CN");
    REQUIRE(changed.ok());
    CHECK(changed.value().title.in("zh_CN") == "笔记本练习");
    CHECK(changed.value().title.in("en") == "Notebook");
    CHECK(changed.value().featureNames.at(1).in("zh_CN") == "乙");
    CHECK(changed.value().featureNames.at(1).in("en") == "b");
    CHECK_FALSE(changed.value().scale);
    CHECK_FALSE(changed.value().causalMask);
    settings.featureNames = {"x", "y"};
    CHECK(applyLessonSettings(l, settings, "zh_CN").error().text() == "features: expected a list of 3 names (d_model), found 2");
}
