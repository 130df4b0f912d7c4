// libFuzzer target: arbitrary bytes as a whole safetensors file image (8-byte header length,
// JSON header, data section) into parseSafetensors, then the index parser on the same bytes.
// A header the parser accepts is then trusted: every tensor's bytes are read, so an offset the
// validation let through out of bounds shows up as an AddressSanitizer report.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/model/safetensors.hpp"

namespace {

void readEveryTensor(const attnscope::SafetensorsHeader& header, const std::uint8_t* bytes, std::size_t size) {
    volatile std::uint8_t sink = 0;
    for (const auto& tensor : header.tensors) {
        if (header.dataStart + tensor.end > size) __builtin_trap();  // validation missed this one
        for (std::uint64_t i = tensor.begin; i < tensor.end; ++i) sink = sink ^ bytes[header.dataStart + i];
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto header = attnscope::parseSafetensors(data, size, "fuzz.safetensors");
    if (header.ok()) readEveryTensor(header.value(), data, size);
    (void)attnscope::parseSafetensorsIndex(std::string_view(reinterpret_cast<const char*>(data), size),
                                           "fuzz.index.json");
    return 0;
}
