// config.json parsing: real BERT and GPT-2 configs (both key spellings) and field errors.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "core/model/hf_config.hpp"

using namespace attnscope;

namespace {

// bert-base-uncased/config.json as published.
const char* kBertConfig = R"({
  "architectures": ["BertForMaskedLM"], "attention_probs_dropout_prob": 0.1, "gradient_checkpointing": false,
  "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "hidden_size": 768, "initializer_range": 0.02,
  "intermediate_size": 3072, "layer_norm_eps": 1e-12, "max_position_embeddings": 512, "model_type": "bert",
  "num_attention_heads": 12, "num_hidden_layers": 12, "pad_token_id": 0, "position_embedding_type": "absolute",
  "transformers_version": "4.6.0.dev0", "type_vocab_size": 2, "use_cache": true, "vocab_size": 30522})";

// gpt2/config.json as published (no n_inner: 4 × n_embd).
const char* kGpt2Config = R"({
  "activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"], "attn_pdrop": 0.1,
  "bos_token_id": 50256, "embd_pdrop": 0.1, "eos_token_id": 50256, "initializer_range": 0.02,
  "layer_norm_epsilon": 1e-05, "model_type": "gpt2", "n_ctx": 1024, "n_embd": 768, "n_head": 12,
  "n_layer": 12, "n_positions": 1024, "resid_pdrop": 0.1, "summary_activation": null,
  "summary_first_dropout": 0.1, "summary_proj_to_labels": true, "summary_type": "cls_index",
  "summary_use_proj": true, "task_specific_params": {"text-generation": {"do_sample": true, "max_length": 50}},
  "vocab_size": 50257})";

// Replaces the first occurrence of `from` in `text`.
std::string with(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

void requireConfigError(const std::string& json, const std::string& expectedText) {
    const auto config = parseHfConfig(json);
    REQUIRE_FALSE(config.ok());
    CHECK(config.error().text() == expectedText);
}

}  // namespace

TEST_CASE("a BERT config.json is read with BERT's key names", "[safetensors][hf_config]") {
    const auto parsed = parseHfConfig(kBertConfig);
    REQUIRE(parsed.ok());
    const HfConfig& c = parsed.value();
    CHECK(c.modelType == "bert");
    CHECK(c.architectures == std::vector<std::string>{"BertForMaskedLM"});
    CHECK(c.vocabSize == 30522);
    CHECK(c.hiddenSize == 768);
    CHECK(c.numLayers == 12);
    CHECK(c.numHeads == 12);
    CHECK(c.intermediateSize == 3072);
    CHECK(c.maxPositions == 512);
    CHECK(c.typeVocabSize == 2);
    CHECK(c.layerNormEps == 1e-12);
    CHECK(c.hiddenAct == "gelu");
    CHECK(c.padTokenId == 0);
}

TEST_CASE("a GPT-2 config.json is read with GPT-2's key names", "[safetensors][hf_config]") {
    const auto parsed = parseHfConfig(kGpt2Config);
    REQUIRE(parsed.ok());
    const HfConfig& c = parsed.value();
    CHECK(c.modelType == "gpt2");
    CHECK(c.architectures == std::vector<std::string>{"GPT2LMHeadModel"});
    CHECK(c.vocabSize == 50257);
    CHECK(c.hiddenSize == 768);
    CHECK(c.numLayers == 12);
    CHECK(c.numHeads == 12);
    CHECK(c.intermediateSize == 3072);
    CHECK(c.maxPositions == 1024);
    CHECK(c.typeVocabSize == 0);
    CHECK(c.layerNormEps == 1e-5);
    CHECK(c.hiddenAct == "gelu_new");
    CHECK_FALSE(c.padTokenId.has_value());
    const auto withInner = parseHfConfig(with(kGpt2Config, "\"n_ctx\"", "\"n_inner\": 1000, \"n_ctx\""));
    REQUIRE(withInner.ok());
    CHECK(withInner.value().intermediateSize == 1000);
    const auto nullInner = parseHfConfig(with(kGpt2Config, "\"n_ctx\"", "\"n_inner\": null, \"n_ctx\""));
    REQUIRE(nullInner.ok());
    CHECK(nullInner.value().intermediateSize == 3072);
}

TEST_CASE("config.json errors name the file and the field", "[safetensors][hf_config]") {
    requireConfigError(with(kBertConfig, "\"hidden_size\": 768,", ""), "config.json: hidden_size (or n_embd): is missing");
    requireConfigError(with(kGpt2Config, "\"n_head\": 12,", ""),
                       "config.json: num_attention_heads (or n_head): is missing");
    requireConfigError(with(kBertConfig, "\"model_type\": \"bert\",", ""), "config.json: model_type: is missing");
    requireConfigError(with(kGpt2Config, "\"layer_norm_epsilon\": 1e-05,", ""),
                       "config.json: layer_norm_eps (or layer_norm_epsilon): is missing");
    requireConfigError(with(kGpt2Config, "\"activation_function\": \"gelu_new\",", ""),
                       "config.json: hidden_act (or activation_function): is missing");
    requireConfigError(with(kGpt2Config, "\"n_head\": 12", "\"n_head\": \"12\""),
                       "config.json: n_head: expected a whole number from 1 to 1073741824, found the text \"12\"");
    requireConfigError(with(kBertConfig, "\"hidden_size\": 768", "\"hidden_size\": 768.5"),
                       "config.json: hidden_size: expected a whole number from 1 to 1073741824, found the number 768.5");
    requireConfigError(with(kBertConfig, "\"num_hidden_layers\": 12", "\"num_hidden_layers\": 0"),
                       "config.json: num_hidden_layers: expected 1 to 1073741824, found 0");
    requireConfigError(with(kBertConfig, "\"vocab_size\": 30522", "\"vocab_size\": 99999999999999"),
                       "config.json: vocab_size: expected 1 to 1073741824, found 99999999999999");
    requireConfigError(with(kBertConfig, "\"num_attention_heads\": 12", "\"num_attention_heads\": 10"),
                       "config.json: num_attention_heads: 10 heads do not divide the hidden size 768");
    requireConfigError(with(kBertConfig, "\"layer_norm_eps\": 1e-12", "\"layer_norm_eps\": -1"),
                       "config.json: layer_norm_eps: expected a small positive number, found -1");
    requireConfigError(with(kBertConfig, "\"pad_token_id\": 0", "\"pad_token_id\": -5"),
                       "config.json: pad_token_id: expected 0 to 1073741824, found -5");
    requireConfigError(with(kBertConfig, "[\"BertForMaskedLM\"]", "[\"BertForMaskedLM\", 3]"),
                       "config.json: architectures[1]: expected text, found the number 3");
    requireConfigError(with(kBertConfig, "\"hidden_size\": 768", "\"hidden_size\": 768, \"n_embd\": 1024"),
                       "config.json: hidden_size: disagrees with n_embd: 768 vs 1024");
    requireConfigError("[1, 2]", "config.json: expected a JSON object, found a list of 2");
    requireConfigError("{\"model_type\": ", "config.json: is not valid JSON: line 1, column 16: expected a value (an object, a list, text in double quotes, a number, true, false or null), found the "
                                          "end of the text (syntax error while parsing value - unexpected end of input; "
                                          "expected '[', '{', or a literal)");
}

TEST_CASE("config.json is loaded from a path that errors name", "[safetensors][hf_config]") {
    const auto folder = std::filesystem::temp_directory_path() / "attnscope-hf-config-test";
    std::filesystem::create_directories(folder);
    std::ofstream(folder / "config.json") << with(kBertConfig, "\"vocab_size\": 30522", "\"vocab_size\": null");
    const auto config = loadHfConfig(folder / "config.json");
    std::filesystem::remove_all(folder);
    REQUIRE_FALSE(config.ok());
    CHECK(config.error().text() == (folder / "config.json").string() + ": vocab_size: is missing");
    const auto missing = loadHfConfig(folder / "config.json");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().text().find("config.json: cannot be opened") != std::string::npos);
}
