#pragma once
// What each head does over a corpus (issue 14 §3, after Clark et al. 2019, "What does BERT look
// at?"): per head, the mean over every query of every sentence of the attention to the first
// token, the last token, punctuation, the previous / next token, itself and identical tokens, its
// row entropy beside a uniform row's, and an offset profile. Sentences are added one Trace at a
// time and only running sums are kept, so memory does not grow with the corpus.
//
// Shape legend: T tokens of one sentence, L layers, H heads per layer, K the largest offset.
// Definitions (docs/coreference.md, "Corpus statistics"), for query i of a sentence of T tokens
// and its row w(i, ·):
//   first = w(i, 0)   last = w(i, T−1)   punctuation = Σ w(i, j) over punctuation tokens j (not
//   special ones; isPunctuationToken)   same token = Σ w(i, j) over j ≠ i whose text equals i's
//   entropy = rowEntropyBits   uniform = log₂ tokensSeen (a uniform row over what i may see)
//   offset o ∈ [−K, K] = w(i, i+o), averaged only over the queries where 0 ≤ i+o < T
//   (previous = offset −1, self = offset 0, next = offset +1).
// Every other mean is over all queries: long sentences weigh more than short ones.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/coref_eval.hpp"
#include "core/base/result.hpp"
#include "core/text/language.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

inline constexpr int kCorpusMaxOffset = 8;  // K: the offset profile spans −8 … +8

struct CorpusHeadStats {
    HeadRef head;
    double first = 0, last = 0, punctuation = 0, sameToken = 0;
    double previous = 0, self = 0, next = 0;  // offsets −1, 0, +1
    double entropy = 0;                       // bits
    double uniformEntropy = 0;                // bits, the baseline
    std::vector<double> offsets;              // 2K+1 means, offset −K first
};

// A notice of a corpus run, as data (rendered in the reader's language by corpusNoticeText):
// where it applies (the corpus, and the line of one sentence, or 0 for the whole corpus) and what.
struct CorpusNotice {
    std::string source;
    int line = 0;
    Notice notice;
    bool operator==(const CorpusNotice&) const = default;
};
// "c.txt: line 3: " + the notice, in `language` (core's catalogue).
std::string corpusNoticeText(const CorpusNotice& notice, Language language);
std::vector<std::string> corpusNoticeTexts(const std::vector<CorpusNotice>& notices, Language language);

struct CorpusStats {
    int layers = 0, headsPerLayer = 0, maxOffset = kCorpusMaxOffset;
    int sentences = 0;
    std::int64_t queries = 0;
    std::vector<std::int64_t> offsetQueries;  // 2K+1: queries where each offset exists
    std::vector<CorpusHeadStats> heads;       // L·H, layer by layer
    std::vector<CorpusNotice> notices;        // caps that left lines or sentences out, then the runs' own
                                              // notices by line (the first kCorpusNoticesShown sentences')
    // What "first" and "last" are, so a view names them: the special token every sentence starts
    // (ends) with ("[CLS]", "<s>"; empty: a word), and whether queries see later tokens at all
    // (causal: "next" is always 0).
    std::string firstSpecial, lastSpecial;
    bool causal = false;
};

// Running sums over sentences. add() errors (and adds nothing) on a cross-attention trace, a
// head without T×T weights, or a trace whose L×H differs from the first one's.
class CorpusAccumulator {
public:
    explicit CorpusAccumulator(int maxOffset = kCorpusMaxOffset);
    Result<void> add(const Trace& trace);
    CorpusStats result() const;
    int sentences() const { return sentences_; }

private:
    struct Sums {
        double first = 0, last = 0, punctuation = 0, sameToken = 0, entropy = 0, uniform = 0;
        std::vector<double> offsets;
    };
    Result<void> checkShape(const Trace& trace) const;
    void addHead(const Trace& trace, GridRef w, const std::vector<bool>& punctuation, Sums& sums) const;

    int maxOffset_;
    int layers_ = 0, heads_ = 0, sentences_ = 0;
    std::int64_t queries_ = 0;
    std::vector<std::int64_t> offsetQueries_;
    std::vector<Sums> sums_;
    std::string firstSpecial_, lastSpecial_;  // the first sentence's, as CorpusStats says
    bool causal_ = false;
};

// Caps (said in CorpusStats::notices when they leave something out).
struct CorpusLimits {
    int maxLines = 10000;  // sentences read from the file; later lines are left out
    int maxTokens = 512;   // longer sentences (after tokenizing) are skipped
};
inline constexpr int kCorpusNoticesShown = 5;
inline constexpr std::uint64_t kMaxCorpusBytes = 64 * 1024 * 1024;

// The sentences of a text file: one per line, blank lines skipped, "\r\n" accepted.
struct CorpusText {
    std::string source;          // file name, for messages
    std::vector<std::string> lines;
    std::vector<int> lineNumbers;  // 1-based line of each sentence in the file
    int linesLeftOut = 0;          // non-blank lines beyond maxLines
};

// Errors: invalid UTF-8 (naming the line), no non-blank line at all.
Result<CorpusText> parseCorpus(std::string_view text, const std::string& source, const CorpusLimits& limits = {});
Result<CorpusText> readCorpus(const std::filesystem::path& path, const CorpusLimits& limits = {});

struct CorpusProgress {
    int done = 0, total = 0;
    double secondsPerSentence = 0;  // mean so far
    double etaSeconds = 0;          // secondsPerSentence × sentences left
};

struct CorpusControl {
    std::atomic<bool>* cancel = nullptr;                  // checked before every sentence
    std::function<void(const CorpusProgress&)> progress;  // called after every sentence
    CorpusLimits limits;
    int maxOffset = kCorpusMaxOffset;
};

// Runs every sentence and accumulates. Errors: a sentence that fails to run ("source: line N:
// …"), traces of different shapes, a cancel, no sentence within the token cap.
Result<CorpusStats> runCorpus(const CorpusText& corpus, const SentenceRunner& run, const CorpusControl& control = {});

}  // namespace attnscope
