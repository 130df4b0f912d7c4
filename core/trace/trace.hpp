#pragma once
// The Trace: every intermediate of one run, as plain data. Lesson models and real models fill the
// same type, so every view and export works with both.
//
// Shape legend: T tokens, d model width, H heads, d_k query/key width, d_v value width.
// Cross-attention (Trace::keyTokens not empty): T_q query tokens (the target), T_k key/value
// tokens (the source); self-attention is the case T_q = T_k = T.
#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/matrix.hpp"
#include "core/trace/attention_weights.hpp"
#include "core/text/localized_text.hpp"
#include "core/text/notice.hpp"

namespace attnscope {

// What a lesson gives the words of a sentence that its embedding table lacks (the teacher's
// choice, "unknown_words" in the lesson file): the documented hash rule, zero vectors, or no run
// at all until their vectors are added. Made-up vectors are named in a notice.
enum class UnknownWords { Hash, Zeros, Ask };

struct Token {
    std::string text;
    bool inTable = true;  // false: the lesson's table lacks it; its vector was made up (UnknownWords)
    int id = -1;          // vocabulary id for real tokenizers, -1 for lesson tokens
    int word = -1;        // index of the word this piece belongs to (-1: the token is its own word)
    bool special = false; // [CLS], [SEP], <|endoftext|>, ...
    // Real tokenizers (core/tokenizers/token_reading.hpp): text is the reader's form, piece the
    // vocabulary's spelling ("Ġworld", "<0xE5>"); completedAhead > 0: holds leading bytes of a
    // character shown that many tokens later; invalidText: bytes that form no character here.
    std::string piece{};
    int completedAhead = 0;
    bool invalidText = false;
    bool zeroVector = false;  // not in a lesson's table, made up as zeros (UnknownWords::Zeros), not hashed
    bool operator==(const Token&) const = default;
};

// One head of one layer, both counted from 0 (shown from 1).
struct HeadRef {
    int layer = 0, head = 0;
    auto operator<=>(const HeadRef&) const = default;
};

struct HeadWeights {
    Mat wq, wk, wv;  // d×d_k, d×d_k, d×d_v  (row-vector convention: Q = X·W_Q)
    RowVec bq, bk, bv;  // empty when the lesson has no bias
};

struct HeadTrace {
    HeadWeights params;   // the weights this head used (identity when projections are off)
    Mat q;                // T_q×d_k   X·W_Q + b_Q (RoPE models: after the rotation; the scores' Q)
    Mat k;                // T_k×d_k   X_kv·W_K + b_K  (X_kv = LayerTrace::keyValueInput()); RoPE: rotated
    Mat qBeforeRope;      // T_q×d_k   RoPE models: Q before the rotation (after q_norm where the family has
                          //           one); empty without RoPE. Row m, pair (i, i + d_k/2) turns by m·θ_i
    Mat kBeforeRope;      // T_k×d_k   the same for K (its key/value head's, shared under grouped-query attention)
    Mat v;                // T_k×d_v   X_kv·W_V + b_V
    Mat scores;           // T_q×T_k   Q·Kᵀ
    Mat scaledScores;     // T_q×T_k   scores / scaleDivisor
    Mat mask;             // T_q×T_k   0 where attention is allowed, -inf where masked
    Mat maskedScores;     // T_q×T_k   scaledScores + mask
    AttentionWeights weights;  // T_q×T_k softmax of each row of maskedScores: double for lessons,
                               // float for models (core/trace/attention_weights.hpp)
    Mat weightedSum;      // T_q×d_v   weights·V (zero when the head is ablated)
    // Switched off for this run (Hugging Face's head_mask = 0): `weights` are still the ones it
    // computed, but they were multiplied by 0 before the weighted sum, so its output is zero.
    bool ablated = false;
};

struct LayerTrace {
    Mat input;                    // T×d        X entering the layer (lessons: E + P, then X + output of the layer before)
    Mat keyInput;                 // T_k×d      cross-attention: the source's X that K and V come from; empty: `input`
    std::vector<HeadTrace> heads; // H
    Mat concat;                   // T×(H·d_v)  [head_1 | … | head_H]
    Mat wo;                       // (H·d_v)×d  identity when the lesson has no W_O
    RowVec bo;                    // empty when there is no output bias
    Mat output;                   // T×d        concat·W_O + b_O
    // Grouped-query attention: query head h reads key/value head kvHeadOf[h] (its K and V are that
    // head's; several query heads share one). Empty: each head has its own (multi-head attention).
    std::vector<int> kvHeadOf;    // H
    RowVec ropeFrequencies;       // 1×(d_k/2)  RoPE's θ_i of this layer; empty: no RoPE
    bool ropeInterleaved = false; // RoPE pair i is columns (2i, 2i+1) (the paper; lessons may ask), else (i, i + d_k/2)
    int slidingWindow = 0;        // W > 0: key j visible to query i only when i − W < j ≤ i
    bool headNorm = false;        // q_norm and k_norm (RMSNorm over each head's d_k) before RoPE: Qwen3, Gemma 3

    // What K and V are projected from: the source in cross-attention, else the layer's input.
    const Mat& keyValueInput() const { return keyInput.size() > 0 ? keyInput : input; }  // T_k×d
};

// Rotary: nothing is added to the embeddings; Q and K are turned by position (HeadTrace::qBeforeRope).
enum class PositionalKind { None, Sinusoidal, Table, Rotary };

// The rest of a transformer block after attention (lessons, format version 6): Add & Norm, the
// feed-forward network, Add & Norm, the output head (core/pipeline/block.hpp).
// Shape legend: T tokens, d model width, d_ff feed-forward width, V the lesson's vocabulary.
enum class BlockNorm { None, LayerNorm, RmsNorm };
enum class BlockFfn { None, Relu, Gelu, SwiGlu };

struct NormTrace {
    BlockNorm kind = BlockNorm::None;
    RowVec gamma;    // 1×d  scale γ (RMSNorm: its weight)
    RowVec beta;     // 1×d  shift β; empty for RMSNorm
    double eps = 1e-5;
    Mat mean;        // T×1  LayerNorm: each row's mean μ; empty for RMSNorm
    Mat variance;    // T×1  LayerNorm: mean of (x − μ)²; RMSNorm: mean of x²
    Mat output;      // T×d  LayerNorm: (x − μ)/√(σ² + ε)·γ + β; RMSNorm: x/√(mean x² + ε)·γ
    bool present() const { return kind != BlockNorm::None; }
};

struct FeedForwardTrace {
    BlockFfn kind = BlockFfn::None;
    Mat wIn;         // d×d_ff  W_1 (SwiGLU: W_up)
    RowVec bIn;      // 1×d_ff  b_1, optional (none for SwiGLU)
    Mat wGate;       // d×d_ff  SwiGLU: W_gate; empty otherwise
    Mat wOut;        // d_ff×d  W_2 (SwiGLU: W_down)
    RowVec bOut;     // 1×d     b_2, optional
    Mat gate;        // T×d_ff  SwiGLU: G = X·W_gate; empty otherwise
    Mat hidden;      // T×d_ff  H = X·W_1 + b_1 (SwiGLU: U = X·W_up)
    Mat activated;   // T×d_ff  ReLU(H), GELU(H), or SwiGLU: SiLU(G) ⊙ U
    Mat output;      // T×d     activated·W_2 + b_2
    bool present() const { return kind != BlockFfn::None; }
};

struct BlockTrace {
    bool residual = false;     // X + attention, and (with a feed-forward network) N + F
    Mat afterAttention;        // T×d  X + output of the last attention layer; empty without residual
    NormTrace norm;            // over afterAttention (or the attention output without residual)
    FeedForwardTrace ffn;      // over the norm's output (or what came before it)
    Mat afterFfn;              // T×d  input of the FFN + its output; empty without residual or FFN
    NormTrace finalNorm;       // over the last of the above
    std::vector<std::string> vocabulary;  // V  the lesson's words, in table order (the head's columns)
    Mat wVocab;                // d×V  output head; empty: no head
    RowVec bVocab;             // 1×V  optional
    Mat logits;                // T×V  Y·W_vocab + b
    Mat probabilities;         // T×V  softmax of each row: the next word's probabilities
    bool present() const { return residual || norm.present() || ffn.present() || finalNorm.present() || wVocab.size() > 0; }
};

struct Trace {
    std::vector<Token> tokens;     // the queries' tokens (rows); in self-attention the keys' too
    std::vector<Token> keyTokens;  // cross-attention: the source tokens keys and values come from
                                   // (columns of scores/weights, rows of K and V); empty: self-attention
    Mat embedding;   // T×d  the token vectors
    Mat positional;  // T×d  what positional encoding added (zeros when none)
    std::vector<LayerTrace> layers;
    std::vector<LocalizedText> featureNames;  // d names for embedding columns (may be empty)

    PositionalKind positionalKind = PositionalKind::None;
    bool projections = true;
    bool scaled = true;
    double scaleDivisor = 1.0;  // √d_k when scaled, else 1
    bool causal = false;
    int paddedFrom = -1;  // tokens from here on are padding ([PAD]), hidden from every query; -1: none
    bool hasOutputProjection = false;
    bool residual = false;  // layer l+1's input is X_l + output_l (lessons with several layers)
    std::optional<int> handRounding;  // every intermediate rounded to this many decimals
    std::vector<Notice> notices;      // things the reader must see: masked rows, infinities, … (noticeText)
    // Model runs: each token's word (0, 1, … in order; ModelTokenizer::wordGroups: word pieces, byte
    // pieces and Chinese characters joined into words) for the word-level views
    // (core/analysis/word_attention.hpp). Empty: every token is a word of its own (lessons).
    std::vector<int> wordGroups;      // T
    BlockTrace block;                 // after the last attention layer (lessons); empty for models

    bool hasMask() const { return causal || paddedFrom >= 0; }  // a Masked step between scaling and softmax
    int tokenCount() const { return static_cast<int>(tokens.size()); }  // T_q
    bool isCrossAttention() const { return !keyTokens.empty(); }
    bool rotates() const { return positionalKind == PositionalKind::Rotary; }  // RoPE steps before the scores
    const std::vector<Token>& columnTokens() const { return isCrossAttention() ? keyTokens : tokens; }
    int keyCount() const { return static_cast<int>(columnTokens().size()); }  // T_k
    int headCount() const { return layers.empty() ? 0 : static_cast<int>(layers[0].heads.size()); }
    int layerCount() const { return static_cast<int>(layers.size()); }
};

// Every matrix a run shows. The first group are the steps a lesson walks through; the second
// are operands shown beside a step (weights, the positional rows, the mask) but not steps.
enum class Step {
    Embedding, Input, Query, Key, Value, Scores, Scaled, Masked, Weights, WeightedSum, Concat, Output,
    Positional, WQ, WK, WV, WO, Mask,
    SourceInput,  // cross-attention: X of the source sentence (K and V come from it); else X itself
    // RoPE models: Q and K as projected, before the rotation; their Query and Key are the rotated ones.
    QueryBeforeRope, KeyBeforeRope,
    // Lessons' block after attention (BlockTrace), in the order they run, then their weights.
    AddAttention, Norm, FfnGate, FfnHidden, FfnActivated, FfnOutput, AddFfn, FinalNorm, Logits, Probabilities,
    WFfnGate, WFfnIn, WFfnOut, WVocab
};

bool isBlockStep(Step step);  // a step of Trace::block: shown after the last layer's steps

bool isPerHead(Step step);
bool isTokenByToken(Step step);             // T_q×T_k: columns are (key) tokens too
std::string_view stepKey(Step step);        // command-line and JSON name, e.g. "scaled_scores"
std::string_view stepTitle(Step step);      // human title, e.g. "Scaled scores  S / √d_k"
std::string_view stepSymbol(Step step);     // short symbol, e.g. "Q", "S/√d_k", "W_Q"
std::optional<Step> stepFromKey(std::string_view key);

// The title of a step in `layer` (0-based): stepTitle, except that a later layer's input says
// where it comes from ("Input of layer 2: X₂ = X₁ + output₁ (residual)").
std::string stepTitleIn(const Trace& trace, Step step, int layer);

// The steps layer `layer` (0-based) walks through: the first layer starts at the embedding (no
// positional step without an encoding), a later one at its input X; no scaling step when
// scaling is off, no mask step without a mask, no W_O step without W_O.
std::vector<Step> stepsOf(const Trace& trace, int layer = 0);

// A matrix shown beside a step: which step, in which layer (0-based). The input of a later
// layer is computed from the layer before.
struct Operand {
    Step step;
    int layer;
    bool operator==(const Operand&) const = default;
};

// The matrices a step of `layer` is computed from, shown beside it (e.g. Query ← Input, WQ);
// weights the trace does not store (wide identities) are left out.
std::vector<Operand> operandsOf(const Trace& trace, Step step, int layer = 0);

// Grouped-query attention: the query heads (0-based, ascending) that read the same key/value head
// as query head `head` of `layer`; just {head} when each head has its own K and V.
std::vector<int> queryHeadsSharingKv(const LayerTrace& layer, int head);
// True when some key/value head of the layer serves more than one query head (H_kv < H).
bool sharesKeyValueHeads(const LayerTrace& layer);

// The matrix for a step; head is ignored for steps that are not per head. Every step is double
// except a model's Step::Weights (float): read it through the view, or exact() in lesson code.
GridRef stepMatrix(const Trace& trace, Step step, int layer, int head);

// Labels: rows are tokens for token rows, else feature names (in `language`, see LocalizedText::in)
// or indices; columns likewise.
std::vector<std::string> rowLabels(const Trace& trace, Step step, int layer, int head,
                                   std::string_view language = {});
std::vector<std::string> columnLabels(const Trace& trace, Step step, int layer, int head,
                                      std::string_view language = {});

// Whether `a` and `b` hold the same tokens and, at `layer`, the same weights and ablated flag in
// every one of `heads` (none: false): a view drawing those heads draws the same cells from
// either. A long run's whole layer after its head came first holds that head's very bits.
bool sameWeightsShown(const Trace& a, const Trace& b, int layer, const std::vector<int>& heads);

}  // namespace attnscope
