#include "core/analysis/word_attention.hpp"

#include <algorithm>

#include "core/tokenizers/token_reading.hpp"

namespace attnscope {

namespace {

int countOf(const std::vector<int>& group) { return group.empty() ? 0 : *std::max_element(group.begin(), group.end()) + 1; }

}  // namespace

Mat wordLevelAttention(const GridRef& weights, const std::vector<int>& queryGroup, const std::vector<int>& keyGroup) {
    const int wq = countOf(queryGroup), wk = countOf(keyGroup);
    Mat summed = Mat::Zero(wq, wk);                  // Σ over the query word's pieces of Σ over the key word's
    std::vector<int> pieces(static_cast<std::size_t>(wq), 0);  // pieces per query word
    for (Eigen::Index q = 0; q < weights.rows(); ++q) {
        const int row = queryGroup[static_cast<std::size_t>(q)];
        ++pieces[static_cast<std::size_t>(row)];
        for (Eigen::Index k = 0; k < weights.cols(); ++k) summed(row, keyGroup[static_cast<std::size_t>(k)]) += weights(q, k);
    }
    for (int row = 0; row < wq; ++row) summed.row(row) /= std::max(1, pieces[static_cast<std::size_t>(row)]);
    return summed;
}

std::vector<Token> wordLevelTokens(const std::vector<Token>& tokens, const std::vector<int>& group) {
    std::vector<Token> words(static_cast<std::size_t>(countOf(group)));
    std::vector<bool> started(words.size(), false);
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        Token& word = words[static_cast<std::size_t>(group[i])];
        const Token& piece = tokens[i];
        std::string text = piece.text;
        // A part mark stands for a character that a later piece of the same word shows.
        if (piece.completedAhead > 0 && text.size() >= 3 && text.compare(text.size() - 3, 3, kPartMark) == 0) text.resize(text.size() - 3);
        if (!started[static_cast<std::size_t>(group[i])]) {
            word = piece;
            word.text = text;
            word.piece = piece.piece;
            word.completedAhead = 0;
            started[static_cast<std::size_t>(group[i])] = true;
            continue;
        }
        word.text += text;
        word.piece += piece.piece;
        word.special = word.special && piece.special;
        word.invalidText = word.invalidText || piece.invalidText;
    }
    return words;
}

bool hasMultiPieceWords(const Trace& trace) {
    return !trace.wordGroups.empty() && countOf(trace.wordGroups) < trace.tokenCount();
}

namespace {

// Each of n tokens its own word.
std::vector<int> ownWords(int n) {
    std::vector<int> own(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < own.size(); ++i) own[i] = static_cast<int>(i);
    return own;
}

// A head with only its weights between words (W×W), in the precision the run computed.
HeadTrace wordLevelHead(const HeadTrace& head, const std::vector<int>& queryGroup, const std::vector<int>& keyGroup) {
    HeadTrace words;
    words.ablated = head.ablated;
    if (head.weights.size() == 0) return words;  // a long run's layer not rebuilt: no weights here either
    const Mat w = wordLevelAttention(head.weights.ref(), queryGroup, keyGroup);
    if (head.weights.isFloat()) words.weights = AttentionWeights(MatF(w.cast<float>()));
    else words.weights = AttentionWeights(w);
    return words;
}

}  // namespace

Trace wordLevelTrace(const Trace& trace) {
    const bool grouped = static_cast<int>(trace.wordGroups.size()) == trace.tokenCount();
    const std::vector<int> group = grouped ? trace.wordGroups : ownWords(trace.tokenCount());
    Trace words;
    words.tokens = wordLevelTokens(trace.tokens, group);
    for (std::size_t w = 0; w < words.tokens.size(); ++w) words.tokens[w].word = static_cast<int>(w);  // one word each
    // Cross-attention comes from lessons only, whose tokens are words already.
    words.keyTokens = trace.keyTokens;
    const std::vector<int> keyGroup = trace.isCrossAttention() ? ownWords(trace.keyCount()) : group;
    for (const LayerTrace& layer : trace.layers) {
        LayerTrace& out = words.layers.emplace_back();
        out.kvHeadOf = layer.kvHeadOf;
        out.slidingWindow = layer.slidingWindow;
        out.headNorm = layer.headNorm;
        for (const HeadTrace& head : layer.heads)
            out.heads.push_back(wordLevelHead(head, group, keyGroup));
    }
    words.positionalKind = trace.positionalKind;
    words.projections = trace.projections;
    words.scaled = trace.scaled;
    words.scaleDivisor = trace.scaleDivisor;
    words.causal = trace.causal;
    words.paddedFrom = trace.paddedFrom < 0 ? -1 : group[static_cast<std::size_t>(trace.paddedFrom)];
    words.hasOutputProjection = trace.hasOutputProjection;
    words.residual = trace.residual;
    words.handRounding = trace.handRounding;
    words.notices = trace.notices;
    return words;
}

}  // namespace attnscope
