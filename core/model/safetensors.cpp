// The safetensors header and index parsers. Format: see safetensors.hpp.
// Everything read from the file is distrusted: each check below turns a malformed byte pattern
// into an Error naming the file and the tensor, before any offset is used.
#include "core/model/safetensors.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>

#include "core/io/json_reader.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope {

using json::Json;

namespace {

static_assert(std::endian::native == std::endian::little,
              "safetensors data is little-endian; a big-endian host would need byte swapping");

struct DTypeSpec {
    DType dtype;
    std::string_view name;
    std::size_t size;
};

constexpr std::array<DTypeSpec, 13> kDTypes{{
    {DType::F32, "F32", 4},  {DType::F16, "F16", 2},   {DType::BF16, "BF16", 2}, {DType::F64, "F64", 8},
    {DType::I64, "I64", 8},  {DType::I32, "I32", 4},   {DType::I16, "I16", 2},   {DType::I8, "I8", 1},
    {DType::U64, "U64", 8},  {DType::U32, "U32", 4},   {DType::U16, "U16", 2},   {DType::U8, "U8", 1},
    {DType::BOOL, "BOOL", 1},
}};

// Names from a file can be long or odd; error messages quote at most this much of them.
std::string inQuotes(const std::string& name) {
    constexpr std::size_t kLimit = 120;
    if (name.size() <= kLimit) return "\"" + name + "\"";
    std::size_t cut = kLimit;
    while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;  // keep UTF-8 whole
    return "\"" + name.substr(0, cut) + "…\"";
}

ErrorText describe(const Json& j) { return json::describeText(j); }

Error tensorError(const std::string& file, const std::string& tensor, ErrorText message) {
    return Error{errorText(ErrorId::WhereTensor, file, inQuotes(tensor)), std::move(message)};
}

// "shape: expected a list of sizes, found …"
ErrorText fieldExpected(const std::string& field, ErrorText what, ErrorText found) {
    return errorText(ErrorId::FieldExpectedFound, field, std::move(what), std::move(found));
}

std::optional<std::uint64_t> checkedMultiply(std::uint64_t a, std::uint64_t b) {
    std::uint64_t product = 0;
    if (__builtin_mul_overflow(a, b, &product)) return std::nullopt;
    return product;
}

std::string shapeText(const std::vector<std::int64_t>& shape) {
    std::string text = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + "]";
}

std::uint64_t readLittleEndianU64(const std::uint8_t* bytes) {
    std::uint64_t value = 0;
    for (int i = 7; i >= 0; --i) value = (value << 8) | bytes[i];
    return value;
}

// A non-negative whole number that fits in int64, or an error naming the field.
Result<std::uint64_t> readCount(const Json& j, const std::string& file, const std::string& tensor,
                                const std::string& field) {
    if (j.is_number_unsigned() && j.get<std::uint64_t>() <= std::numeric_limits<std::int64_t>::max())
        return j.get<std::uint64_t>();
    ErrorText found = describe(j);
    if (j.is_number_integer() && !j.is_number_unsigned()) found = ErrorText::verbatim(std::to_string(j.get<std::int64_t>()));
    return tensorError(file, tensor, fieldExpected(field, ErrorId::ANonNegativeWholeNumber, found));
}

Result<DType> readDType(const Json& entry, const std::string& file, const std::string& tensor) {
    if (!entry.contains("dtype")) return tensorError(file, tensor, errorText(ErrorId::KeyIsMissing, "dtype"));
    const Json& j = entry.at("dtype");
    if (!j.is_string()) return tensorError(file, tensor, fieldExpected("dtype", ErrorId::TextSuchAsF32, describe(j)));
    const auto dtype = dtypeFromName(j.get<std::string>());
    if (!dtype)
        return tensorError(file, tensor, errorText(ErrorId::UnknownDtype, inQuotes(j.get<std::string>())));
    return *dtype;
}

Result<std::vector<std::int64_t>> readShape(const Json& entry, const std::string& file,
                                            const std::string& tensor) {
    if (!entry.contains("shape")) return tensorError(file, tensor, errorText(ErrorId::KeyIsMissing, "shape"));
    const Json& j = entry.at("shape");
    if (!j.is_array()) return tensorError(file, tensor, fieldExpected("shape", ErrorId::AListOfSizes, describe(j)));
    std::vector<std::int64_t> shape;
    for (std::size_t i = 0; i < j.size(); ++i) {
        auto size = readCount(j[i], file, tensor, "shape[" + std::to_string(i) + "]");
        if (!size) return size.error();
        shape.push_back(static_cast<std::int64_t>(size.value()));
    }
    return shape;
}

Result<std::pair<std::uint64_t, std::uint64_t>> readOffsets(const Json& entry, const std::string& file,
                                                            const std::string& tensor) {
    if (!entry.contains("data_offsets")) return tensorError(file, tensor, errorText(ErrorId::KeyIsMissing, "data_offsets"));
    const Json& j = entry.at("data_offsets");
    if (!j.is_array() || j.size() != 2)
        return tensorError(file, tensor, fieldExpected("data_offsets", ErrorId::BeginEnd, describe(j)));
    auto begin = readCount(j[0], file, tensor, "data_offsets[0]");
    if (!begin) return begin.error();
    auto end = readCount(j[1], file, tensor, "data_offsets[1]");
    if (!end) return end.error();
    return std::pair{begin.value(), end.value()};
}

// The byte span must lie in the data section and hold exactly shape product × dtype size bytes.
Result<void> checkSpan(const TensorInfo& t, std::uint64_t dataSize, const std::string& file) {
    if (t.begin > t.end)
        return tensorError(file, t.name, errorText(ErrorId::OffsetsBeginAfterEnd, t.begin, t.end));
    if (t.end > dataSize)
        return tensorError(file, t.name, errorText(ErrorId::OffsetsBeyondData, t.end, dataSize));
    std::optional<std::uint64_t> bytes = dtypeSize(t.dtype);
    for (const auto size : t.shape)
        if (bytes) bytes = checkedMultiply(*bytes, static_cast<std::uint64_t>(size));
    if (std::find(t.shape.begin(), t.shape.end(), 0) != t.shape.end()) bytes = 0;  // [0, huge] is empty
    const auto span = t.end - t.begin;
    if (bytes && *bytes == span) return {};
    const ErrorText expected = bytes ? errorText(ErrorId::Bytes, *bytes) : ErrorText(ErrorId::MoreThan64Bits);
    return tensorError(file, t.name, errorText(ErrorId::ShapeNeedsBytes, shapeText(t.shape), dtypeName(t.dtype), expected, span));
}

Result<TensorInfo> readTensor(const std::string& name, const Json& entry, std::uint64_t dataSize,
                              const std::string& file) {
    if (!entry.is_object())
        return tensorError(file, name, errorText(ErrorId::ExpectedFound, ErrorId::AnObjectDtypeShapeOffsets, describe(entry)));
    auto dtype = readDType(entry, file, name);
    if (!dtype) return dtype.error();
    auto shape = readShape(entry, file, name);
    if (!shape) return shape.error();
    auto offsets = readOffsets(entry, file, name);
    if (!offsets) return offsets.error();
    TensorInfo info{name, dtype.value(), std::move(shape).value(), file, offsets.value().first, offsets.value().second};
    if (auto error = checkSpan(info, dataSize, file); !error.ok()) return error.error();
    return info;
}

Result<std::map<std::string, std::string>> readTextMap(const Json& j, const std::string& file,
                                                       const std::string& field) {
    if (!j.is_object()) return Error{file + ": " + field, errorText(ErrorId::ExpectedFound, ErrorId::AnObjectOfTextValues, describe(j))};
    std::map<std::string, std::string> map;
    for (const auto& [key, value] : j.items()) {
        if (!value.is_string())
            return Error{file + ": " + field + "." + key, errorText(ErrorId::ExpectedFound, ErrorId::AText, describe(value))};
        map[key] = value.get<std::string>();
    }
    return map;
}

// Sorted by begin, each non-empty tensor must start at or after the furthest end seen so far.
Result<void> checkNoOverlap(std::vector<TensorInfo>& tensors, const std::string& file) {
    std::sort(tensors.begin(), tensors.end(),
              [](const TensorInfo& a, const TensorInfo& b) { return std::tie(a.begin, a.end) < std::tie(b.begin, b.end); });
    const TensorInfo* furthest = nullptr;
    for (const auto& t : tensors) {
        if (t.begin == t.end) continue;  // an empty tensor owns no bytes
        if (furthest && t.begin < furthest->end)
            return tensorError(file, t.name, errorText(ErrorId::OffsetsOverlap, t.begin, t.end, inQuotes(furthest->name),
                                                       furthest->begin, furthest->end));
        if (!furthest || t.end > furthest->end) furthest = &t;
    }
    return {};
}

Result<SafetensorsHeader> readHeaderJson(const Json& header, SafetensorsHeader result, const std::string& file) {
    if (!header.is_object())
        return Error{file, errorText(ErrorId::HeaderNotObject, describe(header))};
    for (const auto& [name, entry] : header.items()) {
        if (name == "__metadata__") {
            auto metadata = readTextMap(entry, file, "__metadata__");
            if (!metadata) return metadata.error();
            result.metadata = std::move(metadata).value();
            continue;
        }
        auto tensor = readTensor(name, entry, result.dataSize, file);
        if (!tensor) return tensor.error();
        result.tensors.push_back(std::move(tensor).value());
    }
    if (auto error = checkNoOverlap(result.tensors, file); !error.ok()) return error.error();
    return result;
}

}  // namespace

Result<SafetensorsHeader> parseSafetensors(const std::uint8_t* bytes, std::size_t size, const std::string& file) {
    if (size < 8)
        return Error{file, errorText(ErrorId::FileTooShort, size)};
    const std::uint64_t headerSize = readLittleEndianU64(bytes);
    if (headerSize > kMaxSafetensorsHeaderBytes)
        return Error{file, errorText(ErrorId::HeaderBeyondLimit, headerSize)};
    if (headerSize > size - 8)
        return Error{file, errorText(ErrorId::HeaderTruncated, headerSize, size - 8)};
    SafetensorsHeader result;
    result.dataStart = 8 + headerSize;
    result.dataSize = size - result.dataStart;
    const std::string_view text(reinterpret_cast<const char*>(bytes + 8), headerSize);
    auto parsed = json::parse(text, file);
    if (!parsed) return parsed.error();
    return readHeaderJson(parsed.value(), std::move(result), file);
}

namespace {

// A shard must sit next to the index: a plain file name, no folders, nothing absolute.
bool isPlainFileName(const std::string& name) {
    return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
           name.find('\\') == std::string::npos && name.find('\0') == std::string::npos;
}

Result<SafetensorsIndex> readIndexJson(const Json& index, const std::string& file) {
    if (!index.is_object()) return Error{file, errorText(ErrorId::ExpectedFound, ErrorId::AJsonObjectWithWeightMap, describe(index))};
    if (!index.contains("weight_map")) return Error{file + ": weight_map", ErrorId::IsMissing};
    const Json& map = index.at("weight_map");
    if (!map.is_object()) return Error{file + ": weight_map", errorText(ErrorId::ExpectedFound, ErrorId::JsonObject, describe(map))};
    SafetensorsIndex result;
    for (const auto& [tensor, shard] : map.items()) {
        if (!shard.is_string() || !isPlainFileName(shard.get<std::string>()))
            return Error{file + ": weight_map." + tensor,
                         errorText(ErrorId::ExpectedFound, ErrorId::AShardFileName, describe(shard))};
        result.weightMap.emplace_back(tensor, shard.get<std::string>());
    }
    if (index.contains("metadata") && index.at("metadata").is_object())
        for (const auto& [key, value] : index.at("metadata").items())
            result.metadata[key] = value.is_string() ? value.get<std::string>() : value.dump();
    return result;
}

}  // namespace

Result<SafetensorsIndex> parseSafetensorsIndex(std::string_view text, const std::string& file) {
    auto parsed = json::parse(text, file);
    if (!parsed) return parsed.error();
    return readIndexJson(parsed.value(), file);
}

std::optional<DType> dtypeFromName(std::string_view name) {
    for (const auto& spec : kDTypes)
        if (spec.name == name) return spec.dtype;
    return std::nullopt;
}

std::string_view dtypeName(DType dtype) {
    for (const auto& spec : kDTypes)
        if (spec.dtype == dtype) return spec.name;
    return "?";
}

std::size_t dtypeSize(DType dtype) {
    for (const auto& spec : kDTypes)
        if (spec.dtype == dtype) return spec.size;
    return 0;
}

bool isReadableAsFloat(DType dtype) { return dtype == DType::F32 || dtype == DType::F16 || dtype == DType::BF16; }

float halfToFloat(std::uint16_t bits) {
    const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
    std::uint32_t exponent = (bits >> 10) & 0x1Fu;
    std::uint32_t mantissa = bits & 0x3FFu;
    if (exponent == 0x1F)  // inf, or NaN with its payload kept
        return std::bit_cast<float>(sign | 0x7F800000u | (mantissa << 13));
    if (exponent != 0)  // normal: rebias 15 → 127
        return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
    if (mantissa == 0) return std::bit_cast<float>(sign);  // ±0
    // Subnormal half (mantissa × 2^-24) is a normal float: shift until the implicit bit appears.
    exponent = 113;
    while ((mantissa & 0x400u) == 0) {
        mantissa <<= 1;
        --exponent;
    }
    return std::bit_cast<float>(sign | (exponent << 23) | ((mantissa & 0x3FFu) << 13));
}

float bfloat16ToFloat(std::uint16_t bits) { return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16); }

}  // namespace attnscope
