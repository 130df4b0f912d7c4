#pragma once
// Loads a pretrained model's tokenizer from its folder, as Hugging Face ships it:
//   tokenizer.json                  → as that file says (WordPiece or byte-level BPE)
//   else vocab.txt                  → WordPiece (BERT), options from tokenizer_config.json
//   else vocab.json + merges.txt    → byte-level BPE (GPT-2)
// tokenizer_config.json and special_tokens_map.json, where present, name the special tokens.
#include <filesystem>
#include <memory>

#include "core/tokenizers/tokenizer.hpp"

namespace attnscope {

Result<std::unique_ptr<Tokenizer>> loadTokenizerFromFolder(const std::filesystem::path& dir);

}  // namespace attnscope
