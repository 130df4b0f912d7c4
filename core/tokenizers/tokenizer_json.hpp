#pragma once
// Hugging Face `tokenizers` files (tokenizer.json). Supported:
//   model.type "WordPiece" {vocab, unk_token, continuing_subword_prefix, max_input_chars_per_word}
//     with normalizer BertNormalizer {clean_text, handle_chinese_chars, strip_accents, lowercase}
//     (or null) and pre_tokenizer BertPreTokenizer;
//   model.type "BPE" {vocab, merges as "a b" strings or ["a", "b"] pairs} with normalizer null
//     and pre_tokenizer ByteLevel {add_prefix_space, use_regex: true}.
// added_tokens [{id, content, special}] join the vocabulary; special ones are matched literally.
// Anything else is an Error naming the field.
#include <filesystem>
#include <memory>
#include <string>

#include "core/tokenizers/tokenizer.hpp"

namespace attnscope {

Result<std::unique_ptr<Tokenizer>> loadTokenizerJson(const std::filesystem::path& file);
// `where` names the source in errors, e.g. the file name.
Result<std::unique_ptr<Tokenizer>> parseTokenizerJson(const std::string& text, const std::string& where);

}  // namespace attnscope
