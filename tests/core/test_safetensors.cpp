// Safetensors loading: files are written byte by byte here (8-byte little-endian header length,
// JSON header, data section), then read through TensorStore or the byte-level parser.
#include <catch2/catch.hpp>
#include <stdlib.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <thread>

#include "core/model/checkpoint_files.hpp"
#include "core/model/safetensors.hpp"
#include "core/model/tensor_store.hpp"
#include "core/model/transformer.hpp"

using namespace attnscope;
namespace fs = std::filesystem;

namespace {

// A fresh folder under the system temp directory, removed with everything in it.
struct TempDir {
    fs::path path;
    TempDir() {
        std::string pattern = (fs::temp_directory_path() / "attnscope-st-XXXXXX").string();
        REQUIRE(mkdtemp(pattern.data()) != nullptr);
        path = pattern;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    fs::path write(const std::string& name, const std::string& bytes) const {
        std::ofstream(path / name, std::ios::binary) << bytes;
        return path / name;
    }
};

std::string littleEndian64(std::uint64_t n) {
    std::string bytes(8, '\0');
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((n >> (8 * i)) & 0xFF);
    return bytes;
}

// Header length + header + data, exactly as given: the building block for malformed files.
std::string rawFile(const std::string& header, const std::string& data = "") {
    return littleEndian64(header.size()) + header + data;
}

std::string floatBytes(const std::vector<float>& values) {
    std::string bytes(values.size() * 4, '\0');
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

std::string u16Bytes(const std::vector<std::uint16_t>& values) {
    std::string bytes(values.size() * 2, '\0');
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

struct FakeTensor {
    std::string name;
    std::string dtype;
    std::vector<std::int64_t> shape;
    std::string data;
};

std::string shapeJson(const std::vector<std::int64_t>& shape) {
    std::string text = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? "," : "") + std::to_string(shape[i]);
    return text + "]";
}

// A valid file with the tensors laid out in order. The header is padded with spaces (allowed
// JSON whitespace) so that the data section starts at a file offset ≡ dataStartMod4 (mod 4).
std::string buildSafetensors(const std::vector<FakeTensor>& tensors, int dataStartMod4 = 0) {
    std::string header = "{\"__metadata__\":{\"format\":\"pt\"}";
    std::string data;
    for (const auto& t : tensors) {
        header += ",\"" + t.name + "\":{\"dtype\":\"" + t.dtype + "\",\"shape\":" + shapeJson(t.shape) +
                  ",\"data_offsets\":[" + std::to_string(data.size()) + "," +
                  std::to_string(data.size() + t.data.size()) + "]}";
        data += t.data;
    }
    header += "}";
    while ((8 + header.size()) % 4 != static_cast<std::size_t>(dataStartMod4)) header += ' ';
    return rawFile(header, data);
}

Result<SafetensorsHeader> parseBytes(const std::string& bytes) {
    return parseSafetensors(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), "bad.safetensors");
}

void requireErrorMentions(const Error& error, const std::vector<std::string>& parts) {
    INFO(error.text());
    for (const auto& part : parts) CHECK(error.text().find(part) != std::string::npos);
}

void requireParseError(const std::string& bytes, const std::vector<std::string>& parts) {
    const auto result = parseBytes(bytes);
    REQUIRE_FALSE(result.ok());
    requireErrorMentions(result.error(), parts);
}

// One valid tensor entry whose JSON can be swapped piece by piece.
std::string entry(const std::string& dtype, const std::string& shape, const std::string& offsets) {
    return "{\"w\":{\"dtype\":" + dtype + ",\"shape\":" + shape + ",\"data_offsets\":" + offsets + "}}";
}

const std::string kEightBytes(8, '\0');

}  // namespace

TEST_CASE("F32 tensors read back exactly as zero-copy views into the mapping", "[safetensors]") {
    TempDir dir;
    const std::vector<float> w{1.5f, -2.25f, 3.0e-8f, 65504.0f, -0.0f, 7.0f};
    const auto file = dir.write("model.safetensors",
                                buildSafetensors({{"w", "F32", {2, 3}, floatBytes(w)},
                                                  {"b", "F32", {3}, floatBytes({0.5f, 1.5f, 2.5f})}}));
    auto store = TensorStore::open(file);
    REQUIRE(store.ok());
    const auto matrix = store.value().matrix("w", 2, 3);
    REQUIRE(matrix.ok());
    for (int i = 0; i < 6; ++i) CHECK(std::bit_cast<std::uint32_t>(matrix.value()(i / 3, i % 3)) == std::bit_cast<std::uint32_t>(w[i]));
    CHECK(store.value().isMapped(matrix.value().data()));
    const auto vector = store.value().vector("b", 3);
    REQUIRE(vector.ok());
    CHECK(vector.value()(2) == 2.5f);
    CHECK(store.value().isMapped(vector.value().data()));
    CHECK(store.value().names() == std::vector<std::string>{"b", "w"});
    REQUIRE(store.value().find("w") != nullptr);
    CHECK(store.value().find("w")->shape == std::vector<std::int64_t>{2, 3});
    CHECK(store.value().find("w")->file == file.string());
    CHECK(store.value().find("missing") == nullptr);
}

TEST_CASE("F32 data at a misaligned offset is copied into owned storage", "[safetensors]") {
    TempDir dir;
    const std::vector<float> w{1.0f, 2.0f, 3.0f, 4.0f};
    for (int misalignment : {1, 2, 3}) {
        const auto file = dir.write("m.safetensors", buildSafetensors({{"w", "F32", {2, 2}, floatBytes(w)}}, misalignment));
        auto store = TensorStore::open(file);
        REQUIRE(store.ok());
        const auto matrix = store.value().matrix("w", 2, 2);
        REQUIRE(matrix.ok());
        CHECK_FALSE(store.value().isMapped(matrix.value().data()));
        CHECK(matrix.value()(1, 0) == 3.0f);
        CHECK(matrix.value()(1, 1) == 4.0f);
    }
}

TEST_CASE("F16 bit patterns convert to hand-derived floats", "[safetensors]") {
    CHECK(halfToFloat(0x3C00) == 1.0f);
    CHECK(halfToFloat(0xC000) == -2.0f);
    CHECK(halfToFloat(0x7BFF) == 65504.0f);
    CHECK(halfToFloat(0x0001) == std::ldexp(1.0f, -24));  // smallest subnormal, 5.960464e-8
    CHECK(halfToFloat(0x03FF) == std::ldexp(1023.0f, -24));  // largest subnormal
    CHECK(halfToFloat(0x0400) == std::ldexp(1.0f, -14));  // smallest normal
    CHECK(halfToFloat(0x3555) == 0.333251953125f);
    CHECK(halfToFloat(0x7C00) == std::numeric_limits<float>::infinity());
    CHECK(halfToFloat(0xFC00) == -std::numeric_limits<float>::infinity());
    CHECK(std::isnan(halfToFloat(0x7E00)));
    CHECK(std::isnan(halfToFloat(0xFC01)));
    CHECK(std::signbit(halfToFloat(0x8000)));
    CHECK(halfToFloat(0x8000) == 0.0f);
}

TEST_CASE("every F16 value matches the binary16 definition", "[safetensors]") {
    for (std::uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
        const std::uint32_t exponent = (bits >> 10) & 0x1F, mantissa = bits & 0x3FF;
        const float sign = (bits & 0x8000) ? -1.0f : 1.0f;
        const float converted = halfToFloat(static_cast<std::uint16_t>(bits));
        if (exponent == 0x1F) {
            CHECK((mantissa ? std::isnan(converted) : converted == sign * INFINITY));
            continue;
        }
        const float expected = exponent == 0 ? sign * std::ldexp(static_cast<float>(mantissa), -24)
                                             : sign * std::ldexp(1.0f + mantissa / 1024.0f, static_cast<int>(exponent) - 15);
        if (converted != expected) FAIL("F16 0x" << std::hex << bits << " gave " << converted << ", expected " << expected);
    }
}

TEST_CASE("BF16 bit patterns convert to hand-derived floats", "[safetensors]") {
    CHECK(bfloat16ToFloat(0x3F80) == 1.0f);
    CHECK(bfloat16ToFloat(0x4049) == 3.140625f);
    CHECK(bfloat16ToFloat(0xC000) == -2.0f);
    CHECK(bfloat16ToFloat(0x0001) == std::ldexp(1.0f, -133));  // subnormal
    CHECK(bfloat16ToFloat(0x7F80) == std::numeric_limits<float>::infinity());
    CHECK(std::isnan(bfloat16ToFloat(0x7FC0)));
}

TEST_CASE("F16 and BF16 tensors are converted once and cached", "[safetensors]") {
    TempDir dir;
    const auto file = dir.write("model.safetensors",
                                buildSafetensors({{"h", "F16", {2, 2}, u16Bytes({0x3C00, 0xC000, 0x7BFF, 0x0001})},
                                                  {"b", "BF16", {2}, u16Bytes({0x3F80, 0x4049})}}, 2));
    auto opened = TensorStore::open(file);
    REQUIRE(opened.ok());
    const auto& store = opened.value();
    const auto h = store.matrix("h", 2, 2);
    REQUIRE(h.ok());
    CHECK(h.value()(0, 0) == 1.0f);
    CHECK(h.value()(0, 1) == -2.0f);
    CHECK(h.value()(1, 0) == 65504.0f);
    CHECK(h.value()(1, 1) == std::ldexp(1.0f, -24));
    CHECK_FALSE(store.isMapped(h.value().data()));
    CHECK(store.matrix("h", 2, 2).value().data() == h.value().data());
    const auto b = store.vector("b", 2);
    REQUIRE(b.ok());
    CHECK(b.value()(0) == 1.0f);
    CHECK(b.value()(1) == 3.140625f);
}

TEST_CASE("concurrent first lookups of a converted tensor share one buffer", "[safetensors]") {
    TempDir dir;
    const auto file = dir.write("model.safetensors", buildSafetensors({{"h", "F16", {64}, u16Bytes(std::vector<std::uint16_t>(64, 0x3C00))}}));
    auto opened = TensorStore::open(file);
    REQUIRE(opened.ok());
    std::vector<const float*> seen(4);
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; ++i)
        threads.emplace_back([&, i] { seen[i] = opened.value().vector("h", 64).value().data(); });
    for (auto& t : threads) t.join();
    for (const auto* p : seen) CHECK(p == seen[0]);
    CHECK(seen[0][63] == 1.0f);
}

TEST_CASE("lookups name the tensor, the expected and the found shape", "[safetensors]") {
    TempDir dir;
    const auto file = dir.write("model.safetensors",
                                buildSafetensors({{"encoder.layer.0.attention.self.query.weight", "F32", {2, 3}, floatBytes(std::vector<float>(6))},
                                                  {"position_ids", "I64", {1, 2}, std::string(16, '\0')}}));
    auto opened = TensorStore::open(file);
    REQUIRE(opened.ok());
    const auto& store = opened.value();
    const auto wrongShape = store.matrix("encoder.layer.0.attention.self.query.weight", 2, 2);
    REQUIRE_FALSE(wrongShape.ok());
    CHECK(wrongShape.error().text() ==
          "model.safetensors: tensor \"encoder.layer.0.attention.self.query.weight\": expected shape [2, 2], found [2, 3]");
    const auto notAVector = store.vector("encoder.layer.0.attention.self.query.weight", 6);
    REQUIRE_FALSE(notAVector.ok());
    CHECK(notAVector.error().text().find("expected shape [6], found [2, 3]") != std::string::npos);
    const auto missing = store.matrix("encoder.layer.9.output.dense.weight", 2, 2);
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().text() == "model.safetensors: tensor \"encoder.layer.9.output.dense.weight\" is missing");
    // Integer tensors are listed but refused as numbers.
    REQUIRE(store.find("position_ids") != nullptr);
    CHECK(store.find("position_ids")->dtype == DType::I64);
    const auto integers = store.matrix("position_ids", 1, 2);
    REQUIRE_FALSE(integers.ok());
    requireErrorMentions(integers.error(), {"model.safetensors", "\"position_ids\"", "dtype I64"});
}

TEST_CASE("malformed length prefixes are refused", "[safetensors]") {
    requireParseError("", {"bad.safetensors", "0 bytes", "shorter than the 8-byte header length"});
    requireParseError("\x01\x02\x03\x04\x05\x06\x07", {"bad.safetensors", "7 bytes"});
    requireParseError(littleEndian64(100) + "{}", {"bad.safetensors", "header length 100 bytes", "only 2 bytes follow"});
    requireParseError(littleEndian64(200'000'000) + "{}", {"bad.safetensors", "beyond the 100 MB limit"});
    requireParseError(littleEndian64(~0ull) + "{}", {"bad.safetensors", "beyond the 100 MB limit"});
    CHECK(parseBytes(rawFile("{}")).ok());
    CHECK(parseBytes(rawFile("{}")).value().tensors.empty());
}

TEST_CASE("malformed JSON headers are refused", "[safetensors]") {
    requireParseError(rawFile("{\"w\": "), {"bad.safetensors", "not valid JSON"});
    requireParseError(rawFile(""), {"bad.safetensors", "not valid JSON"});
    requireParseError(rawFile("{\"w\": \"\xff\"}"), {"bad.safetensors", "not valid JSON"});
    requireParseError(rawFile("[1, 2]"), {"bad.safetensors", "must be a JSON object", "a list of 2"});
    requireParseError(rawFile("{\"w\": 3}"), {"bad.safetensors", "tensor \"w\"", "expected an object"});
    requireParseError(rawFile("{\"__metadata__\": {\"n\": 1}}"), {"bad.safetensors", "__metadata__.n", "expected text"});
}

TEST_CASE("entries missing a field or of the wrong JSON type are refused", "[safetensors]") {
    const std::vector<std::pair<std::string, std::vector<std::string>>> cases{
        {"{\"w\":{\"shape\":[1],\"data_offsets\":[0,4]}}", {"\"dtype\" is missing"}},
        {"{\"w\":{\"dtype\":\"F32\",\"data_offsets\":[0,4]}}", {"\"shape\" is missing"}},
        {"{\"w\":{\"dtype\":\"F32\",\"shape\":[1]}}", {"\"data_offsets\" is missing"}},
        {entry("32", "[1]", "[0,4]"), {"dtype: expected text", "the number 32"}},
        {entry("\"Q4_K\"", "[1]", "[0,4]"), {"unknown dtype \"Q4_K\""}},
        {entry("\"F32\"", "\"1\"", "[0,4]"), {"shape: expected a list"}},
        {entry("\"F32\"", "[-1]", "[0,4]"), {"shape[0]", "non-negative whole number", "found -1"}},
        {entry("\"F32\"", "[1.5]", "[0,4]"), {"shape[0]", "the number 1.5"}},
        {entry("\"F32\"", "[1, \"2\"]", "[0,4]"), {"shape[1]", "the text \"2\""}},
        {entry("\"F32\"", "[99999999999999999999]", "[0,4]"), {"shape[0]", "non-negative whole number"}},
        {entry("\"F32\"", "[1]", "{}"), {"data_offsets: expected [begin, end]"}},
        {entry("\"F32\"", "[1]", "[0]"), {"data_offsets: expected [begin, end]", "a list of 1"}},
        {entry("\"F32\"", "[1]", "[-4,4]"), {"data_offsets[0]", "found -4"}},
        {entry("\"F32\"", "[1]", "[0,4.0]"), {"data_offsets[1]"}},
        {entry("\"F32\"", "[1]", "[4,0]"), {"data_offsets [4, 0]", "begin is after end"}},
        {entry("\"F32\"", "[1]", "[0,12]"), {"end 12 is beyond the data section of 8 bytes"}},
        {entry("\"F32\"", "[1]", "[4,18446744073709551615]"), {"data_offsets[1]"}},
        {entry("\"F32\"", "[3]", "[0,8]"), {"shape [3] of F32 needs 12 bytes, but data_offsets span 8"}},
        {entry("\"F16\"", "[2,2]", "[0,4]"), {"shape [2, 2] of F16 needs 8 bytes, but data_offsets span 4"}},
        {entry("\"F32\"", "[4611686018427387904,4611686018427387904]", "[0,0]"), {"more bytes than fit in 64 bits"}},
        {entry("\"F32\"", "[4611686018427387904,0,8]", "[0,8]"), {"needs 0 bytes"}},
    };
    for (const auto& [header, parts] : cases) {
        INFO(header);
        auto expected = parts;
        expected.insert(expected.end(), {"bad.safetensors", "tensor \"w\""});
        requireParseError(rawFile(header, kEightBytes), expected);
    }
}

TEST_CASE("overlapping tensors and duplicate names are refused", "[safetensors]") {
    const std::string a = "\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}";
    const std::string b = "\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[2,6]}";
    const std::string wide = "\"wide\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}";
    const std::string inner = "\"inner\":{\"dtype\":\"F16\",\"shape\":[1],\"data_offsets\":[4,6]}";
    const std::string empty = "\"empty\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[2,2]}";
    requireParseError(rawFile("{" + b + "," + a + "}", kEightBytes), {"bad.safetensors", "tensor \"b\"", "overlap tensor \"a\" [0, 4]"});
    requireParseError(rawFile("{" + wide + "," + inner + "}", kEightBytes), {"tensor \"inner\"", "overlap tensor \"wide\""});
    CHECK(parseBytes(rawFile("{" + wide + "," + empty + "}", kEightBytes)).ok());
    requireParseError(rawFile("{" + a + "," + a + "}", kEightBytes), {"bad.safetensors", "has the key \"a\" twice at the top level"});
    requireParseError(rawFile("{\"w\":{\"dtype\":\"F32\",\"dtype\":\"F16\",\"shape\":[1],\"data_offsets\":[0,4]}}", kEightBytes),
                      {"bad.safetensors: w", "has the key \"dtype\" twice"});
}

TEST_CASE("opening a malformed file names the file", "[safetensors]") {
    TempDir dir;
    const auto file = dir.write("broken.safetensors", rawFile(entry("\"F32\"", "[3]", "[0,8]"), kEightBytes));
    const auto store = TensorStore::open(file);
    REQUIRE_FALSE(store.ok());
    requireErrorMentions(store.error(), {"broken.safetensors", "tensor \"w\"", "needs 12 bytes"});
    const auto missing = TensorStore::open(dir.path / "absent.safetensors");
    REQUIRE_FALSE(missing.ok());
    requireErrorMentions(missing.error(), {"absent.safetensors", "cannot open"});
    const auto empty = TensorStore::open(dir.write("empty.safetensors", ""));
    REQUIRE_FALSE(empty.ok());
    requireErrorMentions(empty.error(), {"empty.safetensors", "0 bytes"});
}

TEST_CASE("a sharded checkpoint opens each shard through the index", "[safetensors]") {
    TempDir dir;
    dir.write("model-00001-of-00002.safetensors",
              buildSafetensors({{"a", "F32", {2}, floatBytes({1, 2})}}));
    dir.write("model-00002-of-00002.safetensors", buildSafetensors({{"b", "BF16", {1}, u16Bytes({0x3F80})}}, 1));
    const auto index = dir.write("model.safetensors.index.json",
                                 R"({"metadata": {"total_size": 10}, "weight_map": {
                                       "a": "model-00001-of-00002.safetensors",
                                       "b": "model-00002-of-00002.safetensors"}})");
    auto store = TensorStore::open(index);
    REQUIRE(store.ok());
    CHECK(store.value().names() == std::vector<std::string>{"a", "b"});
    CHECK(store.value().vector("a", 2).value()(1) == 2.0f);
    CHECK(store.value().vector("b", 1).value()(0) == 1.0f);
    CHECK(store.value().find("b")->file == (dir.path / "model-00002-of-00002.safetensors").string());
    const auto missing = store.value().vector("c", 1);
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().text() == "model.safetensors.index.json: tensor \"c\" is missing");
}

TEST_CASE("a shard holding a tensor its index does not list there is refused, naming both", "[safetensors]") {
    TempDir dir;
    // "b" in both shards, the index giving it to the second: the first one's copy is a stray.
    dir.write("model-00001-of-00002.safetensors",
              buildSafetensors({{"a", "F32", {1}, floatBytes({1})}, {"b", "F32", {1}, floatBytes({9})}}));
    dir.write("model-00002-of-00002.safetensors", buildSafetensors({{"b", "F32", {1}, floatBytes({2})}}));
    auto store = TensorStore::open(dir.write("model.safetensors.index.json", R"({"weight_map": {
                                       "a": "model-00001-of-00002.safetensors", "b": "model-00002-of-00002.safetensors"}})"));
    REQUIRE_FALSE(store.ok());
    CHECK(store.error().text() == "model-00001-of-00002.safetensors: tensor \"b\": is in this shard, but "
                                  "model.safetensors.index.json does not list it here");
}

TEST_CASE("sharded index errors name the index and the shard", "[safetensors]") {
    TempDir dir;
    dir.write("model-00001-of-00001.safetensors", buildSafetensors({{"a", "F32", {1}, floatBytes({1})}}));
    const auto openIndex = [&](const std::string& json) {
        return TensorStore::open(dir.write("model.safetensors.index.json", json));
    };
    auto store = openIndex(R"({"weight_map": {"a": "model-00001-of-00001.safetensors", "z": "model-00001-of-00001.safetensors"}})");
    REQUIRE_FALSE(store.ok());
    requireErrorMentions(store.error(), {"model.safetensors.index.json", "tensor \"z\"", "model-00001-of-00001.safetensors does not contain it"});
    store = openIndex(R"({"weight_map": {"a": "model-00002-of-00002.safetensors"}})");
    REQUIRE_FALSE(store.ok());
    requireErrorMentions(store.error(), {"model-00002-of-00002.safetensors", "cannot open"});
    store = openIndex(R"({"weight_map": {"a": "../elsewhere.safetensors"}})");
    REQUIRE_FALSE(store.ok());
    requireErrorMentions(store.error(), {"model.safetensors.index.json: weight_map.a", "file name of a shard"});
    store = openIndex(R"({"metadata": {}})");
    REQUIRE_FALSE(store.ok());
    requireErrorMentions(store.error(), {"model.safetensors.index.json: weight_map", "is missing"});
    store = openIndex(R"({"weight_map": {"a": "x.safetensors", "a": "y.safetensors"}})");
    REQUIRE_FALSE(store.ok());
    requireErrorMentions(store.error(), {"model.safetensors.index.json: weight_map", "has the key \"a\" twice"});
    store = openIndex(R"({"metadata": {"k": 1, "k": 2}, "weight_map": {}})");
    REQUIRE_FALSE(store.ok());
    requireErrorMentions(store.error(), {"model.safetensors.index.json: metadata", "has the key \"k\" twice"});
    store = openIndex(R"({"weight_map": {"a": 7}})");
    REQUIRE_FALSE(store.ok());
    requireErrorMentions(store.error(), {"model.safetensors.index.json: weight_map.a", "the number 7"});
    store = openIndex("{\"weight_map\": ");
    REQUIRE_FALSE(store.ok());
    requireErrorMentions(store.error(), {"model.safetensors.index.json", "not valid JSON"});
}

TEST_CASE("a model folder yields config.json and its safetensors weights", "[safetensors]") {
    TempDir dir;
    dir.write("config.json", "{}");
    dir.write("model.safetensors", buildSafetensors({{"a", "F32", {1}, floatBytes({4})}}));
    dir.write("pytorch_model.bin", "not even read");
    const auto files = findCheckpointFiles(dir.path);
    REQUIRE(files.ok());
    CHECK(files.value().config == dir.path / "config.json");
    CHECK(files.value().weights == dir.path / "model.safetensors");
    CHECK_FALSE(files.value().sharded);
    const auto store = TensorStore::open(dir.path);
    REQUIRE(store.ok());
    CHECK(store.value().vector("a", 1).value()(0) == 4.0f);

    dir.write("model.safetensors.index.json", R"({"weight_map": {}})");
    REQUIRE(findCheckpointFiles(dir.path).ok());
    CHECK(findCheckpointFiles(dir.path).value().sharded);

    const auto noFolder = findCheckpointFiles(dir.path / "nope");
    REQUIRE_FALSE(noFolder.ok());
    requireErrorMentions(noFolder.error(), {"nope", "does not exist"});
    fs::remove(dir.path / "config.json");
    const auto noConfig = findCheckpointFiles(dir.path);
    REQUIRE_FALSE(noConfig.ok());
    requireErrorMentions(noConfig.error(), {"config.json", "is missing"});
}

TEST_CASE("pickle checkpoints are refused without being read", "[safetensors]") {
    TempDir dir;
    dir.write("config.json", "{}");
    const auto bin = dir.write("pytorch_model.bin", "\x80\x02this would be a pickle");
    const auto folder = findCheckpointFiles(dir.path);
    REQUIRE_FALSE(folder.ok());
    requireErrorMentions(folder.error(), {"pytorch_model.bin", "can execute code", "never opens them",
                                          "nothing was read", "from safetensors.torch import save_file",
                                          ".safetensors version"});
    const auto loaded = loadModel(dir.path);  // the model loader goes through the same refusal
    REQUIRE_FALSE(loaded.ok());
    requireErrorMentions(loaded.error(), {"pytorch_model.bin", "never opens them"});
    const auto direct = TensorStore::open(bin);
    REQUIRE_FALSE(direct.ok());
    requireErrorMentions(direct.error(), {"pytorch_model.bin", "pickle"});
    for (const char* name : {"model.pt", "weights.ckpt", "model.pth", "pytorch_model.bin.index.json"}) {
        INFO(name);
        CHECK(isPickleCheckpoint(name));
        const auto refused = TensorStore::open(dir.write(name, "x"));
        REQUIRE_FALSE(refused.ok());
        requireErrorMentions(refused.error(), {name, "never opens them"});
    }
    CHECK_FALSE(isPickleCheckpoint("model.safetensors"));
    CHECK_FALSE(isPickleCheckpoint("model.safetensors.index.json"));
    fs::remove(bin);
    fs::remove(dir.path / "pytorch_model.bin.index.json");
    const auto none = findCheckpointFiles(dir.path);
    REQUIRE_FALSE(none.ok());
    requireErrorMentions(none.error(), {"model.pt", "never opens them"});
}
