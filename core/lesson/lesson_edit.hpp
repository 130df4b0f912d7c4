#pragma once
// Changes a lesson editor asks for: adding, renaming and deleting words of the embedding table,
// and changing d_model, H, d_k and d_v. Each returns the changed lesson, or an Error and nothing
// changed; the result always passes validateLesson, so the run after it is valid.
#include <string>
#include <vector>

#include "core/base/result.hpp"
#include "core/lesson/lesson.hpp"
#include "core/text/language.hpp"

namespace attnscope {

// A new word gets a row of zeros at the end of the table, so it starts out contributing nothing.
// A word must be exactly one token as the lesson's tokenizer reads it (not empty, no space or
// punctuation, lower case when the lesson lower-cases) and not already in the table.
Result<Lesson> addLessonWord(const Lesson& lesson, const std::string& word);
Result<Lesson> renameLessonWord(const Lesson& lesson, const std::string& from, const std::string& to);
Result<Lesson> deleteLessonWord(const Lesson& lesson, const std::string& word);

struct LessonDimensions {
    int dModel = 1;
    int numHeads = 1;
    int dK = 1;
    int dV = 1;
    int numKvHeads = 0;  // H_kv, dividing H; 0: one per head (Lesson::numKvHeads)
};

LessonDimensions dimensionsOf(const Lesson& lesson);

// The matrices of a lesson a teacher edits (the editor's matrix box, a paste's target).
enum class LessonMatrixKind {
    Embeddings, WQ, WK, WV, WO, Positional,
    // the block after attention (format version 6): γ and β are 1×d
    NormGamma, NormBeta, FfnGate, FfnIn, FfnOut, FinalNormGamma, FinalNormBeta, Vocab
};

// Whose attention weights: the lesson's own layers (an encoder–decoder's encoder), or the
// decoder's masked self-attention or cross-attention (format version 8; one layer each).
enum class LessonLayerPart { Encoder, DecoderSelf, Cross };

struct LessonMatrixRef {
    LessonMatrixKind kind = LessonMatrixKind::Embeddings;
    int layer = 0;  // 0-based; for W_Q, W_K, W_V and W_O (0 in the decoder's parts)
    int head = 0;   // 0-based; for W_Q, W_K and W_V
    LessonLayerPart part = LessonLayerPart::Encoder;  // for W_Q, W_K, W_V and W_O
};

// The weight matrix `ref` names (or the positional table); with shared key/value heads `head` of
// W_K and W_V counts key/value heads (Lesson::kvHeadCount()), null when the lesson has none (no
// projections, no W_O, no such layer or head). The embedding table is no Mat: null. Vocab of an
// encoder–decoder lesson is its output head's W_vocab (d×V_t).
Mat* lessonMatrix(Lesson& lesson, const LessonMatrixRef& ref);

// Every matrix keeps its top-left block that fits the new shape; new cells are zero, new heads
// are all zeros, new feature names are their 0-based index. An encoder–decoder's decoder layers
// and output head are resized as the encoder's layers are. Ranges as in a lesson file. A new
// H_kv first gives every query head the K and V it read (repeat_kv, so ungrouping changes no
// number), then key/value head g keeps those of its first query head, g·(H/H_kv).
Result<Lesson> resizeLesson(const Lesson& lesson, const LessonDimensions& dims);

// What File ▸ New lesson asks: every token of `words` (the lesson's tokenizer: words, and each
// Chinese character on its own) gets a row of zeros; every weight is zero, for the editor or a
// pasted table to fill. Feature names: none, or one per column of d_model.
struct NewLessonSpec {
    std::string englishTitle, chineseTitle;  // either may be empty
    std::string words;                       // also the lesson's sentence
    std::vector<std::string> featureNames;
    int dModel = 4;
    int numHeads = 1;
    int dK = 4;  // d_v too; without projections both are d_model
    int numKvHeads = 0;  // H_kv dividing numHeads; 0: one per head
    bool projections = true;
    bool scale = true;
    bool causalMask = false;
    int decimals = 3;
};

Result<Lesson> newLesson(const NewLessonSpec& spec);

// What the editor's settings row changes after New lesson: the texts in one language (a lesson
// file's code, "en" or "zh_CN"; the other languages' texts are kept) and the two flags that need
// no new weights, and the positional encoding. Feature names: none, or one per column of d_model.
// Table keeps the lesson's own table (a lesson without one is refused); Rotary needs an even d_k.
struct LessonSettings {
    std::string title, description;
    std::vector<std::string> featureNames;
    bool scale = true;
    bool causalMask = false;
    UnknownWords unknownWords = UnknownWords::Hash;
    PositionalKind positional = PositionalKind::None;
    double ropeBase = 10000;
    bool ropeInterleaved = false;
};

LessonSettings settingsOf(const Lesson& lesson, const std::string& language);
inline std::string lessonLanguageCode(Language language) { return language == Language::Chinese ? "zh_CN" : "en"; }
Result<Lesson> applyLessonSettings(const Lesson& lesson, const LessonSettings& settings, const std::string& language);

}  // namespace attnscope
