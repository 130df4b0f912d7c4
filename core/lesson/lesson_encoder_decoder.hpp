#pragma once
// The "encoder_decoder" part of a lesson file (format version 8): the target sentence, the
// decoder's masked self-attention and cross-attention weights and its output head, read, checked
// and written (docs/lesson-format.md, "An encoder and a decoder"). The lesson's own attention
// layers are the encoder. Shape legend: d model width, V_t the output head's words.
#include <string>
#include <vector>

#include "core/lesson/lesson.hpp"
#include "core/lesson/lesson_fields.hpp"

namespace attnscope {

// Reads doc["encoder_decoder"] when present (errors name the field; it needs version 8 and no block).
void readEncoderDecoder(const lesson_fields::Field& doc, int version, Lesson& lesson);
// The "encoder_decoder" object of a lesson that has one.
Json encoderDecoderJson(const Lesson& lesson);
// Shapes against d_model, heads, d_k, d_v and V_t; every label a word of the vocabulary, "</s>" among them.
Result<void> validateEncoderDecoder(const Lesson& lesson, const std::string& source);
// Teacher forcing: the decoder input is "<s>" and the target's tokens, the labels the target's
// tokens and "</s>" (each label is the word after the input token at its position).
struct TeacherForcing {
    std::vector<std::string> decoderInput;  // T_t
    std::vector<std::string> labels;        // T_t
};
Result<TeacherForcing> teacherForcing(const Lesson& lesson);

}  // namespace attnscope
