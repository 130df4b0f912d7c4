#pragma once
// An encoder–decoder lesson (format version 8) trained by teacher forcing, run as the explainers
// draw it: one Trace per stage, so every view and export shows each stage as it shows any run.
//
//   encoder      source tokens, the lesson's attention layers (no mask); M = X + attention (the
//                encoder output, Trace::block.afterAttention)
//   decoderSelf  decoder input "<s> y₁ … y_n", masked (causal) self-attention with decoder_self's
//                weights; Y₁ = Y₀ + attention (block.afterAttention)
//   cross        queries from Y₁ (Trace::embedding and the layer's input), keys and values from M
//                (keyTokens: the source); Y₂ = Y₁ + cross-attention, logits Y₂·W_vocab + b_vocab and
//                each row's softmax over the output head's words (block)
//   labels       "y₁ … y_n </s>": row i's label is the word after decoder input token i;
//                p(label_i) and the cross-entropy −ln p(label_i)
//
// Shape legend: T_s source tokens, T_t decoder input tokens (= labels), d model width, V_t words.
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"
#include "core/lesson/lesson.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

struct EncoderDecoderRun {
    Trace encoder;       // T_s tokens
    Trace decoderSelf;   // T_t tokens, causal
    Trace cross;         // T_t query tokens × T_s key tokens, then the output head
    std::vector<std::string> labels;  // T_t
    std::vector<int> labelColumn;     // T_t  the label's column of cross.block.probabilities
    RowVec labelProbability;          // 1×T_t  p(label_i)
    RowVec loss;                      // 1×T_t  −ln p(label_i) (hand-rounded when the run is)
    double meanLoss = 0;              // the mean of `loss`: what training minimises
};

// The stages a teacher steps through, in the order the explainers draw them (the labels go with Cross).
enum class EncoderDecoderStage { Encoder, DecoderSelf, Cross };
const Trace& stageTrace(const EncoderDecoderRun& run, EncoderDecoderStage stage);

// Heads switched off in the decoder's stages (0-based; each stage has one layer, so layer 0).
struct DecoderHeadsOff {
    std::vector<HeadRef> selfAttention;
    std::vector<HeadRef> cross;
};

// `source`: the sentence the encoder reads (the lesson's sentence unless the user typed another).
// settings.ablate switches off heads of the encoder, `decoderOff` those of the decoder's stages;
// padTo is ignored. Errors: a lesson without "encoder_decoder", a source without tokens, a word
// missing from the table under "ask", a head a stage does not have.
Result<EncoderDecoderRun> runEncoderDecoder(const Lesson& lesson, std::string_view source, RunSettings settings = {},
                                            const DecoderHeadsOff& decoderOff = {});

// The stage a window shows and the heads off in every stage: what Compare's sentence B and the
// X → Y tab run again on another source, so they show the same stage with the same heads off.
struct StageView {
    EncoderDecoderStage stage = EncoderDecoderStage::Encoder;
    std::vector<HeadRef> encoderOff;
    DecoderHeadsOff decoderOff;
};
Result<Trace> runEncoderDecoderStage(const Lesson& lesson, std::string_view source, const StageView& view);

}  // namespace attnscope
