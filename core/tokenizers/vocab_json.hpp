#pragma once
// Internal to core/tokenizers .cpp files (it includes the JSON reader, hence nlohmann): a
// {"piece": id, ...} object, as vocab.json holds it and as tokenizer.json's model.vocab does.
#include <string>

#include "core/io/json_reader.hpp"
#include "core/tokenizers/tokenizer.hpp"

namespace attnscope {

// Each id must be a whole number from 0 to kMaxTokenId; the error names the piece's field.
Result<Vocabulary> readVocabObject(const json::Field<json::Json>& object, ErrorId what);

}  // namespace attnscope
