// The models' vectorised element-wise steps (core/model/simd_kernels.hpp) against plain scalar
// references in double (std::exp, std::erf, std::tanh, a two-pass LayerNorm), at every SIMD
// level this CPU can run, on awkward lengths (tails of every size at W = 4, 8, 16).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <iomanip>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/model/blas_kernels.hpp"
#include "core/model/blocks.hpp"
#include "core/model/simd_kernels.hpp"
#include "core/model/transformer.hpp"
#include "model_fixtures.hpp"

using namespace attnscope;

namespace {

const std::vector<std::size_t> kLengths{1, 15, 17, 63, 513};
constexpr float kInf = std::numeric_limits<float>::infinity();

std::vector<SimdLevel> runnableLevels() {
    const CpuFeatures cpu = detectCpuFeatures();
    std::vector<SimdLevel> levels{SimdLevel::Sse2};
    if (canRunAvx2Kernels(cpu)) levels.push_back(SimdLevel::Avx2);
    if (canRunAvx512Kernels(cpu)) levels.push_back(SimdLevel::Avx512);
    return levels;
}

std::vector<float> randomRow(std::size_t n, float spread, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-spread, spread);
    std::vector<float> row(n);
    for (float& x : row) x = u(rng);
    return row;
}

// The largest |got − want| and its index.
struct Worst {
    double diff = 0;
    std::size_t at = 0;
    void see(double got, double want, std::size_t i) {
        const double d = std::abs(got - want);
        if (d > diff || std::isnan(d)) diff = std::isnan(d) ? kInf : d, at = i;
    }
    std::string text() const {
        std::ostringstream out;
        out << "largest difference " << std::scientific << std::setprecision(2) << diff << " at index " << at;
        return out.str();
    }
};

// softmax(x·scale) over [0, valid), 0 after, in double with std::exp.
std::vector<double> softmaxReference(const std::vector<float>& x, std::size_t valid, double scale) {
    double top = -kInf;
    for (std::size_t i = 0; i < valid; ++i) top = std::max(top, double(x[i]));
    std::vector<double> out(x.size(), 0.0);
    double sum = 0;
    for (std::size_t i = 0; i < valid; ++i) sum += out[i] = std::exp((x[i] - top) * scale);
    for (std::size_t i = 0; i < valid; ++i) out[i] /= sum;
    return out;
}

Worst compareSoftmax(SimdLevel level, std::vector<float> row, std::size_t valid, float scale) {
    const std::vector<double> want = softmaxReference(row, valid, scale);
    REQUIRE(softmaxRowScaled(level, row.data(), row.size(), valid, scale));
    Worst worst;
    for (std::size_t i = 0; i < row.size(); ++i) worst.see(row[i], want[i], i);
    return worst;
}

}  // namespace

TEST_CASE("softmax rows, scaled and causally cut, against std::exp in double", "[simd]") {
    for (SimdLevel level : runnableLevels()) {
        for (std::size_t n : kLengths) {
            INFO("level " << simdLevelName(level) << ", length " << n);
            std::vector<float> row = randomRow(n, 40.0f, static_cast<unsigned>(n));
            const Worst whole = compareSoftmax(level, row, n, 0.125f);
            INFO("whole row: " << whole.text());
            CHECK(whole.diff < 2e-7);
            const std::size_t half = (n + 1) / 2;  // a causal row: only the first half seen
            const Worst cut = compareSoftmax(level, row, half, 0.125f);
            INFO("first " << half << ": " << cut.text());
            CHECK(cut.diff < 2e-7);
            for (std::size_t i = 0; i < n; i += 3) row[i] = -kInf;  // masked entries: exactly 0
            if (n > 1) {
                std::vector<float> masked = row;
                REQUIRE(softmaxRowScaled(level, masked.data(), n, n, 1.0f));
                for (std::size_t i = 0; i < n; i += 3) CHECK(masked[i] == 0.0f);
                const Worst withInf = compareSoftmax(level, row, n, 1.0f);
                INFO("with -inf entries: " << withInf.text());
                CHECK(withInf.diff < 2e-7);
            }
            // Large magnitudes: spread ±1e4 (most weights underflow to 0, the maximum gets ~1).
            const Worst large = compareSoftmax(level, randomRow(n, 1e4f, 7u + static_cast<unsigned>(n)), n, 1.0f);
            INFO("large magnitudes: " << large.text());
            CHECK(large.diff < 2e-7);
        }
    }
}

TEST_CASE("softmax rows without a finite maximum are left to the general softmax", "[simd]") {
    for (SimdLevel level : runnableLevels()) {
        INFO("level " << simdLevelName(level));
        std::vector<float> allMasked(17, -kInf), withNaN = randomRow(17, 3.0f, 1), withInf = randomRow(17, 3.0f, 2);
        withNaN[16] = std::numeric_limits<float>::quiet_NaN();  // in the tail at every width
        withInf[3] = kInf;
        const std::vector<float> nanBefore = withNaN, infBefore = withInf;
        CHECK_FALSE(softmaxRowScaled(level, allMasked.data(), 17, 17, 1.0f));
        CHECK_FALSE(softmaxRowScaled(level, withNaN.data(), 17, 17, 1.0f));
        CHECK_FALSE(softmaxRowScaled(level, withInf.data(), 17, 17, 1.0f));
        CHECK_FALSE(softmaxRowScaled(level, withInf.data(), 17, 0, 1.0f));
        CHECK(withInf == infBefore);  // untouched
        for (std::size_t i = 0; i < 16; ++i) CHECK(withNaN[i] == nanBefore[i]);
        std::vector<float> nanPastValid = randomRow(17, 3.0f, 3);
        nanPastValid[16] = std::numeric_limits<float>::quiet_NaN();  // beyond `valid`: hidden, set to 0
        CHECK(softmaxRowScaled(level, nanPastValid.data(), 17, 9, 1.0f));
        CHECK(nanPastValid[16] == 0.0f);
    }
}

TEST_CASE("GELU (erf and tanh) against std::erf and std::tanh in double", "[simd]") {
    for (SimdLevel level : runnableLevels()) {
        for (std::size_t n : kLengths) {
            INFO("level " << simdLevelName(level) << ", length " << n);
            std::vector<float> x = randomRow(n, 8.0f, 11u + static_cast<unsigned>(n));
            if (n > 2) x[1] = 3e4f, x[2] = -3e4f;  // large magnitudes: x and 0
            std::vector<float> e = x, t = x;
            geluErfInPlace(level, e.data(), n);
            geluTanhInPlace(level, t.data(), n);
            Worst erfWorst, tanhWorst;
            for (std::size_t i = 0; i < n; ++i) {
                const double v = x[i];
                const double scale = std::max(1.0, std::abs(v));  // relative for large x
                erfWorst.see(e[i] / scale, 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))) / scale, i);
                tanhWorst.see(t[i] / scale,
                              0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v))) / scale, i);
            }
            INFO("erf: " << erfWorst.text() << "; tanh: " << tanhWorst.text());
            CHECK(erfWorst.diff < 1e-6);
            CHECK(tanhWorst.diff < 1e-6);
        }
    }
}

TEST_CASE("SiLU against x / (1 + exp(-x)) in double", "[simd]") {
    for (SimdLevel level : runnableLevels()) {
        for (std::size_t n : kLengths) {
            INFO("level " << simdLevelName(level) << ", length " << n);
            std::vector<float> x = randomRow(n, 12.0f, 31u + static_cast<unsigned>(n));
            if (n > 3) x[1] = 3e4f, x[2] = -3e4f, x[3] = -90.0f;  // x, 0 and past exp's range
            std::vector<float> y = x;
            siluInPlace(level, y.data(), n);
            Worst worst;
            for (std::size_t i = 0; i < n; ++i) {
                const double v = x[i];
                worst.see(y[i] / std::max(1.0, std::abs(v)), v / (1 + std::exp(-v)) / std::max(1.0, std::abs(v)), i);
            }
            INFO(worst.text());
            CHECK(worst.diff < 1e-6);
        }
    }
    std::vector<float> odd{std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(), 0.0f};
    siluInPlace(activeSimdLevel(), odd.data(), odd.size());
    CHECK(std::isnan(odd[0]));
    CHECK(odd[1] == std::numeric_limits<float>::infinity());
    CHECK(odd[2] == 0.0f);
}

TEST_CASE("LayerNorm rows against a two-pass LayerNorm in double, residual adds", "[simd]") {
    for (SimdLevel level : runnableLevels()) {
        for (std::size_t n : kLengths) {
            INFO("level " << simdLevelName(level) << ", length " << n);
            std::vector<float> row = randomRow(n, 50.0f, 21u + static_cast<unsigned>(n));
            for (float& v : row) v += 1000.0f;  // a large mean: the two-pass variance matters
            const std::vector<float> gamma = randomRow(n, 2.0f, 5), beta = randomRow(n, 1.0f, 6);
            double mean = 0, variance = 0;
            for (float v : row) mean += v;
            mean /= double(n);
            for (float v : row) variance += (v - mean) * (v - mean);
            variance /= double(n);
            std::vector<float> got = row;
            layerNormRow(level, got.data(), n, gamma.data(), beta.data(), 1e-12f);
            Worst worst;
            for (std::size_t i = 0; i < n; ++i)
                worst.see(got[i], n == 1 ? beta[i] : (row[i] - mean) / std::sqrt(variance + 1e-12) * gamma[i] + beta[i], i);
            INFO(worst.text());
            CHECK(worst.diff < 1e-4);  // float rounding of x − mean at |x| ≈ 1000, times |gamma| ≤ 2
            std::vector<float> sum = row;
            addInPlace(level, sum.data(), gamma.data(), n);
            for (std::size_t i = 0; i < n; ++i) CHECK(sum[i] == row[i] + gamma[i]);
        }
    }
}

TEST_CASE("the element-wise steps on two threads: every element as the one-thread kernels give it, bit for bit", "[simd]") {
    struct TwoThreads {  // OpenBLAS's thread count, which the slices follow
        int before = productThreadCount();
        TwoThreads() { setProductThreadCount(2); }
        ~TwoThreads() { setProductThreadCount(before); }
    } two;
    // 173 × 1,201 floats (207,773): six of the 32,768-float grains and an odd rest, so both
    // threads take a part and the last part ends off a grain. Each step's kernel run on the whole
    // buffer at once on this thread is what the slices must reproduce.
    const SimdLevel level = activeSimdLevel();
    const auto filled = [](unsigned seed) {
        const std::vector<float> v = randomRow(173 * 1201, 6.0f, seed);
        return MatF(Eigen::Map<const MatF>(v.data(), 173, 1201));
    };
    const MatF x = filled(41);
    const auto n = static_cast<std::size_t>(x.size());
    const auto sameBits = [](const MatF& want, const MatF& got) {
        REQUIRE(want.size() == got.size());
        return std::memcmp(want.data(), got.data(), static_cast<std::size_t>(want.size()) * sizeof(float)) == 0;
    };
    const std::pair<Activation, void (*)(SimdLevel, float*, std::size_t)> kernels[] = {
        {Activation::Silu, siluInPlace}, {Activation::GeluErf, geluErfInPlace}, {Activation::GeluTanh, geluTanhInPlace}};
    for (const auto& [activation, kernel] : kernels) {
        MatF want = x, got = x;
        kernel(level, want.data(), n);
        activate(got, activation);
        CHECK(sameBits(want, got));
    }
    MatF relu = x;
    activate(relu, Activation::Relu);
    CHECK(sameBits(MatF(x.cwiseMax(0.0f)), relu));

    // The gated MLP's middle: act(gate) ⊙ up, with down the identity (and no biases) so that out is it.
    const MatF gateW = MatF::Identity(1201, 1201), upW = 0.5f * MatF::Identity(1201, 1201);
    const LinearRef gate{MatrixRef{gateW.data(), 1201, 1201}, {}}, up{MatrixRef{upW.data(), 1201, 1201}, {}},
        down{MatrixRef{gateW.data(), 1201, 1201}, {}};
    LayerBuffers buffers;
    MatF out;
    gatedMlpInto(x, gate, up, down, Activation::Silu, buffers, out);
    MatF wantGate = x;
    siluInPlace(level, wantGate.data(), n);
    const MatF wantMlp = (wantGate.array() * (0.5f * x.array())).matrix();  // x·I and x·½I are exact
    CHECK(sameBits(wantMlp, out));

    // Norms: each row as layerNormRow and the row-at-a-time RMSNorm give it.
    const std::vector<float> gamma = randomRow(1201, 2.0f, 5), beta = randomRow(1201, 1.0f, 6);
    MatF normed = x, wantNormed = x;
    layerNorm(normed, LayerNormRef{VectorRef{gamma.data(), 1201}, VectorRef{beta.data(), 1201}}, 1e-5f);
    for (Eigen::Index r = 0; r < x.rows(); ++r) layerNormRow(level, wantNormed.row(r).data(), 1201, gamma.data(), beta.data(), 1e-5f);
    CHECK(sameBits(wantNormed, normed));
    MatF rms = x, wantRms = x;
    rmsNorm(rms, VectorRef{gamma.data(), 1201}, 1e-6f, false);
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        auto row = wantRms.row(r).array();
        row *= 1.0f / std::sqrt(row.square().mean() + 1e-6f);
        row *= Eigen::Map<const RowVecF>(gamma.data(), 1201).array();
    }
    CHECK(sameBits(wantRms, rms));
}

TEST_CASE("forEachSlice cuts whole items of at least 32,768 floats: RoPE's heads at 4,096 and at 5 tokens", "[simd]") {
    struct TwoThreads {
        int before = productThreadCount();
        TwoThreads() { setProductThreadCount(2); }
        ~TwoThreads() { setProductThreadCount(before); }
    } two;
    const auto slicesOf = [](std::size_t n, std::size_t itemSize) {
        std::vector<std::pair<std::size_t, std::size_t>> slices;
        std::mutex lock;
        forEachSlice(n, itemSize, [&](std::size_t b, std::size_t e) {
            const std::lock_guard held(lock);
            slices.emplace_back(b, e);
        });
        std::sort(slices.begin(), slices.end());
        return slices;
    };
    using Slices = std::vector<std::pair<std::size_t, std::size_t>>;
    const bool pool = productThreadCount() == 2;  // 1 in a build without OpenBLAS: one slice
    // 32 heads of 4,096 × 64 floats: a head is 8 grains' worth, so the grain is one head.
    CHECK(slicesOf(32, 4096 * 64) == (pool ? Slices{{0, 16}, {16, 32}} : Slices{{0, 32}}));
    // At 5 tokens a head is 320 floats: the grain is 102 heads, more than there are.
    CHECK(slicesOf(32, 5 * 64) == Slices{{0, 32}});
    // 173 rows of 1,201: 27 rows a grain, 6 grains, 3 each; the second part takes the rest.
    CHECK(slicesOf(173, 1201) == (pool ? Slices{{0, 81}, {81, 173}} : Slices{{0, 173}}));
}

// A digest's row (core/trace/head_digest.cpp): Σ w·ln w against std::log in double, over a
// softmax row with exact zeros, tiny (1e-30) and FLT_MIN-sized weights and weights near 1; each
// weight added to its column's double mass exactly (a float is a double: the sum is exact too).
// A NaN, ±∞ or negative weight makes the sum NaN (the caller's sign to take its exact path).
TEST_CASE("a digest row's entropy against std::log in double, its column mass exact", "[simd]") {
    for (SimdLevel level : runnableLevels()) {
        for (std::size_t n : kLengths) {
            INFO("level " << simdLevelName(level) << ", length " << n);
            std::vector<float> row = randomRow(n, 1.0f, 40u + static_cast<unsigned>(n));
            for (std::size_t i = 0; i < n; ++i) row[i] = i % 5 == 1 ? 0.0f : i % 7 == 2 ? 1e-30f : std::abs(row[i]);
            if (n > 3) row[3] = std::numeric_limits<float>::min();
            if (n > 4) row[4] = 0.999f;
            double want = 0;
            for (float w : row)
                if (w > 0) want += double(w) * std::log(double(w));
            std::vector<double> mass(n, 0.25), wantMass(n);
            for (std::size_t i = 0; i < n; ++i) wantMass[i] = 0.25 + double(row[i]);
            const float got = entropyAndMassRow(level, row.data(), n, mass.data());
            // Float lanes: each term within a few ulp of its size, the sum of up to 513 terms.
            CHECK(std::abs(got - want) <= 1e-6 * (1 + std::abs(want)));
            CHECK(mass == wantMass);
            for (const float bad : {std::numeric_limits<float>::quiet_NaN(), kInf, -kInf, -0.5f, -1e-30f}) {
                std::vector<float> spoilt = row;
                spoilt[n / 2] = bad;
                std::vector<double> scratch(n, 0.0);
                const float h = entropyAndMassRow(level, spoilt.data(), n, scratch.data());
                INFO("weight " << bad << " at " << n / 2 << " gives " << h);
                CHECK(std::isnan(h));
            }
        }
    }
}

// bfloat16 words for the floats of `values`, each its float truncated to its upper half, at an odd
// address (a checkpoint's tensors may be), and the floats they stand for.
struct Bf16Words {
    std::vector<std::uint8_t> bytes;
    std::vector<float> values;
    const std::uint8_t* words() const { return bytes.data() + 1; }
};

Bf16Words bf16Words(const std::vector<float>& values) {
    Bf16Words w{std::vector<std::uint8_t>(1 + 2 * values.size()), {}};
    for (std::size_t i = 0; i < values.size(); ++i) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &values[i], 4);
        const auto half = static_cast<std::uint16_t>(bits >> 16);
        std::memcpy(w.bytes.data() + 1 + 2 * i, &half, 2);
        bits = std::uint32_t{half} << 16;
        float value = 0;
        std::memcpy(&value, &bits, 4);
        w.values.push_back(value);
    }
    return w;
}

TEST_CASE("BF16 row dot products against exact products summed in long double, rounded once", "[simd]") {
    for (SimdLevel level : runnableLevels()) {
        for (std::size_t n : kLengths) {
            INFO("level " << simdLevelName(level) << ", length " << n);
            constexpr std::size_t rows = 5;
            const std::vector<float> x = randomRow(n, 3.0f, 60u + static_cast<unsigned>(n));
            const Bf16Words w = bf16Words(randomRow(rows * n, 0.1f, 70u + static_cast<unsigned>(n)));
            std::vector<double> xs(x.begin(), x.end());
            std::vector<float> out(rows, -1.0f);
            bf16RowDotProducts(level, xs.data(), w.words(), rows, n, out.data());
            Worst worst;
            for (std::size_t r = 0; r < rows; ++r) {
                long double sum = 0, size = 0;
                for (std::size_t i = 0; i < n; ++i) {
                    const long double term = static_cast<long double>(x[i]) * w.values[r * n + i];  // exact
                    sum += term;
                    size += std::abs(term);
                }
                // One rounding to float (half an ulp), the double sums' far below it.
                const double want = static_cast<double>(sum);
                CHECK(std::abs(out[r] - want) <= std::abs(want) * 0x1p-24 + static_cast<double>(size) * 1e-14);
                worst.see(out[r], want, r);
            }
            INFO(worst.text());
            CHECK(worst.diff < 1e-5);
        }
    }
}

// The models' folded softmax (1/√d_k and the causal mask inside one pass) against the steps the
// Full record shows: the weights are softmax(maskedScores) computed here in double with std::exp,
// hidden cells exactly 0, and a WeightsOnly run gives bit for bit the same weights.
TEST_CASE("Model weights: the folded softmax agrees with the recorded steps, in both records", "[simd][models]") {
    for (const std::string name : {"bert-tiny", "gpt2-tiny"}) {
        INFO(name);
        const LoadedModel model = fixture_io::loadTiny(name);
        std::vector<int> ids;
        for (int i = 0; i < 17; ++i) ids.push_back(2 + 2 * i);  // 17 tokens: a tail at every width
        RunControl full, lean;
        full.fullDetailMaxTokens = 1000;
        lean.fullDetailMaxTokens = 0;
        lean.detailLayer = -1;
        const auto fullRun = runModel(model, ids, {}, full), leanRun = runModel(model, ids, {}, lean);
        REQUIRE(fullRun.ok());
        REQUIRE(leanRun.ok());
        Worst worst;
        for (std::size_t l = 0; l < fullRun.value().trace.layers.size(); ++l) {
            for (std::size_t h = 0; h < fullRun.value().trace.layers[l].heads.size(); ++h) {
                const HeadTrace& head = fullRun.value().trace.layers[l].heads[h];
                CHECK(head.weights == leanRun.value().trace.layers[l].heads[h].weights);
                REQUIRE(head.maskedScores.rows() == 17);
                for (Eigen::Index i = 0; i < 17; ++i) {
                    const std::vector<float> row(head.maskedScores.row(i).begin(), head.maskedScores.row(i).end());
                    const std::vector<double> want = softmaxReference(row, row.size(), 1.0);
                    for (Eigen::Index j = 0; j < 17; ++j) {
                        worst.see(head.weights(i, j), want[static_cast<std::size_t>(j)], static_cast<std::size_t>(i * 17 + j));
                        if (std::isinf(head.maskedScores(i, j))) CHECK(head.weights(i, j) == 0.0);
                    }
                }
            }
        }
        INFO(worst.text());
        CHECK(worst.diff < 1e-6);
    }
}
