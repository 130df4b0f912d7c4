// Issue 26 §1: what the engine does with inputs that are small but ask for much, values that
// overflow on the way, and text from files shown to a terminal.
#include <catch2/catch.hpp>
#include <vector>
#include <utility>
#include <functional>
#include <cmath>
#include <limits>

#include "core/io/text_file.hpp"
#include "core/lesson/lesson_budget.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/messages.hpp"
#include "core/text/utf8.hpp"
#include "core/trace/non_finite.hpp"

using namespace attnscope;

TEST_CASE("printable escapes control characters and invalid bytes, keeps the rest", "[text]") {
    CHECK(utf8::printable("plain · 中文\ttab\nline") == "plain · 中文\ttab\nline");
    CHECK(utf8::printable(std::string("a\x1b[2Jb", 6)) == "a\\x1b[2Jb");
    CHECK(utf8::printable(std::string("cut\0here", 8)) == "cut\\x00here");
    CHECK(utf8::printable("\x7f") == "\\x7f");
    CHECK(utf8::printable("\xc2\x9b" "31m") == "\\xc2\\x9b31m");  // C1 CSI
    CHECK(utf8::printable("\xff" "ok") == "\\xffok");
}

TEST_CASE("a lesson's declared sizes are weighed before its run", "[lesson]") {
    Lesson lesson;
    lesson.dModel = 4096, lesson.numHeads = 4, lesson.dK = 4096, lesson.dV = 4096, lesson.projections = false;
    // By hand, one head at T = T_k = 256: W_Q, W_K, W_V 4096·12288 = 50,331,648 numbers, Q, K, V
    // 3·256·4096 = 3,145,728, five grids 5·65,536 = 327,680, the weighted sum 1,048,576:
    // 54,853,632. A layer: 4 heads 219,414,528 + input, key input, output 3·1,048,576 + concat
    // 4,194,304 + W_O 67,108,864 = 293,863,424. 64 layers plus 2·1,048,576 embedding and positional
    // numbers: 18,809,356,288 numbers, 8 bytes each (140.1 GiB).
    const LessonRunCost cost = lessonRunCost(lesson, 256, 256, 64);
    CHECK(cost.traceBytes == 8.0 * 18'809'356'288.0);
    const auto refused = checkLessonBudget(lesson, 256, 256, 64);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().text() ==
          "lesson: d_model 4096, heads 4, d_k 4096, d_v 4096, 64 layers, 256 tokens: the run would keep 140.1 GiB of "
          "numbers, over the budget of 1 GiB for a lesson run (make d_model, heads, d_k, layers or the sentence smaller)");
    CHECK(refused.error().textIn(Language::Chinese).find("超过课程运行 1 GiB 的预算") != std::string::npos);
    // The shipped lessons' size (d 5, one head, three tokens) is far inside both budgets.
    Lesson small;
    small.dModel = 5, small.numHeads = 1, small.dK = 5, small.dV = 5;
    CHECK(checkLessonBudget(small, 3, 3, 1).ok());
}

TEST_CASE("a lesson within the memory budget but over the work budget names the work", "[lesson]") {
    Lesson lesson;
    lesson.dModel = 1024, lesson.numHeads = 8, lesson.dK = 1024, lesson.dV = 1024, lesson.projections = false;
    // By hand, one head at T = 256: 256·1024·1024 (Q) + 256·1024·2048 (K, V) + 65,536·2048
    // (Q·Kᵀ, weights·V) = 939,524,096; 8 heads 7,516,192,768 + W_O 256·8192·1024 = 2,147,483,648:
    // 9,663,676,416 multiply-adds.
    CHECK(lessonRunCost(lesson, 256, 256, 1).multiplyAdds == 9'663'676'416.0);
    const auto refused = checkLessonBudget(lesson, 256, 256, 1);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().text().find("the run would take 9663 million multiply-adds, over the budget of 2000 million") !=
          std::string::npos);
}

TEST_CASE("a sentence line over 64 KiB is refused by its line", "[io]") {
    CHECK(checkSentenceLine(std::string(65536, 'a'), errorText(ErrorId::WhereLine, "c.txt", 3)).ok());
    const auto refused = checkSentenceLine(std::string(65537, 'a'), errorText(ErrorId::WhereLine, "c.txt", 3));
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().text() ==
          "c.txt: line 3: is 64.0 KiB long; a sentence line may be at most 64 KiB (a model reads a few thousand tokens at most)");
}

TEST_CASE("NaN in a model run's attention is named by layer, head and token, first layer only", "[trace]") {
    Trace trace;
    trace.tokens = {Token{"[CLS]"}, Token{"hello"}};
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (int l = 0; l < 3; ++l) {
        LayerTrace layer;
        for (int h = 0; h < 2; ++h) {
            MatF w = MatF::Constant(2, 2, 0.5f);
            if (l >= 1 && h == 1) w(1, 0) = nan;  // layer 2 head 2, token "hello"; layer 3 inherits it
            HeadTrace head;
            head.weights = AttentionWeights(std::move(w));
            layer.heads.push_back(std::move(head));
        }
        trace.layers.push_back(std::move(layer));
    }
    Trace sliced = trace;
    REQUIRE(addNonFiniteNotices(trace));
    REQUIRE(trace.notices.size() == 1);
    CHECK(noticeText(trace.notices[0], Language::English) ==
          "layer 2, head 2: scores of \"hello\" contain NaN: its weights are undefined");
    // The heads read in slices, the last first (as threads may finish): the same notice.
    std::vector<std::pair<std::size_t, std::size_t>> slices;
    REQUIRE(addNonFiniteNotices(sliced, [&](std::size_t n, const std::function<void(std::size_t, std::size_t)>& slice) {
        for (std::size_t end = n; end > 0; end = end >= 2 ? end - 2 : 0) {
            slices.emplace_back(end >= 2 ? end - 2 : 0, end);
            slice(slices.back().first, end);
        }
    }));
    CHECK(slices.size() == 3);  // 6 heads, 2 a slice
    CHECK(sliced.notices == trace.notices);
    Trace clean;
    clean.tokens = trace.tokens;
    clean.layers.resize(1);
    clean.layers[0].heads.resize(1);
    clean.layers[0].heads[0].weights = AttentionWeights(MatF(MatF::Constant(2, 2, 0.5f)));
    CHECK_FALSE(addNonFiniteNotices(clean));
    CHECK(clean.notices.empty());
}

TEST_CASE("an infinity past the first block of a long head's weights is named by its row", "[trace]") {
    // 100×100 weights: element 7,050 is row 70 (0-based), past the first 4,096-value block; the
    // double weights of a lesson take the same path.
    Trace trace;
    for (int i = 0; i < 100; ++i) trace.tokens.push_back(Token{"t" + std::to_string(i + 1)});
    MatF w = MatF::Constant(100, 100, 0.01f);
    w(70, 50) = std::numeric_limits<float>::infinity();
    w(90, 0) = std::numeric_limits<float>::quiet_NaN();
    trace.layers.resize(1);
    trace.layers[0].heads.resize(2);
    trace.layers[0].heads[0].weights = AttentionWeights(Mat(Mat::Constant(100, 100, 0.01)));
    trace.layers[0].heads[1].weights = AttentionWeights(std::move(w));
    REQUIRE(addNonFiniteNotices(trace));
    REQUIRE(trace.notices.size() == 1);
    CHECK(noticeText(trace.notices[0], Language::English) ==
          "layer 1, head 2: scores of \"t71\" contain NaN: its weights are undefined");
}
