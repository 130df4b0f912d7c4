#pragma once
// GPT-2's byte-level BPE files and spelling: vocab.json {"piece": id, ...}; merges.txt, an
// optional "#version" first line, then one merge per line, "left right", rank = order in the file;
// bytes_to_unicode's printable characters for bytes (space → "Ġ", newline → "Ċ"). The tokenizer
// itself is HfBpeTokenizer with a ByteLevel pre-tokenizer (load.cpp).
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/tokenizers/bpe_merges.hpp"
#include "core/tokenizers/tokenizer.hpp"

namespace attnscope {

// Raw bytes spelled in bytes_to_unicode characters (" world" → "Ġworld").
std::string bytesToByteLevel(std::string_view bytes);
// The piece spelled in bytes_to_unicode characters, back as raw bytes ("Ġworld" → " world").
std::string byteLevelToBytes(std::string_view piece);

// File readers; errors name the file and line.
Result<Vocabulary> readBpeVocabJson(const std::filesystem::path& vocabJson);
Result<std::vector<BpeMerge>> readBpeMerges(const std::filesystem::path& mergesTxt);
Result<Vocabulary> parseVocabJsonText(const std::string& text, const std::string& where);

}  // namespace attnscope
