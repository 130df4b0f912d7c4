#pragma once
// Reading a tokenizer.json's BPE pipeline: normalizer, pre_tokenizer, the model's options and
// the post_processor's wrapping. Internal to core/tokenizers (tokenizer_json.cpp).
#include "core/io/json_reader.hpp"
#include "core/tokenizers/hf_bpe.hpp"

namespace attnscope {

Result<BpePipeline> readBpePipeline(const json::Field<json::Json>& root, const json::Field<json::Json>& model);
// The post_processor's special tokens around one sequence (TemplateProcessing's "single",
// BertProcessing / RobertaProcessing, a Sequence of them; ByteLevel and null add none).
Result<Wrapping> readWrapping(const json::Field<json::Json>& root, const Tokenizer& tokenizer);

}  // namespace attnscope
