// The NumPy .npz export (core/io/zip_store.hpp, core/export/trace_npz.hpp), read back by a small
// ZIP + .npy reader written here from the format descriptions (PKWARE APPNOTE, NEP 1), not from
// core's writer: names, shapes, dtypes, CRC-32 (a bitwise CRC here), numbers against the Trace,
// and numpy's own bytes (tests/reference/fixtures/npz/numpy-savez.npz, written by
// tests/reference/reference_npz.py) read by the same reader.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "core/export/export.hpp"
#include "core/export/model_export.hpp"
#include "core/export/trace_npz.hpp"
#include "core/io/zip_store.hpp"
#include "core/source/model_session.hpp"
#include "tests/core/builtin_lesson.hpp"
#include "tests/core/model_fixtures.hpp"
#include "tests/matrix_literal.hpp"

using namespace attnscope;

namespace {

std::uint64_t le(const std::string& b, std::size_t at, int bytes) {
    REQUIRE(at + static_cast<std::size_t>(bytes) <= b.size());
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + static_cast<std::size_t>(i)]);
    return v;
}

std::uint32_t bitwiseCrc(std::string_view bytes) {
    std::uint32_t crc = 0xFFFFFFFFu;
    for (unsigned char byte : bytes) {
        crc ^= byte;
        for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

// name → the entry's bytes, every structure checked on the way (stored, CRC, local = central).
std::map<std::string, std::string> readZip(const std::string& b) {
    const std::size_t eocd = b.rfind(std::string("PK\x05\x06", 4));
    REQUIRE(eocd != std::string::npos);
    std::uint64_t count = le(b, eocd + 10, 2), dirSize = le(b, eocd + 12, 4), dirStart = le(b, eocd + 16, 4);
    if (dirStart == 0xFFFFFFFFu) {  // ZIP64: the locator sits just before the end record
        REQUIRE(le(b, eocd - 20, 4) == 0x07064b50);
        const std::size_t record = le(b, eocd - 12, 8);
        REQUIRE(le(b, record, 4) == 0x06064b50);
        count = le(b, record + 32, 8);
        dirSize = le(b, record + 40, 8);
        dirStart = le(b, record + 48, 8);
    }
    REQUIRE(dirStart + dirSize <= eocd);
    std::map<std::string, std::string> entries;
    std::size_t at = dirStart;
    for (std::uint64_t i = 0; i < count; ++i) {
        REQUIRE(le(b, at, 4) == 0x02014b50);
        CHECK(le(b, at + 10, 2) == 0);  // stored
        const auto crc = static_cast<std::uint32_t>(le(b, at + 16, 4));
        const std::size_t size = le(b, at + 24, 4), nameLength = le(b, at + 28, 2), extra = le(b, at + 30, 2);
        CHECK(le(b, at + 20, 4) == size);
        std::uint64_t local = le(b, at + 42, 4);
        const std::string name = b.substr(at + 46, nameLength);
        if (local == 0xFFFFFFFFu) {
            REQUIRE(extra >= 12);
            REQUIRE(le(b, at + 46 + nameLength, 2) == 1);
            local = le(b, at + 46 + nameLength + 4, 8);
        }
        REQUIRE(le(b, local, 4) == 0x04034b50);
        CHECK(le(b, local + 14, 4) == crc);
        CHECK(le(b, local + 22, 4) == size);
        CHECK(b.substr(local + 30, le(b, local + 26, 2)) == name);
        const std::string data = b.substr(local + 30 + le(b, local + 26, 2) + le(b, local + 28, 2), size);
        REQUIRE(data.size() == size);
        CHECK(bitwiseCrc(data) == crc);
        entries[name] = data;
        at += 46 + nameLength + extra + le(b, at + 32, 2);
    }
    return entries;
}

struct Npy {
    std::string descr;
    Eigen::Index rows = 0, cols = 0;
    Mat values;
};

Npy readNpy(const std::string& b) {
    REQUIRE(b.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));
    const std::size_t headerLength = le(b, 8, 2);
    CHECK((10 + headerLength) % 64 == 0);
    const std::string header = b.substr(10, headerLength);
    std::smatch m;
    REQUIRE(std::regex_search(header, m, std::regex(R"(\{'descr': '(<f[48])', 'fortran_order': False, 'shape': \((\d+), (\d+)\), \} *\n)")));
    Npy out{m[1], std::stoll(m[2]), std::stoll(m[3]), {}};
    const std::size_t width = out.descr == "<f8" ? 8 : 4;
    REQUIRE(b.size() == 10 + headerLength + width * static_cast<std::size_t>(out.rows * out.cols));
    out.values.resize(out.rows, out.cols);
    const char* p = b.data() + 10 + headerLength;
    for (Eigen::Index i = 0; i < out.rows * out.cols; ++i, p += width) {
        float f;
        double d;
        if (width == 4) std::memcpy(&f, p, 4), d = f;
        else std::memcpy(&d, p, 8);
        out.values.data()[i] = d;
    }
    return out;
}

OpenedModel openTinyModel(const std::string& name) {
    auto opened = openModel((fixture_io::sourceDir() / "tests/reference/models" / name).string());
    REQUIRE(opened.ok());
    return std::move(opened).value();
}

bool sameCells(const Mat& a, const Mat& b) {  // -inf equals -inf
    if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
    for (Eigen::Index i = 0; i < a.size(); ++i)
        if (!(a.data()[i] == b.data()[i])) return false;
    return true;
}

}  // namespace

TEST_CASE("CRC-32 of known texts", "[export][npz]") {
    CHECK(crc32("") == 0);
    CHECK(crc32("123456789") == 0xCBF43926u);  // the check value of CRC-32/ISO-HDLC
    const std::string long_(1000, 'a');
    CHECK(crc32(long_) == bitwiseCrc(long_));
    CHECK(crc32(std::string_view(long_).substr(3), crc32(std::string_view(long_).substr(0, 3))) == crc32(long_));
}

TEST_CASE("numpy's own .npz reads back through the test's reader, and our .npy entries match its bytes", "[export][npz]") {
    // tests/reference/reference_npz.py: np.savez(f, a=np.array([[1, 2, 3], [4, 5, -0.5]], float32),
    // b=np.array([[0.25, -inf]], float64))
    const auto zip = readZip(fixture_io::readText(fixture_io::sourceDir() / "tests/reference/fixtures/npz/numpy-savez.npz"));
    REQUIRE(zip.size() == 2);
    const Npy a = readNpy(zip.at("a.npy"));
    CHECK(a.descr == "<f4");
    CHECK(a.values == testing::rows({{1, 2, 3}, {4, 5, -0.5}}));
    const Npy b = readNpy(zip.at("b.npy"));
    CHECK(b.descr == "<f8");
    CHECK(sameCells(b.values, testing::rows({{0.25, -std::numeric_limits<double>::infinity()}})));

    Trace trace;  // our writer's bytes for the same two arrays
    trace.embedding = testing::rows({{1, 2, 3}, {4, 5, -0.5}});
    std::string ours;
    TraceNpzStream stream(stringSink(ours), NumberSpelling::FloatShortest, TraceSelection{{}, {}, {Step::Embedding}});
    stream.begin(trace, {});
    REQUIRE(stream.finish());
    CHECK(readZip(ours).at("embedding.npy") == zip.at("a.npy"));
}

TEST_CASE("a model run's .npz holds every matrix of its Trace as float32, by name", "[export][npz][model]") {
    for (const char* name : {"bert-tiny", "gpt2-tiny"}) {
        INFO(name);
        const OpenedModel opened = openTinyModel(name);
        const std::string sentence = std::string(name) == "gpt2-tiny" ? "the cat sat on" : "the [MASK] sat on the mat";
        RunControl full;
        full.fullDetailMaxTokens = std::numeric_limits<int>::max();
        auto whole = runSentence(opened, sentence, full);
        REQUIRE(whole.ok());
        const Trace& trace = whole.value().trace;
        std::string bytes;
        const ModelRunner runner = [&](const RunControl& c) { return runSentence(opened, sentence, c); };
        const TokenLabeler label = [&](int id) { return opened.tokenizer.label(id); };
        REQUIRE(streamModelRunNpz(runner, RunControl{}, opened.family(), label, {}, std::nullopt, stringSink(bytes), "t").ok());
        const auto zip = readZip(bytes);
        const int H = opened.headCount(), L = opened.layerCount();
        CHECK(zip.size() == static_cast<std::size_t>(2 + L * (3 + 9 * H) + 1));
        double largest = 0;
        const auto check = [&](const std::string& entry, const Mat& want) {
            INFO(entry);
            REQUIRE(zip.count(entry + ".npy") == 1);
            const Npy got = readNpy(zip.at(entry + ".npy"));
            CHECK(got.descr == "<f4");
            REQUIRE(got.rows == want.rows());
            REQUIRE(got.cols == want.cols());
            for (Eigen::Index i = 0; i < want.size(); ++i) {
                const double w = want.data()[i], g = got.values.data()[i];
                if (std::isinf(w)) CHECK(g == w);
                else largest = std::max(largest, std::abs(g - w) / std::max(1.0, std::abs(w)));
            }
        };
        check("embedding", trace.embedding);
        check("positional", trace.positional);
        for (int l = 0; l < L; ++l) {
            const LayerTrace& layer = trace.layers[static_cast<std::size_t>(l)];
            char folder[16];
            std::snprintf(folder, sizeof folder, "layer%02d/", l + 1);  // counted from 1 (docs/cli.md)
            check(folder + std::string("input"), layer.input);
            check(folder + std::string("concat"), layer.concat);
            check(folder + std::string("output"), layer.output);
            for (int h = 0; h < H; ++h) {
                const HeadTrace& head = layer.heads[static_cast<std::size_t>(h)];
                char in[32];
                std::snprintf(in, sizeof in, "%shead%02d/", folder, h + 1);
                for (const auto& [key, m] : {std::pair<const char*, const Mat*>{"q", &head.q}, {"k", &head.k}, {"v", &head.v},
                                             {"scores", &head.scores}, {"scaled_scores", &head.scaledScores},
                                             {"mask", &head.mask}, {"masked_scores", &head.maskedScores},
                                             {"output", &head.weightedSum}})
                    check(in + std::string(key), *m);
                check(in + std::string("weights"), head.weights.toMat());  // float for models
            }
        }
        CHECK(largest < 1e-6);  // the float the model computed
        const auto meta = nlohmann::json::parse(zip.at("trace.json"));
        CHECK(meta.at("tokens").size() == static_cast<std::size_t>(trace.tokenCount()));
        CHECK(meta.at("arrays").size() == zip.size() - 1);
        CHECK(meta.at("arrays")[2] == "layer01/input");  // counted from 1
        CHECK(meta.at("predictions").size() == whole.value().predictions.size());
    }
}

TEST_CASE("a lesson's .npz is float64 and exact, and a selection holds only its parts", "[export][npz]") {
    const Trace trace = testing::runBuiltInLesson("two-layers");
    ExportRequest request;
    request.selection = TraceSelection{{1}, {0}, {Step::Weights, Step::Mask}};
    const auto zip = readZip(exportTrace(trace, ExportFormat::Npy, request));
    std::set<std::string> names;
    for (const auto& [name, data] : zip) names.insert(name);
    CHECK(names == std::set<std::string>{"layer02/head01/mask.npy", "layer02/head01/weights.npy", "trace.json"});
    const Npy weights = readNpy(zip.at("layer02/head01/weights.npy"));
    CHECK(weights.descr == "<f8");
    CHECK(weights.values == trace.layers[1].heads[0].weights);  // exact: the lesson's doubles
    CHECK(sameCells(readNpy(zip.at("layer02/head01/mask.npy")).values, trace.layers[1].heads[0].mask));
    const auto meta = nlohmann::json::parse(zip.at("trace.json"));
    CHECK(meta.at("selection") == nlohmann::json::parse(R"({"layers": [2], "heads": [1], "steps": ["weights", "mask"]})"));
}

TEST_CASE("offsets past the ZIP64 threshold are read back through the ZIP64 records", "[export][npz]") {
    std::string bytes;
    StoredZipWriter zip(stringSink(bytes), 40);  // everything after byte 40 counts as far
    REQUIRE(zip.add("near.npy", std::string(20, 'x')));
    REQUIRE(zip.add("far/one.txt", "second entry"));
    REQUIRE(zip.finish());
    const auto entries = readZip(bytes);
    CHECK(entries.at("near.npy") == std::string(20, 'x'));
    CHECK(entries.at("far/one.txt") == "second entry");
    CHECK(bytes.find(std::string("PK\x06\x06", 4)) != std::string::npos);
    if (const char* out = std::getenv("ATTNSCOPE_ZIP64_SAMPLE")) std::ofstream(out, std::ios::binary) << bytes;  // for reference_npz.py
}

TEST_CASE("a refusing sink stops the .npz writer at the first failed write", "[export][npz]") {
    int calls = 0;
    StoredZipWriter zip([&](std::string_view) { return ++calls, false; });
    CHECK_FALSE(zip.add("a", "1"));
    CHECK_FALSE(zip.add("b", "2"));
    CHECK_FALSE(zip.finish());
    CHECK(calls == 1);
}
