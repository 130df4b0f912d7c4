// core's message catalogue (issue 12): every message in English and Chinese, the same arguments
// in both, and the step titles the window shows in Chinese.
#include <catch2/catch.hpp>

#include <regex>
#include <set>
#include <string>

#include "core/text/messages.hpp"
#include "catalogue_placeholders.hpp"

using namespace attnscope;

namespace {

// A Chinese character (UTF-8 lead byte E4–E9: U+4E00…U+9FFF) or full-width punctuation
// (EF BC xx: U+FF00…U+FF3F, e.g. "：" in "{1}：{2}", a Chinese joiner of two arguments).
bool hasChinese(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0xE4 && c <= 0xE9) return true;
        if (c == 0xEF && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xBC) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("every message of core's catalogue has an English and a Chinese text with the same arguments") {
    int checked = 0;
    for (int i = 0; i < static_cast<int>(MessageId::Count); ++i) {
        const auto id = static_cast<MessageId>(i);
        INFO("message " << i << ": " << message(id, Language::English));
        const std::string_view english = message(id, Language::English), chinese = message(id, Language::Chinese);
        CHECK_FALSE(english.empty());
        CHECK_FALSE(chinese.empty());
        CHECK(chinese != english);
        CHECK(hasChinese(chinese));
        CHECK(placeholders(english) == placeholders(chinese));
        ++checked;
    }
    // 26 step titles, 18 notices, 39 explanation texts, 3 titles, 6 worksheet, 8 lab, 2 predictions; then (the
    // last English, issue 12) 4 scorings, 12 export labels, 19 coreference texts, 15 head/corpus texts, 2 qk,
    // 6 compare texts, 6 reasons to skip a coreference example; 6 RoPE step titles, 3 RoPE explanation
    // texts, 2 key/value-head texts, the attention-sink label; 6 evaluation texts (issue 30: intervals,
    // random and first baselines, the control, "above rule" and its note), the renormalisation note; 10 texts of norms, lens and dla
    // (issue 30 §2: two norm-share texts, four of the logit lens, four of the attribution); the BERT
    // family's first-order attribution note; the block after attention (issue 29 §1): 22 step titles
    // (by norm and feed-forward kind) and 17 explanation texts; what attention did to each word (issue 29 §5):
    // two notes, the table's columns, "entering/leaving layer" and the same-word note; heads that share keys
    // (issue 29 §3): the cost's header and row, three kinds and "this run"; the encoder–decoder lesson (issue 29 §4):
    // four stage headings, the teacher-forcing table's header and its mean; the cross stage's (issue 29 §4):
    // Y₁'s and M's titles and cell rules, Y₂'s residual sum; a RoPE lesson's Q_pre and K_pre without projections;
    // what y is at one layer (three kinds); why Compare is off on the decoder's masked self-attention
    CHECK(checked == 268);
}

TEST_CASE("step titles: English as before, Chinese from the catalogue") {
    CHECK(stepTitle(Step::Scaled) == "Scaled scores S / √d_k");
    CHECK(stepTitle(Step::Scaled, Language::English) == "Scaled scores S / √d_k");
    CHECK(stepTitle(Step::Scaled, Language::Chinese) == "缩放后的分数 S / √d_k");
    CHECK(stepTitle(Step::Query, Language::Chinese) == "查询 Q = X·W_Q");
    CHECK(stepTitle(Step::SourceInput, Language::Chinese) == "源输入 X_src（键和值来自它）");
    Trace trace;
    trace.residual = true;
    CHECK(stepTitleIn(trace, Step::Input, 1) == "Input of layer 2: X₂ = X₁ + output₁ (residual)");
    CHECK(stepTitleIn(trace, Step::Input, 1, Language::Chinese) == "第 2 层的输入：X₂ = X₁ + output₁（残差）");
    trace.residual = false;
    CHECK(stepTitleIn(trace, Step::Input, 11, Language::Chinese) == "第 12 层的输入：第 11 层传下来的结果");
    CHECK(stepTitleIn(trace, Step::Input, 11) == "Input of layer 12: what layer 11 passed on");
}

TEST_CASE("fillMessage puts each argument in its place and leaves other braces alone") {
    CHECK(fillMessage("{2} before {1}, {1} again; {x} {9}", {"a", "b"}) == "b before a, a again; {x} {9}");
    CHECK(fillMessage("no arguments", {}) == "no arguments");
}

TEST_CASE("language codes") {
    CHECK(languageFromCode("zh_CN") == Language::Chinese);
    CHECK(languageFromCode("zh") == Language::Chinese);
    CHECK(languageFromCode("en") == Language::English);
    CHECK(languageFromCode("en_US") == Language::English);
    CHECK_FALSE(languageFromCode("de_DE").has_value());
}
