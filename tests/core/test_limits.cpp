// Limits (issue 10, items 3, 4 and 5): only regular files of a capped size are read; a config.json
// claiming more than its weights hold is refused on the header alone; a weight that is NaN or
// ±∞ is refused at load, named with its first bad element (F32, F16, BF16); a wide lesson
// without projections neither stores nor multiplies d×d identities.
#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>
#include <sstream>
#include <vector>

#include "core/base/finite.hpp"
#include "core/trace/explain.hpp"
#include "core/lesson/lesson.hpp"
#include "core/model/bert.hpp"
#include "core/model/safetensors.hpp"
#include "core/model/transformer.hpp"
#include "core/lesson/run_lesson.hpp"
#include "core/io/text_file.hpp"

using namespace attnscope;
namespace fs = std::filesystem;

namespace {

const fs::path kModels = fs::path(ATTNSCOPE_SOURCE_DIR) / "tests/reference/models";

struct TempDir {
    fs::path path;
    TempDir() {
        std::string pattern = (fs::temp_directory_path() / "attnscope-limits-XXXXXX").string();
        REQUIRE(mkdtemp(pattern.data()) != nullptr);
        path = pattern;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

std::string readAll(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void writeAll(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

// A copy of a tiny fixture model in `dir`, its config.json edited by a regex replacement.
fs::path copyModel(const TempDir& dir, const std::string& name, const std::string& pattern = "",
                   const std::string& replacement = "") {
    static int copies = 0;  // each copy its own folder, named after the fixture
    const fs::path folder = dir.path / (name + "-" + std::to_string(++copies));
    fs::copy(kModels / name, folder);
    if (!pattern.empty()) {
        const std::string config = readAll(folder / "config.json");
        const std::string edited = std::regex_replace(config, std::regex(pattern), replacement);
        REQUIRE(edited != config);
        writeAll(folder / "config.json", edited);
    }
    return folder;
}

// Overwrites element `index` (row-major) of a tensor of a safetensors file with raw bytes.
void pokeTensor(const fs::path& file, const std::string& tensor, std::size_t index, const std::string& bytes) {
    std::string image = readAll(file);
    auto header = parseSafetensors(reinterpret_cast<const std::uint8_t*>(image.data()), image.size(), "model");
    REQUIRE(header.ok());
    for (const TensorInfo& info : header.value().tensors)
        if (info.name == tensor) {
            const std::size_t at = header.value().dataStart + info.begin + index * bytes.size();
            REQUIRE(at + bytes.size() <= header.value().dataStart + info.end);
            image.replace(at, bytes.size(), bytes);
            writeAll(file, image);
            return;
        }
    FAIL("no tensor " << tensor);
}

std::string f32Bytes(float value) {
    std::string bytes(4, '\0');
    std::memcpy(bytes.data(), &value, 4);
    return bytes;
}

std::string u16Bytes(std::uint16_t value) { return std::string{static_cast<char>(value & 0xFF), static_cast<char>(value >> 8)}; }

std::string loadError(const fs::path& folder) {
    auto model = loadModel(folder);
    REQUIRE_FALSE(model.ok());
    return model.error().text();
}

}  // namespace

// ---------------------------------------------------------------- reading files

TEST_CASE("readTextFile reads only regular files, up to a cap it names", "[limits]") {
    TempDir dir;
    const fs::path text = dir.path / "lesson.json";
    writeAll(text, std::string(100, 'x'));
    auto read = readTextFile(text, 100);
    REQUIRE(read.ok());
    CHECK(read.value() == std::string(100, 'x'));

    auto tooLarge = readTextFile(text, 64);
    REQUIRE_FALSE(tooLarge.ok());
    CHECK(tooLarge.error().text() == text.string() + ": is 100 bytes, over the cap of 64 bytes for a file of this kind");

    auto folder = readTextFile(dir.path);
    REQUIRE_FALSE(folder.ok());
    CHECK(folder.error().text() == dir.path.string() + ": is a folder, not a file");

    // /dev/zero never ends and a FIFO blocks until someone writes: both refused before opening.
    auto zero = readTextFile("/dev/zero");
    REQUIRE_FALSE(zero.ok());
    CHECK(zero.error().message == "is not a regular file (a device, FIFO or socket): only regular files are read");
    const fs::path fifo = dir.path / "fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    auto fromFifo = readTextFile(fifo);
    REQUIRE_FALSE(fromFifo.ok());
    CHECK(fromFifo.error().where == fifo.string());
}

TEST_CASE("the default cap is 16 MiB and sizes are said in MiB", "[limits]") {
    CHECK(kMaxTextFileBytes == 16u * 1024 * 1024);
    CHECK(byteSizeText(16u * 1024 * 1024) == "16 MiB");
    CHECK(byteSizeText(1536) == "1.5 KiB");
    CHECK(byteSizeText(12) == "12 bytes");
    TempDir dir;
    const fs::path big = dir.path / "config.json";
    { std::ofstream(big) << ""; }
    fs::resize_file(big, 100u * 1024 * 1024);  // sparse: nothing is written
    auto read = readTextFile(big);
    REQUIRE_FALSE(read.ok());
    CHECK(read.error().message == "is 100 MiB, over the cap of 16 MiB for a file of this kind");
}

// ---------------------------------------------------------------- config against weights

TEST_CASE("a config claiming more layers than the file holds is refused before binding", "[limits]") {
    TempDir dir;
    const fs::path bert = copyModel(dir, "bert-tiny", R"("num_hidden_layers": *2)", R"("num_hidden_layers": 3)");
    CHECK(loadError(bert) == (bert / "config.json").string() +
                                 ": num_hidden_layers: is 3 but model.safetensors holds 2 layers "
                                 "(encoder.layer.0 … encoder.layer.1)");
    const fs::path gpt2 = copyModel(dir, "gpt2-tiny", R"("n_layer": *2)", R"("n_layer": 1000000000)");
    CHECK(loadError(gpt2) == (gpt2 / "config.json").string() +
                                 ": n_layer: is 1000000000 but model.safetensors holds 2 layers (h.0 … h.1)");
    const fs::path distil = copyModel(dir, "distilbert-tiny", R"("n_layers": *2)", R"("n_layers": 7)");
    CHECK(loadError(distil).find("n_layers: is 7 but model.safetensors holds 2 layers (transformer.layer.0 … "
                                 "transformer.layer.1)") != std::string::npos);
}

TEST_CASE("a config whose width, vocabulary or positions disagree with the tables is refused", "[limits]") {
    TempDir dir;
    const fs::path wide = copyModel(dir, "bert-tiny", R"("hidden_size": *32)", R"("hidden_size": 1000000)");
    CHECK(loadError(wide) == (wide / "config.json").string() +
                                 ": hidden_size: is 1000000 but the word-embedding table "
                                 "\"bert.embeddings.word_embeddings.weight\" in model.safetensors has 32 columns");
    const fs::path vocab = copyModel(dir, "gpt2-tiny", R"("vocab_size": *[0-9]+)", R"("vocab_size": 999999)");
    CHECK(loadError(vocab).find("vocab_size: is 999999 but the word-embedding table \"wte.weight\"") != std::string::npos);
    const fs::path positions = copyModel(dir, "gpt2-tiny", R"("n_positions": *[0-9]+)", R"("n_positions": 100000000)");
    CHECK(loadError(positions).find("n_positions: is 100000000 but the position table \"wpe.weight\"") !=
          std::string::npos);
}

TEST_CASE("binding stops at the first missing tensor instead of walking every claimed layer", "[limits]") {
    auto store = TensorStore::open(kModels / "bert-tiny/model.safetensors");
    REQUIRE(store.ok());
    auto config = loadModel(kModels / "bert-tiny");
    REQUIRE(config.ok());
    TransformerConfig huge = config.value().config;
    huge.layers = 1 << 30;  // before: 2^30 layers of empty references, minutes and gigabytes
    auto bound = bindEncoder(store.value(), huge, "bert-tiny");
    REQUIRE_FALSE(bound.ok());
    CHECK(bound.error().text().find("bert.encoder.layer.2.attention.self.query.weight") != std::string::npos);
}

// ---------------------------------------------------------------- finite weights

TEST_CASE("a NaN in an F32 weight is refused at load, naming the tensor and the element", "[limits]") {
    TempDir dir;
    const fs::path folder = copyModel(dir, "bert-tiny");
    const std::string name = "bert.encoder.layer.0.attention.self.query.weight";  // 32×32
    pokeTensor(folder / "model.safetensors", name, 3 * 32 + 17, f32Bytes(std::numeric_limits<float>::quiet_NaN()));
    CHECK(loadError(folder) == "model.safetensors: tensor \"" + name + "\": holds NaN at [3, 17]; weights must be finite");
}

TEST_CASE("±∞ in F16 weights is refused, in a vector and in a matrix", "[limits]") {
    TempDir dir;
    const fs::path bert = copyModel(dir, "bert-tiny-f16");
    pokeTensor(bert / "model.safetensors", "bert.encoder.layer.1.output.LayerNorm.bias", 5, u16Bytes(0xFC00));  // -inf
    CHECK(loadError(bert) == "model.safetensors: tensor \"bert.encoder.layer.1.output.LayerNorm.bias\": holds -inf "
                             "at [5]; weights must be finite");
    const fs::path gpt2 = copyModel(dir, "gpt2-tiny-f16");
    pokeTensor(gpt2 / "model.safetensors", "transformer.h.1.attn.c_attn.weight", 2 * 96 + 5, u16Bytes(0x7E00));  // NaN
    CHECK(loadError(gpt2) == "model.safetensors: tensor \"transformer.h.1.attn.c_attn.weight\": holds NaN at [2, 5]; "
                             "weights must be finite");
}

TEST_CASE("a BF16 +inf is refused by the weight binder", "[limits]") {
    TempDir dir;
    // One BF16 tensor [2, 3] = 1 2 3 / 4 5 +inf, written by hand (header, then 12 data bytes).
    const std::string header = R"({"w":{"dtype":"BF16","shape":[2,3],"data_offsets":[0,12]}})";
    std::string file(8, '\0');
    file[0] = static_cast<char>(header.size());
    file += header;
    for (std::uint16_t v : {0x3F80, 0x4000, 0x4040, 0x4080, 0x40A0, 0x7F80}) file += u16Bytes(v);
    writeAll(dir.path / "w.safetensors", file);
    auto store = TensorStore::open(dir.path / "w.safetensors");
    REQUIRE(store.ok());
    WeightBinder bind(store.value());
    bind.matrix("w", 2, 3);
    REQUIRE_FALSE(bind.status().ok());
    CHECK(bind.status().error().text() == "w.safetensors: tensor \"w\": holds +inf at [1, 2]; weights must be finite");
    CHECK(bind.used().empty());
}

TEST_CASE("firstNonFinite finds the first bad element in any block, and none in finite data", "[limits]") {
    std::vector<float> values(10000, 1.5f);
    values[123] = -0.0f;
    values[9000] = std::numeric_limits<float>::max();
    CHECK_FALSE(firstNonFinite(values.data(), static_cast<Eigen::Index>(values.size())));
    values[9999] = -std::numeric_limits<float>::infinity();
    values[4097] = std::numeric_limits<float>::quiet_NaN();
    CHECK(firstNonFinite(values.data(), static_cast<Eigen::Index>(values.size())) == Eigen::Index{4097});
    CHECK(firstNonFinite(values.data() + 4098, 5902) == Eigen::Index{5901});
    CHECK_FALSE(firstNonFinite(values.data(), 0));
}

TEST_CASE("firstNonFinite16 finds the first BF16 or F16 word with its exponent all ones, past whole blocks and at odd offsets", "[limits]") {
    // 10,000 words after one byte (the mapping may hold a tensor at an odd offset); the checked
    // blocks are 4,096 words long. BF16: 0x7F80 +inf, 0xFFC0 NaN, 0x7F7F the largest finite;
    // F16: 0x7C00 +inf, 0x7BFF the largest finite.
    const auto wordsWith = [](std::uint16_t fill, std::vector<std::pair<std::size_t, std::uint16_t>> set) {
        std::vector<std::uint8_t> bytes(1 + 2 * 10000);
        for (std::size_t i = 0; i < 10000; ++i) {
            std::uint16_t v = fill;
            for (const auto& [at, value] : set)
                if (at == i) v = value;
            bytes[1 + 2 * i] = static_cast<std::uint8_t>(v & 0xFF);
            bytes[2 + 2 * i] = static_cast<std::uint8_t>(v >> 8);
        }
        return bytes;
    };
    const auto bf16 = wordsWith(0x3F80, {{123, 0x7F7F}, {5000, 0xFFC0}, {9999, 0x7F80}});  // 1.0 elsewhere
    CHECK(firstNonFinite16(bf16.data() + 1, 10000, DType::BF16) == Eigen::Index{5000});
    CHECK(firstNonFinite16(bf16.data() + 1 + 2 * 5001, 4999, DType::BF16) == Eigen::Index{4998});  // the tail
    CHECK_FALSE(firstNonFinite16(bf16.data() + 1, 5000, DType::BF16));
    const auto f16 = wordsWith(0x3C00, {{4096, 0x7BFF}, {8191, 0x7C00}});  // 1.0 elsewhere
    CHECK(firstNonFinite16(f16.data() + 1, 10000, DType::F16) == Eigen::Index{8191});
    CHECK_FALSE(firstNonFinite16(f16.data() + 1, 8191, DType::F16));
    CHECK_FALSE(firstNonFinite16(f16.data() + 1, 10000, DType::BF16));  // 0x7BFF and 0x7C00 are finite as BF16
}

// ---------------------------------------------------------------- wide lessons

namespace {

std::string wideLesson(int d, int heads) {
    return R"({"format": "attnscope-lesson", "version": 1, "d_model": )" + std::to_string(d) +
           R"(, "heads": )" + std::to_string(heads) +
           R"(, "projections": false, "positional_encoding": "sinusoidal", "sentence": "a b c", "embeddings": {}})";
}

}  // namespace

TEST_CASE("a 4096-wide lesson without projections copies X instead of multiplying by stored identities", "[limits]") {
    auto lesson = parseLesson(wideLesson(4096, 1), "wide");
    REQUIRE(lesson.ok());
    auto trace = runLesson(lesson.value(), "a b c");
    REQUIRE(trace.ok());
    const LayerTrace& layer = trace.value().layers.at(0);
    const HeadTrace& head = layer.heads.at(0);
    // Before: three 4096×4096 identities per head and one for W_O (512 MB), and X·I products.
    CHECK(head.params.wq.size() == 0);
    CHECK(head.params.wv.size() == 0);
    CHECK(layer.wo.size() == 0);
    const Mat X = trace.value().embedding + trace.value().positional;  // E + P, no rounding
    CHECK(head.q == X);
    CHECK(head.v == X);
    CHECK(layer.output == layer.concat);
    // Q's operand is X alone; explanations still work on any cell.
    CHECK(operandsOf(trace.value(), Step::Query, 0) == std::vector<Operand>{{Step::Input, 0}});
    auto q = explainCell(trace.value(), CellRef{Step::Query, 0, 0, 1, 4095}, 3);
    REQUIRE(q.ok());
    CHECK(q.value().kind == ExplanationKind::Copy);
    CHECK(q.value().value == X(1, 4095));
    auto weight = explainCell(trace.value(), CellRef{Step::Weights, 0, 0, 2, 0}, 3);
    REQUIRE(weight.ok());
    CHECK(weight.value().kind == ExplanationKind::Softmax);
    auto output = explainCell(trace.value(), CellRef{Step::Output, 0, 0, 0, 7}, 3);
    REQUIRE(output.ok());
    CHECK(output.value().kind == ExplanationKind::Copy);
    CHECK(output.value().value == layer.concat(0, 7));
}

TEST_CASE("a hand-sized lesson without projections still shows its identity weights", "[limits]") {
    auto lesson = parseLesson(wideLesson(4, 2), "small");
    REQUIRE(lesson.ok());
    auto trace = runLesson(lesson.value(), "a b c");
    REQUIRE(trace.ok());
    const LayerTrace& layer = trace.value().layers.at(0);
    CHECK(layer.heads.at(1).params.wk == Mat(Mat::Identity(4, 4)));
    CHECK(layer.wo == Mat(Mat::Identity(8, 8)));  // no W_O: the 8-wide concatenation is the output
    CHECK(operandsOf(trace.value(), Step::Key, 0) == std::vector<Operand>{{Step::Input, 0}, {Step::WK, 0}});
}

TEST_CASE("heads × d_k or heads × d_v beyond 16384 columns per token is refused, naming heads", "[limits]") {
    auto wide = parseLesson(wideLesson(4096, 64), "wide.json");
    REQUIRE_FALSE(wide.ok());
    CHECK(wide.error().text() == "wide.json: heads: 64 heads × d_k 4096 = 262144 columns per token; at most 16384 "
                                 "(heads × d_k and heads × d_v)");
    CHECK(parseLesson(wideLesson(4096, 4), "four heads").ok());  // 4 × 4096 = 16384: the largest allowed
}
