// Corpus statistics (core/analysis/corpus_stats.hpp): a 3-token trace worked out by hand, the
// corpus file's rules (blank lines, caps, bad bytes), the driver's progress / cancel / errors, and
// the tiny BERT and GPT-2 fixtures against tests/reference/reference_corpus_stats.py (torch, its
// own forward and tokenizers), committed as tests/reference/fixtures/corpus_stats.json.
// Tolerance kModelTolerance 1e-5: core runs the models in float32, the reference in float64.
#include <catch2/catch.hpp>
#include <cmath>

#include "../matrix_literal.hpp"
#include "core/analysis/corpus_export.hpp"
#include "core/analysis/corpus_stats.hpp"
#include "core/text/message_id.hpp"
#include "core/source/model_session.hpp"
#include "model_fixtures.hpp"

using namespace attnscope;
using namespace attnscope::fixture_io;
using attnscope::testing::layerOf;
using attnscope::testing::rows;

namespace {

constexpr double kModelTolerance = 1e-5;
constexpr double kExact = 1e-12;

// Tokens "a , a"; one head:          a     ,     a
//                              a  [0.5   0.25  0.25]
//                              ,  [0.5   0.5   0   ]
//                              a  [0.25  0.25  0.5 ]
Trace handTrace(bool causal = false) {
    Trace t;
    t.tokens = {Token{"a"}, Token{","}, Token{"a"}};
    t.causal = causal;
    t.layers.push_back(layerOf({rows({{0.5, 0.25, 0.25}, {0.5, 0.5, 0}, {0.25, 0.25, 0.5}})}));
    return t;
}

double offset(const CorpusHeadStats& h, int o) { return h.offsets.at(static_cast<std::size_t>(o + kCorpusMaxOffset)); }

SentenceRunner handRunner() {
    return [](const std::string& sentence) -> Result<Trace> {
        if (sentence == "fail") return Error{"tokenizer", "cannot read this"};
        return handTrace();
    };
}

CorpusText corpusOf(std::string_view text) {
    auto corpus = parseCorpus(text, "c.txt");
    REQUIRE(corpus.ok());
    return std::move(corpus).value();
}

}  // namespace

TEST_CASE("corpus statistics of a 3-token trace, by hand", "[corpus]") {
    CorpusAccumulator sums;
    REQUIRE(sums.add(handTrace()).ok());
    const CorpusStats s = sums.result();
    REQUIRE(s.heads.size() == 1);
    const CorpusHeadStats& h = s.heads[0];
    CHECK(s.queries == 3);
    CHECK(h.first == Approx((0.5 + 0.5 + 0.25) / 3).margin(kExact));
    CHECK(h.last == Approx((0.25 + 0 + 0.5) / 3).margin(kExact));
    CHECK(h.punctuation == Approx((0.25 + 0.5 + 0.25) / 3).margin(kExact));  // the column of ","
    CHECK(h.sameToken == Approx((0.25 + 0 + 0.25) / 3).margin(kExact));     // a→the other a, twice
    CHECK(h.entropy == Approx((1.5 + 1 + 1.5) / 3).margin(kExact));
    CHECK(h.uniformEntropy == Approx(std::log2(3.0)).margin(kExact));
    CHECK(h.previous == Approx((0.5 + 0.25) / 2).margin(kExact));  // rows 1 and 2 only
    CHECK(h.self == Approx(0.5).margin(kExact));
    CHECK(h.next == Approx((0.25 + 0) / 2).margin(kExact));
    CHECK(offset(h, -2) == Approx(0.25).margin(kExact));  // only row 2 has a token two back
    CHECK(offset(h, 2) == Approx(0.25).margin(kExact));
    CHECK(offset(h, 3) == 0);
    CHECK(s.offsetQueries == std::vector<std::int64_t>{0, 0, 0, 0, 0, 0, 1, 2, 3, 2, 1, 0, 0, 0, 0, 0, 0});
}

TEST_CASE("corpus statistics: sentences are weighed by their queries, a causal row's baseline by what it sees",
          "[corpus]") {
    CorpusAccumulator sums;
    REQUIRE(sums.add(handTrace(true)).ok());
    Trace one;
    one.tokens = {Token{"x"}};
    one.layers.push_back(layerOf({rows({{1}})}));
    REQUIRE(sums.add(one).ok());
    const CorpusHeadStats h = sums.result().heads.at(0);
    CHECK(h.uniformEntropy == Approx((0 + 1 + std::log2(3.0) + 0) / 4).margin(kExact));
    CHECK(h.first == Approx((1.25 + 1) / 4).margin(kExact));
    CHECK(h.self == Approx((1.5 + 1) / 4).margin(kExact));
    CHECK(h.previous == Approx(0.375).margin(kExact));  // the 1-token sentence has no previous token
}

TEST_CASE("corpus statistics refuse a trace of another shape and add nothing", "[corpus]") {
    CorpusAccumulator sums;
    REQUIRE(sums.add(handTrace()).ok());
    Trace two = handTrace();
    two.layers.push_back(two.layers[0]);
    auto added = sums.add(two);
    REQUIRE_FALSE(added.ok());
    CHECK(added.error().text() ==
          "corpus statistics: expected 1 layers × 1 heads like the first sentence, found 2 × 1");
    Trace ragged = handTrace();
    ragged.layers[0].heads[0].weights = rows({{1, 0}, {0, 1}});
    CHECK(sums.add(ragged).error().text() == "corpus statistics: layer 1 head 1: expected 3×3 weights, found 2×2");
    CHECK(sums.sentences() == 1);
}

TEST_CASE("a corpus file: one sentence a line, blank lines skipped, CRLF accepted, caps said", "[corpus]") {
    const CorpusText c = corpusOf("first\r\n\n  \nsecond\n\tthird\n");
    CHECK(c.lines == std::vector<std::string>{"first", "second", "\tthird"});
    CHECK(c.lineNumbers == std::vector<int>{1, 4, 5});
    auto capped = parseCorpus("a\nb\nc\n", "c.txt", CorpusLimits{2, 512});
    REQUIRE(capped.ok());
    CHECK(capped.value().lines.size() == 2);
    CHECK(capped.value().linesLeftOut == 1);
    CHECK(parseCorpus("\n \n", "c.txt").error().text() ==
          "c.txt: expected at least one sentence (a non-blank line), found none");
    CHECK(parseCorpus("ok\nbad \xff here\n", "c.txt").error().text() ==
          "c.txt: line 2: expected UTF-8 text, found an invalid byte sequence at byte 5");
}

TEST_CASE("runCorpus: progress with an ETA, cancel, a failing line named, long sentences skipped", "[corpus]") {
    std::vector<CorpusProgress> seen;
    CorpusControl control;
    control.progress = [&seen](const CorpusProgress& p) { seen.push_back(p); };
    auto stats = runCorpus(corpusOf("one\ntwo\n"), handRunner(), control);
    REQUIRE(stats.ok());
    CHECK(stats.value().sentences == 2);
    CHECK(stats.value().heads[0].first == Approx(1.25 / 3).margin(kExact));
    REQUIRE(seen.size() == 2);
    CHECK(seen[0].done == 1);
    CHECK(seen[0].total == 2);
    CHECK(seen[0].etaSeconds == Approx(seen[0].secondsPerSentence));
    CHECK(seen[1].etaSeconds == 0);

    std::atomic<bool> cancel{true};
    CorpusControl cancelled;
    cancelled.cancel = &cancel;
    CHECK(runCorpus(corpusOf("one\n"), handRunner(), cancelled).error().text() == "c.txt: corpus statistics cancelled");

    CHECK(runCorpus(corpusOf("one\n\nfail\n"), handRunner()).error().text() ==
          "c.txt: line 3: tokenizer: cannot read this");

    CorpusControl shortOnly;
    shortOnly.limits.maxTokens = 2;
    CHECK(runCorpus(corpusOf("one\n"), handRunner(), shortOnly).error().text() ==
          "c.txt: expected a sentence of at most 2 tokens, found none");
    shortOnly.limits.maxTokens = 3;
    auto capped = runCorpus(corpusOf("one\n"), handRunner(), shortOnly);
    REQUIRE(capped.ok());
    CHECK(capped.value().notices.empty());
}

TEST_CASE("runCorpus keeps the runs' notices by line, the first five sentences' only", "[corpus]") {
    const SentenceRunner noisy = [](const std::string& sentence) -> Result<Trace> {
        Trace t = handTrace();
        t.notices.push_back(Notice{MessageId::NoticeModelTruncated, {sentence, "1"}});
        return t;
    };
    auto stats = runCorpus(corpusOf("s1\ns2\n\ns3\ns4\ns5\ns6\ns7\n"), noisy);
    REQUIRE(stats.ok());
    const auto cut = [](const std::string& line, const std::string& s) {
        return "c.txt: line " + line + ": The input has " + s + " tokens; this model reads at most 1, so only the first 1 were run.";
    };
    const std::vector<std::string> want{cut("1", "s1"), cut("2", "s2"), cut("4", "s3"), cut("5", "s4"), cut("6", "s5"),
                                        "c.txt: 2 more sentences had notices (not shown)"};
    CHECK(corpusNoticeTexts(stats.value().notices, Language::English) == want);
    const std::vector<std::string> chinese = corpusNoticeTexts(stats.value().notices, Language::Chinese);
    CHECK(chinese.front() == "c.txt：第 1 行：输入有 s1 个词元；此模型最多读取 1 个，因此只运行了前 1 个。");
    CHECK(chinese.back() == "c.txt：另有 2 个句子有提示（未显示）");
}

TEST_CASE("corpus notices and text in both languages: the caps, the header", "[corpus][i18n]") {
    CorpusLimits limits;
    limits.maxLines = 2;
    limits.maxTokens = 2;
    auto corpus = parseCorpus("one\ntwo\nthree\n", "c.txt", limits);
    REQUIRE(corpus.ok());
    const SentenceRunner mixed = [](const std::string& sentence) -> Result<Trace> {
        Trace t = handTrace();
        if (sentence == "one") t.tokens.pop_back(), t.layers[0].heads[0].weights = rows({{0.5, 0.5}, {0.5, 0.5}});
        return t;
    };
    CorpusControl control;
    control.limits = limits;
    auto stats = runCorpus(corpus.value(), mixed, control);
    REQUIRE(stats.ok());
    CHECK(corpusNoticeTexts(stats.value().notices, Language::English) ==
          std::vector<std::string>{"c.txt: read the first 2 sentences; 1 more lines left out (the cap is 2 sentences)",
                                   "c.txt: skipped 1 sentences longer than 2 tokens"});
    CHECK(corpusNoticeTexts(stats.value().notices, Language::Chinese) ==
          std::vector<std::string>{"c.txt：只读取了前 2 个句子；其余 1 行未读（上限为 2 个句子）",
                                   "c.txt：跳过了 1 个超过 2 个词元的句子"});
    const std::string text = corpusStatsToText(stats.value(), "课程：x", 2, Language::Chinese);
    CHECK(text.find("课程：x\n1 个句子，2 个词元；") == 0);
    CHECK(text.find("\n层 头 首词元 末词元 标点 前一词元 自身 后一词元 相同词元 熵 均匀分布熵\n") != std::string::npos);
    CHECK(corpusStatsToText(stats.value(), "x", 2).find(
              "\nlayer head first last punctuation previous self next same_token entropy uniform_entropy\n") !=
          std::string::npos);
}

TEST_CASE("corpus statistics as CSV name every column, offsets from -8 to +8", "[corpus]") {
    CorpusAccumulator sums;
    REQUIRE(sums.add(handTrace()).ok());
    const std::string csv = corpusStatsToCsv(sums.result());
    CHECK(csv.rfind("layer,head,first,last,punctuation,previous,self,next,same_token,entropy,uniform_entropy,"
                    "offset-8,",
                    0) == 0);
    CHECK(csv.find("offset+8\n1,1,0.416666667,0.25,0.333333333,0.375,0.5,0.125,0.166666667,1.33333333,1.5849625,") !=
          std::string::npos);
}

namespace {

void compareModel(const nlohmann::json& expected) {
    const std::string name = expected.at("model");
    INFO("model " << name);
    auto opened = openModel((sourceDir() / "tests/reference/models" / name).string());
    INFO("open error: " << (opened ? std::string() : opened.error().text()));
    REQUIRE(opened.ok());
    std::vector<std::vector<int>> ids;
    const SentenceRunner run = [&](const std::string& sentence) -> Result<Trace> {
        RunControl control;
        control.fullDetailMaxTokens = 0;
        auto result = runSentence(opened.value(), sentence, control);
        if (!result) return result.error();
        ids.emplace_back();
        for (const Token& t : result.value().trace.tokens) ids.back().push_back(t.id);
        return std::move(result).value().trace;
    };
    auto corpus = readCorpus(sourceDir() / "tests/reference/fixtures/corpus-tiny.txt");
    REQUIRE(corpus.ok());
    auto stats = runCorpus(corpus.value(), run);
    REQUIRE(stats.ok());
    CHECK(ids == expected.at("ids").get<std::vector<std::vector<int>>>());  // the same tokens went in
    CHECK(stats.value().sentences == expected.at("sentences").get<int>());
    CHECK(stats.value().queries == expected.at("queries").get<std::int64_t>());
    // What the Corpus page calls "first" and "last": BERT's [CLS] … [SEP]; GPT-2 adds no special
    // token and is causal (its queries never see the next token).
    const bool bert = name == "bert-tiny";
    CHECK(stats.value().firstSpecial == (bert ? "[CLS]" : ""));
    CHECK(stats.value().lastSpecial == (bert ? "[SEP]" : ""));
    CHECK(stats.value().causal == !bert);
    CHECK(stats.value().offsetQueries == expected.at("offset_queries").get<std::vector<std::int64_t>>());
    // Every number through the JSON export, so the field names are checked too.
    const nlohmann::json got = nlohmann::json::parse(corpusStatsToJson(stats.value(), name)).at("heads");
    const nlohmann::json& want = expected.at("heads");
    REQUIRE(got.size() == want.size());
    double largest = 0;
    std::string firstMismatch;
    for (std::size_t n = 0; n < want.size(); ++n)
        for (const auto& [key, value] : want[n].items()) {
            // The reference counts layers and heads from 0, the export from 1 (docs/cli.md).
            const double shift = key == "layer" || key == "head" ? 1 : 0;
            const std::vector<double> w = value.is_array() ? value.get<std::vector<double>>()
                                                           : std::vector<double>{value.get<double>() + shift};
            const nlohmann::json& g = got[n].at(key);
            const std::vector<double> v = g.is_array() ? g.get<std::vector<double>>() : std::vector<double>{g.get<double>()};
            REQUIRE(v.size() == w.size());
            for (std::size_t k = 0; k < w.size(); ++k) {
                const double diff = std::abs(v[k] - w[k]);
                if (diff > kModelTolerance && firstMismatch.empty())
                    firstMismatch = "layer " + std::to_string(want[n].at("layer").get<int>() + 1) + " head " +
                                    std::to_string(want[n].at("head").get<int>() + 1) + " " +
                                    key + "[" + std::to_string(k) + "]: expected " + std::to_string(w[k]) +
                                    ", found " + std::to_string(v[k]);
                largest = std::max(largest, diff);
            }
        }
    INFO("first mismatch: " << firstMismatch << "; largest |diff| " << largest);
    CHECK(largest <= kModelTolerance);
}

}  // namespace

TEST_CASE("corpus statistics of the tiny BERT and GPT-2 match the torch reference", "[corpus]") {
    const nlohmann::json fixture = readJson(sourceDir() / "tests/reference/fixtures/corpus_stats.json");
    REQUIRE(fixture.at("max_offset").get<int>() == kCorpusMaxOffset);
    REQUIRE(fixture.at("models").size() == 2);
    for (const nlohmann::json& model : fixture.at("models")) compareModel(model);
}
