#pragma once
// Hugging Face `tokenizers` files (tokenizer.json). Supported:
//   model.type "WordPiece" {vocab, unk_token, continuing_subword_prefix, max_input_chars_per_word}
//     with normalizer BertNormalizer {clean_text, handle_chinese_chars, strip_accents, lowercase}
//     (or null) and pre_tokenizer BertPreTokenizer;
//   model.type "BPE" {vocab, merges as "a b" strings or ["a", "b"] pairs, unk_token, fuse_unk,
//     byte_fallback, ignore_merges} with the normalizers NFC/NFD/NFKC/NFKD, Lowercase, Prepend,
//     Replace, Strip, Sequence and the pre-tokenizers Split (regex or string, every behavior,
//     invert), ByteLevel, Metaspace, Digits, Punctuation, Sequence (tokenizer_json_bpe.cpp).
// added_tokens [{id, content, special, lstrip, rstrip}] join the vocabulary and are split off the
// text first. post_processor (TemplateProcessing, BertProcessing, RobertaProcessing, ByteLevel,
// Sequence) gives the wrapping. Anything else is an Error naming the field.
#include <filesystem>
#include <memory>
#include <string>

#include "core/tokenizers/tokenizer.hpp"

namespace attnscope {

Result<std::unique_ptr<Tokenizer>> loadTokenizerJson(const std::filesystem::path& file);
// `where` names the source in errors, e.g. the file name.
Result<std::unique_ptr<Tokenizer>> parseTokenizerJson(const std::string& text, const std::string& where);

}  // namespace attnscope
