#pragma once
// A lesson model: a tiny, fully specified self-attention model (one layer, or a stack of layers
// joined by residual connections) whose every number a student can check by hand. The file
// format is specified in docs/lesson-format.md.
//
// Shape legend: T tokens, d model width (d_model), H heads, H_kv key/value heads, d_k query/key
// width, d_v value width, L layers.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/matrix.hpp"
#include "core/base/result.hpp"
#include "core/text/localized_text.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

// Version 2 added "layers"; version 3 lets title, description and feature names be given in
// several languages; version 4 added "unknown_words"; version 5 the rotary position encoding
// ("positional_encoding": "rope" or {"rope": {"base", "pairing"}}); version 6 the rest of the
// block after attention ("block": residual, norm, feed-forward network, final norm, output head);
// version 7 grouped-query attention ("kv_heads", "kv_heads_weights"); version 8 an encoder and a
// decoder trained by teacher forcing ("encoder_decoder").
// A file is written with the oldest version that holds it, so older readers keep reading lessons
// that use no newer feature.
inline constexpr int kLessonFormatVersion = 8;

// A norm of the block: LayerNorm (γ, β) or RMSNorm (γ only); BlockNorm::None: left out.
struct LessonNorm {
    BlockNorm kind = BlockNorm::None;
    Mat gamma;  // 1×d, default all 1 (a Mat, so the editor edits it like a weight matrix)
    Mat beta;   // 1×d, default all 0 (LayerNorm only)
    double eps = 1e-5;
};

// The feed-forward network: ReLU/GELU: act(X·W_1 + b_1)·W_2 + b_2; SwiGLU: (SiLU(X·W_gate) ⊙ X·W_up)·W_down.
struct LessonFeedForward {
    BlockFfn kind = BlockFfn::None;
    Mat wIn;     // d×d_ff  W_1 or W_up
    RowVec bIn;  // 1×d_ff  b_1, optional (ReLU, GELU)
    Mat wGate;   // d×d_ff  SwiGLU only
    Mat wOut;    // d_ff×d  W_2 or W_down
    RowVec bOut; // 1×d     b_2, optional (ReLU, GELU)
};

// What follows the last attention layer (format version 6; core/pipeline/block.hpp for the order).
struct LessonBlock {
    bool residual = false;
    LessonNorm norm;
    LessonFeedForward ffn;
    LessonNorm finalNorm;
    bool outputHead = false;  // logits over the lesson's words (its embedding table, in file order)
    bool tied = false;        // the head is the embedding table transposed (d×V), not wVocab
    Mat wVocab;               // d×V, when not tied
    RowVec bVocab;            // 1×V, optional
    bool present() const {
        return residual || norm.kind != BlockNorm::None || ffn.kind != BlockFfn::None ||
               finalNorm.kind != BlockNorm::None || outputHead;
    }
};

// The weights of one attention layer. Every layer of a lesson shares d_model, H, H_kv, d_k and d_v.
struct LessonLayer {
    std::vector<HeadWeights> heads;  // H (unused without projections)
    // Grouped-query attention (Lesson::sharesKeyValues()): H_kv key/value heads, each with W_K, W_V
    // (b_K, b_V); then heads[h] holds only W_Q (b_Q). Empty when every head has its own K and V.
    std::vector<HeadWeights> kvHeads;  // H_kv
    Mat wo;                          // (H·d_v)×d, empty: no W_O
    RowVec bo;                       // 1×d, optional
};

// Format version 8: the lesson's attention layers are the encoder, reading the sentence (the
// source); a decoder reads the target by teacher forcing: decoder input "<s>" + target, labels
// target + "</s>" (core/lesson/run_encoder_decoder.hpp). Shape legend: d model width, V_t the
// output head's words.
struct LessonEncoderDecoder {
    bool present = false;
    std::string target;                   // "who am i"
    LessonLayer decoderSelf;              // masked self-attention over the decoder input
    LessonLayer cross;                    // queries from the decoder, keys and values from the encoder output
    std::vector<std::string> vocabulary;  // V_t  the words the output head scores, "</s>" among them
    Mat wVocab;                           // d×V_t
    RowVec bVocab;                        // 1×V_t, optional
};

inline constexpr const char* kStartToken = "<s>";  // the decoder input's first token
inline constexpr const char* kEndToken = "</s>";   // the last label

struct Lesson {
    LocalizedText title;
    LocalizedText description;
    std::string sentence;  // the sentence the lesson opens with
    int dModel = 0;
    int numHeads = 1;
    // H_kv (format version 7): query head h reads key/value head h / (H / H_kv), as Hugging Face's
    // repeat_kv groups them; H_kv divides H. 0: one per head (multi-head attention).
    int numKvHeads = 0;
    int dK = 0;
    int dV = 0;
    bool lowercase = true;
    std::vector<LocalizedText> featureNames;                     // d, optional
    std::vector<std::pair<std::string, RowVec>> embeddings;      // token → 1×d, in file order
    std::vector<LessonLayer> layers = std::vector<LessonLayer>(1);  // L ≥ 1
    // True for files that give "layers": layer l+1 reads X_l + output_l (a residual connection).
    // A version 1 file has one layer and no residual, exactly as before.
    bool residual = false;
    PositionalKind positional = PositionalKind::None;
    Mat positionalTable;                                         // rows × d, for Table
    // Rotary: Q and K of each head turned by m·θ_i, θ_i = base^(−2i/d_k) (core/pipeline/rope.hpp);
    // pair i is columns (i, i + d_k/2) as Hugging Face pairs them, or (2i, 2i+1) as the paper does.
    double ropeBase = 10000;
    bool ropeInterleaved = false;
    bool scale = true;
    bool causalMask = false;
    bool projections = true;
    UnknownWords unknownWords = UnknownWords::Hash;
    LessonBlock block;  // after the last attention layer; nothing by default
    LessonEncoderDecoder encoderDecoder;  // format version 8; not with a block
    int decimals = 3;
    std::optional<int> handRounding;

    int kvHeadCount() const { return numKvHeads > 0 ? numKvHeads : numHeads; }  // H_kv
    bool sharesKeyValues() const { return kvHeadCount() < numHeads; }
    int kvHeadOf(int head) const {  // repeat_kv: consecutive query heads share one (guarded for H_kv > H)
        return head / (kvHeadCount() <= numHeads ? numHeads / kvHeadCount() : 1);
    }

    const RowVec* findEmbedding(std::string_view token) const;
    RowVec* findEmbedding(std::string_view token);
};

// The layer's H heads each with its own W_K, W_V (b_K, b_V): with shared key/value heads query head
// h gets those of key/value head h / (H / H_kv), as Hugging Face's repeat_kv; else layer.heads.
std::vector<HeadWeights> repeatKeyValues(const Lesson& lesson, const LessonLayer& layer);  // H

// Parses a lesson from JSON text. `source` names the file (or "inline lesson") in errors.
Result<Lesson> parseLesson(std::string_view json, const std::string& source);

// Checks every dimension against d_model, H, d_k and d_v. parseLesson already calls it; editors
// call it again after changing a lesson.
Result<void> validateLesson(const Lesson& lesson, const std::string& source);

// Writes a lesson as JSON that parseLesson reads back to an identical lesson.
std::string serializeLesson(const Lesson& lesson);

// The documented rule for tokens missing from the embedding table: component c of the vector is
// (fnv1a32(token bytes followed by the single byte c) mod 5) − 2, an integer in [−2, 2].
RowVec hashedEmbedding(std::string_view token, int dModel);
std::uint32_t fnv1a32(std::string_view bytes);

}  // namespace attnscope
