#pragma once
// The safetensors format, parsed from bytes (not from a path) so that it can be fuzzed.
//
// Format: an 8-byte little-endian u64 header length N, then N bytes of UTF-8 JSON, then the data
// section. The JSON header is an object
//   {"<tensor>": {"dtype": "F32", "shape": [rows, cols], "data_offsets": [begin, end]}, ...,
//    "__metadata__": {"<text>": "<text>"}}
// whose offsets are relative to the start of the data section (file offset 8 + N).
// A sharded checkpoint adds model.safetensors.index.json:
//   {"metadata": {...}, "weight_map": {"<tensor>": "model-00001-of-00002.safetensors", ...}}
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/model/tensor_store.hpp"
#include "core/base/result.hpp"

namespace attnscope {

// Beyond this the header is not a real checkpoint's (GPT-2 XL's is well under 1 MB).
inline constexpr std::uint64_t kMaxSafetensorsHeaderBytes = 100ull * 1000 * 1000;

struct SafetensorsHeader {
    std::uint64_t dataStart = 0;        // file offset of the data section: 8 + N
    std::uint64_t dataSize = 0;         // bytes from dataStart to the end of the file
    std::vector<TensorInfo> tensors;    // sorted by begin; offsets relative to dataStart
    std::map<std::string, std::string> metadata;
};

// Validates the whole file image: header length, JSON, every entry, offsets within the data
// section, no overlaps, shape × dtype size = byte span, no duplicate names. Errors name `file`
// and the tensor. Never reads outside [bytes, bytes + size).
Result<SafetensorsHeader> parseSafetensors(const std::uint8_t* bytes, std::size_t size,
                                           const std::string& file);

struct SafetensorsIndex {
    std::vector<std::pair<std::string, std::string>> weightMap;  // tensor → shard file name
    std::map<std::string, std::string> metadata;                 // text values only; others dumped as JSON
};

// Parses model.safetensors.index.json. Shard names must be plain file names in the same folder.
Result<SafetensorsIndex> parseSafetensorsIndex(std::string_view json, const std::string& file);

std::optional<DType> dtypeFromName(std::string_view name);
std::string_view dtypeName(DType dtype);
std::size_t dtypeSize(DType dtype);
// F32, F16 and BF16: the dtypes a matrix() or vector() lookup converts to float.
bool isReadableAsFloat(DType dtype);

// IEEE 754 binary16 → binary32, exact (every half is a float): subnormals, ±inf and NaN kept.
float halfToFloat(std::uint16_t bits);
// bfloat16 is the upper half of a binary32, so this is exact as well.
float bfloat16ToFloat(std::uint16_t bits);

}  // namespace attnscope
