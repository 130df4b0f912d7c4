#include "core/analysis/coreference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/analysis/head_summary.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/messages.hpp"
#include "core/tokenizers/token_reading.hpp"

namespace attnscope {

namespace {

constexpr std::string_view kByteLevelSpace = "\xC4\xA0";  // "Ġ", GPT-2's space before a word
constexpr std::string_view kShownSpace = "\xE2\x90\xA3";  // "␣", how the app shows it
constexpr double kTieTolerance = 1e-12;
constexpr int kLongestPronounWords = 3;  // 这 + 些 or 他 + 们 need 2; 3 leaves room

std::string withoutPrefix(std::string_view text, std::string_view prefix) {
    if (text.size() > prefix.size() && text.substr(0, prefix.size()) == prefix) text.remove_prefix(prefix.size());
    return std::string(text);
}

std::string_view withoutSpaceMarker(std::string_view text) {
    for (std::string_view marker : {kByteLevelSpace, kShownSpace})
        if (text.substr(0, marker.size()) == marker) return text.substr(marker.size());
    return text;
}

// A piece as it reads inside its word ("##ing" continues a word; a lone "##" is a word). A byte
// piece's part mark stands for a character a later piece of the word shows (token_reading.hpp).
std::string pieceText(const Token& token, bool firstOfWord) {
    const std::string_view mark = kPartMark;
    const bool marked = token.completedAhead > 0 && std::string_view(token.text).ends_with(mark);
    const std::string_view shown = marked ? std::string_view(token.text).substr(0, token.text.size() - mark.size()) : token.text;
    if (!firstOfWord) return withoutPrefix(shown, "##");
    std::string text(withoutSpaceMarker(shown));
    const auto start = text.find_first_not_of(' ');
    return start == std::string::npos ? text : text.substr(start);
}

Word finishedWord(Word word) {
    word.punctuation = isPunctuationWord(word.text);
    word.stopWord = isStopWord(word.text);
    return word;
}

std::string joinedText(const std::vector<Word>& words, int first, int last) {
    std::string text;
    for (int w = first; w <= last; ++w) text += words[static_cast<std::size_t>(w)].text;
    return text;
}

std::string withoutSpaces(std::string_view text) {
    std::string out;
    for (char c : text)
        if (c != ' ') out += c;
    return out;
}

// Distance in words from a candidate to the mention (before or after it).
int distanceTo(const Mention& mention, int word) {
    return word < mention.firstWord ? mention.firstWord - word : word - mention.lastWord;
}

// Closest candidate among those `allowed`, preceding ones first at equal distance. -1: none.
template <class Allowed>
int nearestWhere(const std::vector<int>& candidates, const Mention& mention, Allowed allowed) {
    int best = -1;
    for (int c = 0; c < static_cast<int>(candidates.size()); ++c) {
        if (!allowed(c)) continue;
        const int word = candidates[static_cast<std::size_t>(c)];
        if (best < 0) {
            best = c;
            continue;
        }
        const int bestWord = candidates[static_cast<std::size_t>(best)];
        const int d = distanceTo(mention, word), bestD = distanceTo(mention, bestWord);
        if (d < bestD || (d == bestD && word < bestWord)) best = c;
    }
    return best;
}

std::string headName(const HeadRef& h) { return std::to_string(h.layer + 1) + ":" + std::to_string(h.head + 1); }

Result<void> checkWeights(GridRef weights, const std::vector<Word>& words, const ErrorText& what) {
    if (weights.rows() == 0 || weights.rows() != weights.cols())
        return Error{what, errorText(ErrorId::SquareMatrixExpected, weights.rows(), weights.cols())};
    for (const Word& word : words)
        for (const int t : word.tokens)
            if (t >= weights.rows())
                return Error{what, errorText(ErrorId::WordsUseToken, t + 1, weights.rows())};
    return {};
}

Result<const AttentionWeights*> headWeights(const Trace& trace, const HeadRef& h) {
    if (h.layer < 0 || h.layer >= static_cast<int>(trace.layers.size()))
        return Error{errorText(ErrorId::WhereHead, headName(h)),
                     errorText(ErrorId::ExpectedFound, errorText(ErrorId::ALayerFrom, trace.layers.size()), h.layer + 1)};
    const LayerTrace& layer = trace.layers[static_cast<std::size_t>(h.layer)];
    if (h.head < 0 || h.head >= static_cast<int>(layer.heads.size()))
        return Error{errorText(ErrorId::WhereHead, headName(h)),
                     errorText(ErrorId::ExpectedFound, errorText(ErrorId::AHeadFrom, layer.heads.size()), h.head + 1)};
    return &layer.heads[static_cast<std::size_t>(h.head)].weights;
}

Result<std::vector<HeadRef>> headsOf(const Trace& trace, const Scoring& scoring) {
    std::vector<HeadRef> heads = scoring.heads;
    if (scoring.kind == Scoring::Kind::Layer) {
        const int layers = static_cast<int>(trace.layers.size());
        if (scoring.layer < 0 || scoring.layer >= layers)
            return Error{errorText(ErrorId::WhereLayer, scoring.layer + 1),
                         errorText(ErrorId::ExpectedFound, errorText(ErrorId::ALayerFrom, layers), scoring.layer + 1)};
        const auto count = trace.layers[static_cast<std::size_t>(scoring.layer)].heads.size();
        for (int h = 0; h < static_cast<int>(count); ++h) heads.push_back({scoring.layer, h});
    }
    if (heads.empty()) return Error{ErrorId::WhereScoring, errorText(ErrorId::ExpectedFound, ErrorId::AtLeastOneHead, ErrorId::NoneFound)};
    return heads;
}

bool isAblated(const Trace& trace, HeadRef h) {
    return trace.layers[static_cast<std::size_t>(h.layer)].heads[static_cast<std::size_t>(h.head)].ablated;
}

// The mean of the rows of the heads that are on (all 0 when every head is off), so the scores
// still sum to 1 with some of a layer's heads switched off.
RowVec meanOfHeadsOn(const Trace& trace, const std::vector<HeadRef>& heads, const Mat& headScores) {
    RowVec sum = RowVec::Zero(headScores.cols());
    int on = 0;
    for (std::size_t k = 0; k < heads.size(); ++k)
        if (!isAblated(trace, heads[k])) sum += headScores.row(static_cast<Eigen::Index>(k)), ++on;
    return on > 0 ? RowVec(sum / on) : sum;
}

// K×C: each head's attention from the mention to the candidates, not renormalised.
Result<Mat> perHeadAttention(const Trace& trace, const std::vector<Word>& words, const Mention& mention,
                             const std::vector<int>& candidates, const std::vector<HeadRef>& heads) {
    Mat attention = Mat::Zero(static_cast<Eigen::Index>(heads.size()), static_cast<Eigen::Index>(candidates.size()));
    for (std::size_t k = 0; k < heads.size(); ++k) {
        auto weights = headWeights(trace, heads[k]);
        if (!weights) return weights.error();
        if (auto bad = checkWeights(*weights.value(), words, errorText(ErrorId::WhereHead, headName(heads[k]))); !bad.ok()) return bad.error();
        if (isAblated(trace, heads[k])) continue;  // switched off: it passes nothing on, its row stays 0
        attention.row(static_cast<Eigen::Index>(k)) = candidateAttention(*weights.value(), words, mention, candidates);
    }
    return attention;
}

Result<void> checkMention(const std::vector<Word>& words, const Mention& mention) {
    const int count = static_cast<int>(words.size());
    if (mention.firstWord < 0 || mention.lastWord >= count || mention.firstWord > mention.lastWord)
        return Error{ErrorId::WhereMention, errorText(ErrorId::ExpectedFound, errorText(ErrorId::WordsWithin, count),
                                                      std::to_string(mention.firstWord + 1) + ".." + std::to_string(mention.lastWord + 1))};
    return {};
}

}  // namespace

// ---------------------------------------------------------------- words and mentions

std::vector<Word> wordsOf(const std::vector<Token>& tokens) {
    std::vector<Word> words;
    int openWord = -1;  // Token::word of the word being built, -1 when none is open
    for (int t = 0; t < static_cast<int>(tokens.size()); ++t) {
        const Token& token = tokens[static_cast<std::size_t>(t)];
        if (token.special) {
            openWord = -1;
            continue;
        }
        const bool continues = token.word >= 0 && token.word == openWord && !words.empty();
        if (!continues) {
            if (!words.empty()) words.back() = finishedWord(std::move(words.back()));
            words.push_back({});
        }
        words.back().text += pieceText(token, !continues);
        words.back().tokens.push_back(t);
        words.back().madeUp = words.back().madeUp || !token.inTable;
        openWord = token.word;
    }
    if (!words.empty()) words.back() = finishedWord(std::move(words.back()));
    return words;
}

bool isPunctuationToken(const Token& token) { return isPunctuationWord(pieceText(token, true)); }

std::vector<Mention> findPronouns(const std::vector<Word>& words) {
    std::vector<Mention> mentions;
    for (int w = 0; w < static_cast<int>(words.size()); ++w) {
        auto mention = mentionAtWord(words, w);
        if (!mention || !mention.value().pronoun) continue;
        mentions.push_back(mention.value());
        w = mention.value().lastWord;
    }
    return mentions;
}

Result<Mention> mentionAtWord(const std::vector<Word>& words, int word) {
    const int count = static_cast<int>(words.size());
    if (word < 0 || word >= count)
        return Error{ErrorId::WhereMention, errorText(ErrorId::ExpectedFound, errorText(ErrorId::AWordFrom, count), word + 1)};
    for (int last = std::min(count - 1, word + kLongestPronounWords - 1); last >= word; --last) {
        const std::string text = joinedText(words, word, last);
        if (text.size() > longestPronounBytes()) continue;
        if (auto pronoun = pronounOf(text)) return Mention{word, last, text, pronoun};
    }
    return Mention{word, word, words[static_cast<std::size_t>(word)].text, std::nullopt};
}

std::optional<std::pair<int, int>> findWordSpan(const std::vector<Word>& words, std::string_view text,
                                                int occurrence) {
    const std::string target = lowercaseAscii(withoutSpaces(text));
    if (target.empty()) return std::nullopt;
    int seen = 0;
    for (int first = 0; first < static_cast<int>(words.size()); ++first) {
        std::string joined;
        for (int last = first; last < static_cast<int>(words.size()) && joined.size() < target.size(); ++last) {
            joined += lowercaseAscii(words[static_cast<std::size_t>(last)].text);
            if (joined == target && ++seen == occurrence) return std::make_pair(first, last);
        }
    }
    return std::nullopt;
}

std::vector<int> candidatesFor(const std::vector<Word>& words, const Mention& mention, bool cataphora) {
    std::vector<int> candidates;
    for (int w = 0; w < static_cast<int>(words.size()); ++w) {
        const Word& word = words[static_cast<std::size_t>(w)];
        const bool inMention = w >= mention.firstWord && w <= mention.lastWord;
        const bool allowedSide = w < mention.firstWord || (cataphora && w > mention.lastWord);
        if (!inMention && allowedSide && !word.punctuation && !word.stopWord) candidates.push_back(w);
    }
    return candidates;
}

// ---------------------------------------------------------------- scoring

std::string describeScoring(const Scoring& scoring, int headsPerLayer, Language language) {
    switch (scoring.kind) {
        case Scoring::Kind::Rollout: return std::string(message(MessageId::ScoringRollout, language));
        case Scoring::Kind::Layer:
            return fillMessage(message(MessageId::ScoringLayer, language),
                               {std::to_string(headsPerLayer), std::to_string(scoring.layer + 1)});
        case Scoring::Kind::Heads: break;
    }
    if (scoring.heads.size() == 1)
        return fillMessage(message(MessageId::ScoringHead, language),
                           {std::to_string(scoring.heads[0].layer + 1), std::to_string(scoring.heads[0].head + 1)});
    std::string list;  // "5:4, 6:1": the same in every language, as --heads takes them
    for (const HeadRef& h : scoring.heads) list += (list.empty() ? "" : ", ") + headName(h);
    return fillMessage(message(MessageId::ScoringHeadSet, language), {std::to_string(scoring.heads.size()), list});
}

std::string scoringText(const Resolution& resolution, Language language) {
    return describeScoring(resolution.scoring, resolution.headsPerLayer, language);
}

RowVec attentionToWords(GridRef weights, const std::vector<Word>& words, const Mention& mention) {
    RowVec from = RowVec::Zero(weights.cols());
    int pieces = 0;
    for (int w = mention.firstWord; w <= mention.lastWord; ++w)
        for (const int t : words[static_cast<std::size_t>(w)].tokens) {
            weights.visit([&](const auto& a) { from += a.row(t).template cast<double>(); });  // sums in double
            ++pieces;
        }
    if (pieces > 0) from /= static_cast<double>(pieces);
    RowVec to = RowVec::Zero(static_cast<Eigen::Index>(words.size()));
    for (std::size_t w = 0; w < words.size(); ++w)
        for (const int t : words[w].tokens) to(static_cast<Eigen::Index>(w)) += from(t);
    return to;
}

RowVec candidateAttention(GridRef weights, const std::vector<Word>& words, const Mention& mention,
                          const std::vector<int>& candidates) {
    const RowVec toWords = attentionToWords(weights, words, mention);
    RowVec scores(static_cast<Eigen::Index>(candidates.size()));
    for (std::size_t c = 0; c < candidates.size(); ++c) scores(static_cast<Eigen::Index>(c)) = toWords(candidates[c]);
    return scores;
}

namespace {

RowVec renormalised(RowVec attention) {
    const double total = attention.sum();
    if (total > 0) attention /= total;
    return attention;
}

}  // namespace

RowVec candidateDistribution(GridRef weights, const std::vector<Word>& words, const Mention& mention,
                             const std::vector<int>& candidates) {
    return renormalised(candidateAttention(weights, words, mention, candidates));
}

namespace {

std::vector<int> headsOn(const LayerTrace& layer) {
    std::vector<int> on;
    for (int h = 0; h < static_cast<int>(layer.heads.size()); ++h)
        if (!layer.heads[static_cast<std::size_t>(h)].ablated) on.push_back(h);
    return on;
}

// Â_l = rownorm(mean over heads of A_l + I).  T×T
// A head switched off counts as an all-zero A (what Hugging Face returns for it under head_mask):
// the mean is over every head, so switching heads off leans the rollout towards the residual.
Result<Mat> rolloutStep(const Trace& trace, std::size_t layer) {
    const LayerTrace& here = trace.layers[layer];
    const Mat every = averageOverHeads(here);  // checks every head's shape
    if (every.rows() == 0 || every.rows() != trace.tokenCount())
        return Error{errorText(ErrorId::WhereRolloutLayer, layer + 1),
                     errorText(ErrorId::ExpectedFound, ErrorId::EveryHeadWeights, ErrorId::AHeadWithoutThem)};
    const std::vector<int> on = headsOn(here);
    Mat mean = on.empty() ? Mat(Mat::Zero(every.rows(), every.cols()))
               : on.size() == here.heads.size()
                   ? every
                   : Mat(averageOverHeads(here, on) * (double(on.size()) / double(here.heads.size())));
    mean += Mat::Identity(mean.rows(), mean.cols());  // the residual connection
    return renormalizeRows(mean);
}

}  // namespace

Result<Mat> attentionRollout(const Trace& trace) {
    std::vector<int> every(static_cast<std::size_t>(trace.tokenCount()));
    for (int t = 0; t < trace.tokenCount(); ++t) every[static_cast<std::size_t>(t)] = t;
    return attentionRolloutRows(trace, every);
}

Result<Mat> attentionRolloutRows(const Trace& trace, const std::vector<int>& rows) {
    if (trace.layers.empty()) return Error{ErrorId::WhereRollout, errorText(ErrorId::ExpectedFound, ErrorId::AtLeastOneLayer, ErrorId::NoneFound)};
    // R = Â_{L-1} ⋯ Â_0, so its rows are e_iᵀ·Â_{L-1}, then times Â_{L-2}, …, Â_0: n×T·T×T per
    // layer instead of T×T·T×T (at 512 tokens and 12 layers, 250 ms became a few ms per mention).
    Mat out;  // n×T
    for (std::size_t l = trace.layers.size(); l-- > 0;) {
        auto step = rolloutStep(trace, l);
        if (!step) return step.error();
        if (out.size() == 0) {
            out = Mat(static_cast<Eigen::Index>(rows.size()), step.value().cols());
            for (std::size_t k = 0; k < rows.size(); ++k) out.row(static_cast<Eigen::Index>(k)) = step.value().row(rows[k]);
        } else {
            out = out * step.value();
        }
    }
    return out;
}

std::vector<HeadContribution> contributionsTo(const Resolution& resolution, int candidate) {
    std::vector<HeadContribution> out;
    if (candidate < 0 || candidate >= resolution.headScores.cols()) return out;
    for (std::size_t k = 0; k < resolution.heads.size(); ++k)
        out.push_back({resolution.heads[k], resolution.headScores(static_cast<Eigen::Index>(k), candidate)});
    return out;
}

std::vector<HeadRef> allHeads(const Trace& trace) {
    std::vector<HeadRef> heads;
    for (int l = 0; l < static_cast<int>(trace.layers.size()); ++l)
        for (int h = 0; h < static_cast<int>(trace.layers[static_cast<std::size_t>(l)].heads.size()); ++h)
            heads.push_back({l, h});
    return heads;
}

int chooseCandidate(const RowVec& scores, const std::vector<int>& candidates, const Mention& mention) {
    if (scores.size() == 0) return -1;
    const double best = scores.maxCoeff();
    return nearestWhere(candidates, mention, [&](int c) { return scores(c) >= best - kTieTolerance; });
}

int nearestBaseline(const std::vector<int>& candidates, const Mention& mention) {
    const int before = nearestWhere(candidates, mention, [&](int c) {
        return candidates[static_cast<std::size_t>(c)] < mention.firstWord;
    });
    return before >= 0 ? before : nearestWhere(candidates, mention, [](int) { return true; });
}

int ruleBaseline(const std::vector<Word>& words, const std::vector<int>& candidates, const Mention& mention) {
    if (!mention.pronoun) return nearestBaseline(candidates, mention);
    const auto noun = [&](int c) {
        return nounOf(words[static_cast<std::size_t>(candidates[static_cast<std::size_t>(c)])].text);
    };
    const auto agreeing = [&](int c) { return agrees(*mention.pronoun, noun(c)); };
    const int listed = nearestWhere(candidates, mention, [&](int c) { return agreeing(c) && noun(c).listed; });
    if (listed >= 0) return listed;
    const int any = nearestWhere(candidates, mention, agreeing);
    return any >= 0 ? any : nearestBaseline(candidates, mention);
}

// Scores one mention. `rollout` is the trace's rollout, computed once per sentence by the caller:
// at 512 tokens and 12 layers it is 11 products of 512×512 matrices, too much to repeat for every
// pronoun on the GUI thread.
static Result<Resolution> scoreMention(const Trace& trace, const std::vector<Word>& words, const Mention& mention,
                                       const Scoring& scoring, bool cataphora, const Mat* rollout) {
    if (auto bad = checkMention(words, mention); !bad.ok()) return bad.error();
    Resolution r;
    r.mention = mention;
    r.candidates = candidatesFor(words, mention, cataphora);
    r.scoring = scoring;
    r.headsPerLayer = trace.headCount();
    if (scoring.kind == Scoring::Kind::Rollout) {
        if (auto bad = checkWeights(*rollout, words, ErrorId::WhereRollout); !bad.ok()) return bad.error();
        r.rawScores = candidateAttention(*rollout, words, mention, r.candidates);
        r.scores = renormalised(r.rawScores);
        r.headScores = Mat::Zero(0, static_cast<Eigen::Index>(r.candidates.size()));
    } else {
        auto heads = headsOf(trace, scoring);
        if (!heads) return heads.error();
        r.heads = std::move(heads).value();
        auto perHead = perHeadAttention(trace, words, mention, r.candidates, r.heads);
        if (!perHead) return perHead.error();
        r.headScores = perHead.value();
        for (Eigen::Index k = 0; k < r.headScores.rows(); ++k) r.headScores.row(k) = renormalised(r.headScores.row(k));
        r.scores = meanOfHeadsOn(trace, r.heads, r.headScores);
        r.rawScores = meanOfHeadsOn(trace, r.heads, perHead.value());
    }
    r.chosen = chooseCandidate(r.scores, r.candidates, mention);
    r.baselines = {nearestBaseline(r.candidates, mention), ruleBaseline(words, r.candidates, mention)};
    return r;
}

// The rollout when the scoring needs it (an empty matrix otherwise): a T×T matrix holding only
// the rows of the mentions' pieces, which is all candidateDistribution reads.
static Result<Mat> rolloutFor(const Trace& trace, const Scoring& scoring, const std::vector<Word>& words,
                              const std::vector<Mention>& mentions) {
    if (scoring.kind != Scoring::Kind::Rollout) return Mat();
    std::vector<int> rows;
    for (const Mention& m : mentions)
        for (int w = m.firstWord; w <= m.lastWord; ++w)
            for (int t : words[static_cast<std::size_t>(w)].tokens) rows.push_back(t);
    auto mentionRows = attentionRolloutRows(trace, rows);
    if (!mentionRows) return mentionRows.error();
    Mat rollout = Mat::Zero(trace.tokenCount(), trace.tokenCount());
    for (std::size_t k = 0; k < rows.size(); ++k) rollout.row(rows[k]) = mentionRows.value().row(static_cast<Eigen::Index>(k));
    return rollout;
}

Result<Resolution> resolveMention(const Trace& trace, const std::vector<Word>& words, const Mention& mention,
                                  const Scoring& scoring, bool cataphora) {
    if (auto bad = checkMention(words, mention); !bad.ok()) return bad.error();
    auto rollout = rolloutFor(trace, scoring, words, {mention});
    if (!rollout) return rollout.error();
    return scoreMention(trace, words, mention, scoring, cataphora, &rollout.value());
}

std::string madeUpWords(const SentenceResolution& resolved) {
    std::vector<bool> involved(resolved.words.size(), false);
    for (const Resolution& r : resolved.mentions) {
        for (int w = r.mention.firstWord; w <= r.mention.lastWord; ++w) involved[static_cast<std::size_t>(w)] = true;
        for (int c : r.candidates) involved[static_cast<std::size_t>(c)] = true;
    }
    std::vector<std::string> named;
    std::string list;
    for (std::size_t w = 0; w < resolved.words.size(); ++w) {
        const std::string& text = resolved.words[w].text;
        if (!involved[w] || !resolved.words[w].madeUp || std::find(named.begin(), named.end(), text) != named.end()) continue;
        list += (list.empty() ? "" : ", ") + text;
        named.push_back(text);
    }
    return list;
}

std::string madeUpNote(const SentenceResolution& resolved, Language language) {
    const std::string words = madeUpWords(resolved);
    return words.empty() ? std::string() : fillMessage(message(MessageId::CorefMadeUpWords, language), {words});
}

Result<SentenceResolution> resolveSentence(const Trace& trace, const ResolveOptions& options) {
    // A pronoun's antecedent is in its own sentence: cross-attention's columns are another one
    // (an encoder–decoder's cross stage).
    if (trace.isCrossAttention())
        return Error{ErrorId::WhereSentence, errorText(ErrorId::ExpectedFound, ErrorId::SelfAttention, ErrorId::ACrossAttentionTrace)};
    SentenceResolution out;
    out.words = wordsOf(trace.tokens);
    std::vector<Mention> mentions;
    if (options.mentionWord) {
        auto chosen = mentionAtWord(out.words, *options.mentionWord);
        if (!chosen) return chosen.error();
        mentions.push_back(chosen.value());
    } else {
        mentions = findPronouns(out.words);
    }
    if (mentions.empty()) return out;
    auto rollout = rolloutFor(trace, options.scoring, out.words, mentions);
    if (!rollout) return rollout.error();
    for (const Mention& mention : mentions) {
        auto resolved = scoreMention(trace, out.words, mention, options.scoring, options.cataphora, &rollout.value());
        if (!resolved) return resolved.error();
        out.mentions.push_back(std::move(resolved).value());
    }
    return out;
}

}  // namespace attnscope
