#pragma once
// Coreference read off attention: words rebuilt from word pieces, referring expressions
// (mentions), candidate antecedents, per-head distributions over the candidates, head
// combinations (one head, a set, a whole layer, attention rollout) and two baselines. A view
// renders a Resolution as it is: every number it shows is computed here.
// Formulas, lists and thresholds: docs/coreference.md.
//
// Shape legend: T tokens, W words, C candidates of one mention, K heads combined, L layers,
// H heads per layer. Head and layer indices are 0-based here (the command line adds 1).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/coref_lexicon.hpp"
#include "core/base/result.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

// ---------------------------------------------------------------- words and mentions

struct Word {
    std::string text;         // pieces joined: BERT's "##" and a leading "Ġ"/"␣" dropped
    std::vector<int> tokens;  // indices into Trace::tokens, in order, at least one
    bool punctuation = false; // punctuation or white space only
    bool stopWord = false;    // on the documented stop-word list (pronouns included)
    bool madeUp = false;      // a lesson word missing from its table: its vector was made up
};

// Consecutive pieces with the same Token::word (≥ 0) form one word; a piece with word −1 is a
// word of its own (lesson tokens). Special tokens belong to no word. W ≤ T.
std::vector<Word> wordsOf(const std::vector<Token>& tokens);

// True when the piece, read without its "Ġ"/"␣" space marker, is punctuation or blank.
bool isPunctuationToken(const Token& token);

// A referring expression: one word, or a few adjacent ones when the tokenizer split a pronoun
// (Chinese 他们 read as 他 + 们).
struct Mention {
    int firstWord = 0, lastWord = 0;   // inclusive word range
    std::string text;                  // the words' texts joined
    std::optional<PronounInfo> pronoun; // set when the text is on a pronoun list
};

// Every pronoun in reading order; at each word the longest listed pronoun spanning words wins.
std::vector<Mention> findPronouns(const std::vector<Word>& words);

// The mention at one word chosen by the user: the pronoun span starting there if there is
// one, else that word alone. Error when `word` is out of range.
Result<Mention> mentionAtWord(const std::vector<Word>& words, int word);

// Where `text` occurs in the words: the `occurrence`-th (1-based) run of consecutive words whose
// lower-cased texts, concatenated, equal `text` lower-cased with its spaces removed.
// {first, last} word, or nullopt.
std::optional<std::pair<int, int>> findWordSpan(const std::vector<Word>& words, std::string_view text,
                                                int occurrence = 1);

// Candidate antecedents of a mention: words before it (and after it with cataphora) that are
// not punctuation, stop-words or part of the mention. Word indices in sentence order.
std::vector<int> candidatesFor(const std::vector<Word>& words, const Mention& mention, bool cataphora);

// ---------------------------------------------------------------- scoring

// How heads are combined into one distribution over the candidates.
struct Scoring {
    enum class Kind { Heads, Layer, Rollout };
    Kind kind = Kind::Rollout;
    std::vector<HeadRef> heads;  // Kind::Heads: one head or a set (mean of their distributions)
    int layer = 0;               // Kind::Layer: every head of this layer (mean)

    static Scoring oneHead(int layer, int head) { return {Kind::Heads, {{layer, head}}, 0}; }
    static Scoring headSet(std::vector<HeadRef> heads) { return {Kind::Heads, std::move(heads), 0}; }
    static Scoring wholeLayer(int layer) { return {Kind::Layer, {}, layer}; }
    static Scoring rollout() { return {Kind::Rollout, {}, 0}; }
};

// "layer 5 head 4", "mean of 3 heads (5:4, 6:1, 6:2)", "mean of all 12 heads of layer 5",
// "attention rollout over all layers" (1-based, as the user reads it), in `language` (core's catalogue).
std::string describeScoring(const Scoring& scoring, int headsPerLayer, Language language = Language::English);

// Attention from the mention to every word under one T×T weight matrix: to a word = sum over
// its pieces, from the mention = mean over its pieces. 1×W (special tokens are in no word).
RowVec attentionToWords(GridRef weights, const std::vector<Word>& words, const Mention& mention);

// attentionToWords restricted to the candidates, as is: the raw attention. 1×C.
RowVec candidateAttention(GridRef weights, const std::vector<Word>& words, const Mention& mention,
                          const std::vector<int>& candidates);
// candidateAttention renormalised to sum to 1 (all 0 when no weight reached any candidate). 1×C.
RowVec candidateDistribution(GridRef weights, const std::vector<Word>& words, const Mention& mention,
                             const std::vector<int>& candidates);

// Attention rollout (Abnar & Zuidema 2020) through every layer of the trace: Â_l = rownorm(mean_h
// A_{l,h} + I), R = Â_{L-1} · … · Â_0. T×T. Error when a layer has no weights.
Result<Mat> attentionRollout(const Trace& trace);
// Only the rows `rows` of the rollout (n×T), without forming the T×T products: what scoring a
// few mentions needs.
Result<Mat> attentionRolloutRows(const Trace& trace, const std::vector<int>& rows);

struct Baselines {
    int nearest = -1;  // index into Resolution::candidates: the closest candidate before the mention
    int rule = -1;     // the closest agreeing candidate, listed nouns first (see docs/coreference.md)
};

struct Resolution {
    Mention mention;
    std::vector<int> candidates;    // C word indices, sentence order
    RowVec scores;                  // 1×C, renormalised over the candidates: sums to 1 (or all 0)
    RowVec rawScores;               // 1×C, the same combination of the raw attention (mean of the heads'
                                    // candidateAttention, or the rollout's); its sum is the share the candidates got
    int chosen = -1;                // argmax index into candidates (ties: the one nearest the mention); -1 if C = 0
    std::vector<HeadRef> heads;     // K heads combined (empty for rollout)
    Mat headScores;                 // K×C, row k = heads[k]'s own distribution; scores = column mean
    Baselines baselines;
    Scoring scoring;                // what was combined: describeScoring(scoring, headsPerLayer, language)
    int headsPerLayer = 0;
};

// describeScoring of the resolution's own scoring, in `language`.
std::string scoringText(const Resolution& resolution, Language language = Language::English);

// Per-head contributions to one candidate: column `candidate` of headScores with its heads.
struct HeadContribution {
    HeadRef head;
    double score = 0;
};
std::vector<HeadContribution> contributionsTo(const Resolution& resolution, int candidate);

// Every head of the trace, layer by layer (L·H).
std::vector<HeadRef> allHeads(const Trace& trace);

// Scores one mention. Errors name the bad head / layer / mention.
Result<Resolution> resolveMention(const Trace& trace, const std::vector<Word>& words, const Mention& mention,
                                  const Scoring& scoring, bool cataphora);

// Every pronoun of the sentence (or only the user's mention word) resolved under `scoring`.
struct ResolveOptions {
    Scoring scoring;
    bool cataphora = false;
    std::optional<int> mentionWord;  // a word index: resolve only this mention
};
struct SentenceResolution {
    std::vector<Word> words;
    std::vector<Resolution> mentions;  // reading order
};

// The mentions' and candidates' words whose vectors a lesson made up, each once in sentence
// order, "小, 猫", or "" when none: links to or from them say nothing about the lesson's table.
std::string madeUpWords(const SentenceResolution& resolved);
// "Not in the lesson's table, so these scores rest on made-up vectors: 小, 猫", or "".
std::string madeUpNote(const SentenceResolution& resolved, Language language);
Result<SentenceResolution> resolveSentence(const Trace& trace, const ResolveOptions& options);

// The baselines alone (they need no attention).
int nearestBaseline(const std::vector<int>& candidates, const Mention& mention);
int ruleBaseline(const std::vector<Word>& words, const std::vector<int>& candidates, const Mention& mention);

// Index of the largest score; ties go to the candidate nearest the mention. -1 when empty.
int chooseCandidate(const RowVec& scores, const std::vector<int>& candidates, const Mention& mention);

}  // namespace attnscope
