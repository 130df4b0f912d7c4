#pragma once
// Queries and keys of one head in one 2-D picture, as AttentionViz draws them (issue 14 §2).
//
// Shape legend: T_q query tokens, T_k key tokens, d_k query/key width, N = ΣT_q + ΣT_k points.
//
// 1. Gather the query rows (HeadTrace::q) and key rows (HeadTrace::k) of the head, for one
//    sentence or several (each sentence its own Trace).
// 2. Normalise (AttentionViz): translate every key by c = mean(q) − mean(k), so the keys' centroid
//    meets the queries', then scale queries by a and keys by 1/a, a = √(mean‖k + c‖ / mean‖q‖), so
//    both have the same mean norm. Neither changes any softmax: (a·q)·((k + c)/a) = q·k + q·c, and
//    q·c is the same for every key of a query's row, a constant per row, which softmax ignores.
//    qkSoftmaxCheck recomputes the weights from the normalised vectors to prove it.
// 3. Exact PCA of the joint point set to 2-D (covariance of all N points, SelfAdjointEigenSolver);
//    each component's sign is fixed so that its eigenvector's largest-|value| entry is positive.
//    Or exact t-SNE of the same normalised points (core/analysis/tsne.hpp, seeded), up to 2,000.
#include <string>
#include <vector>

#include "core/analysis/tsne.hpp"
#include "core/base/result.hpp"
#include "core/text/language.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

enum class QkKind { Query, Key };
enum class QkLayout { Pca, Tsne };
enum class TokenKind { Special, Punctuation, Word };

// One head's vectors of one sentence, copied out of a Trace.
struct QkSentence {
    std::vector<Token> queryTokens, keyTokens;
    Mat q;        // T_q×d_k
    Mat k;        // T_k×d_k
    Mat weights;  // T_q×T_k the trace's attention weights
    Mat mask;     // T_q×T_k 0 or −inf; empty: nothing masked
    double scaleDivisor = 1.0;
};

// Layer and head counted from 0. An error names the layer or head when the trace lacks it, or
// when the layer kept its weights only (a model's layer that was not traced in full detail).
Result<QkSentence> qkSentenceOf(const Trace& trace, int layer, int head);

struct QkPoint {
    QkKind kind = QkKind::Query;
    int sentence = 0;  // index into the sentences given
    int token = 0;     // position in that sentence (0-based)
    std::string text;
    TokenKind tokenKind = TokenKind::Word;
    double x = 0, y = 0;
};

struct QkSpace {
    std::vector<QkPoint> points;  // every sentence's queries, then its keys, sentence after sentence
    std::vector<Mat> weights;     // per sentence, T_q×T_k: what a click on a query draws
    double explained[2] = {0, 0}; // share of the joint point set's variance on PC1, PC2 (0–1), either layout
    // Pearson correlation, over every (query, key) pair of the same sentence that the mask allows,
    // between their 2-D distance and the dot product of their normalised vectors (q·k + q·c:
    // per row, q·k up to the constant the softmax ignores). Negative: closer means more attention.
    double distanceDotCorrelation = 0;
    QkLayout layout = QkLayout::Pca;  // what x and y are: PCA coordinates or a t-SNE embedding
    double perplexity = 0;        // t-SNE's (0 for PCA)
    double scale = 1.0;           // a: queries ×a, keys ×1/a
    double softmaxMaxDifference = 0;  // largest |softmax(q'·k'ᵀ/s + mask) − trace weights|
    int queryCount() const;
    int keyCount() const;
};

struct QkOptions {
    QkLayout layout = QkLayout::Pca;
    TsneOptions tsne;                         // t-SNE only
    const std::atomic<bool>* cancel = nullptr;  // t-SNE only: checked every 50 iterations
};

// Normalises and projects; an error when there is nothing to project, the widths differ or
// t-SNE refuses (too many points, a perplexity out of range, cancelled).
Result<QkSpace> qkSpace(const std::vector<QkSentence>& sentences, const QkOptions& options = {});

// The normalisation alone (step 2): the translation c (1×d_k) and the scale a, for all sentences.
struct QkNormalisation {
    RowVec translation;
    double scale = 1.0;
};
QkNormalisation qkNormalisation(const std::vector<QkSentence>& sentences);

// The proof that the normalisation changes no softmax: the weights recomputed from the
// normalised vectors, softmax((a·q)·((k + c)/a)ᵀ / scaleDivisor + mask), and the largest
// absolute difference from the sentence's own weights (0 for an empty sentence).
double qkSoftmaxCheck(const QkSentence& sentence, const QkNormalisation& normalisation);

TokenKind tokenKindOf(const Token& token);
const char* qkKindName(QkKind kind);          // "query", "key"
const char* tokenKindName(TokenKind kind);    // "special", "punctuation", "word"

// JSON: layer/head (from 1), counts, explained variance, correlation, scale, the softmax check
// and every point. CSV: one header and a row per point (kind,sentence,token,text,token_kind,x,y).
std::string qkSpaceToJson(const QkSpace& space, HeadRef head);
std::string qkSpaceToCsv(const QkSpace& space);
// One line for people: explained variance, correlation and the softmax check, in `language`.
std::string qkSummary(const QkSpace& space, Language language = Language::English);

}  // namespace attnscope
