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

}  // namespace attnscope
