#pragma once
// core's message catalogue (issue 12): the texts core/ hands to a reader, by id, in English and
// Simplified Chinese, complete in both (tests/core/test_messages.cpp). No Qt here: the caller
// passes the language (the window: the interface language; the command line: --lang; the JSON
// export: English). Terms follow docs/glossary.md. It holds the step titles, the notices of a run and
// the words of the cell explanations (ids in core/text/message_id.hpp).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/text/message_id.hpp"
#include "core/trace/trace.hpp"
#include "core/text/language.hpp"

namespace attnscope {

std::optional<Language> languageFromCode(std::string_view code);  // "en", "zh_CN" (also "zh…")

// The text of `id`; {1}, {2}, … are its arguments (fillMessage).
std::string_view message(MessageId id, Language language);
std::string fillMessage(std::string_view text, std::initializer_list<std::string_view> arguments);
std::string fillMessage(std::string_view text, const std::vector<std::string>& arguments);

// The catalogue's step title: stepTitle / stepTitleIn (core/trace/trace.hpp) in `language`.
std::string_view stepTitle(Step step, Language language);
std::string stepTitleIn(const Trace& trace, Step step, int layer, Language language);
// The cross stage of an encoder–decoder run (core/lesson/run_encoder_decoder.hpp): cross-attention
// with the block after it (the lab's cross-attention has none). Its Embedding is the decoder's Y₁ and
// its source input the encoder output M, and their titles and cell explanations say so.
bool isDecoderCrossStage(const Trace& trace);

// Grouped-query attention: "K/V head 1, shared by query heads 1–2" (1-based) for query head `head`
// of `layer`; empty when each head of the layer has its own K and V. asSuffix: ", K/V head 1, …".
std::string kvSharingText(const Trace& trace, int layer, int head, Language language, bool asSuffix = false);
// The steps whose matrix belongs to the key/value head (K, V, K before RoPE, W_K, W_V).
bool readsKeyValueHead(Step step);

// A notice in `language`, with its "layer 2, head 1: " prefix when it has one.
std::string noticeText(const Notice& notice, Language language);
std::vector<std::string> noticeTexts(const std::vector<Notice>& notices, Language language);

}  // namespace attnscope
