// libFuzzer target: arbitrary bytes as a config.json into parseTransformerConfig (which reads it
// with parseHfConfig). Errors (Result) are fine; crashes, sanitizer reports and exceptions escaping
// the API are findings. See fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/model/hf_config.hpp"
#include "core/model/transformer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto config = attnscope::parseTransformerConfig(text, "config.json");
    if (config && config.value().vocabSize <= 0) __builtin_trap();  // accepted sizes are positive
    (void)attnscope::parseHfConfig(text, "config.json");
    return 0;
}
