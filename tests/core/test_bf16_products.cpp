// The BF16 products (core/model/bf16_products.hpp): the choice from made-up CPU features (a pure
// function, so every CPU is checked whatever this machine is), and one product against a float64
// product of the same bfloat16 numbers computed here, sharing no code with core.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/model/bf16_products.hpp"
#include "core/model/blas_kernels.hpp"
#include "core/model/blocks.hpp"
#include "matrix_compare.hpp"

using namespace attnscope;

namespace {

CpuFeatures avx512Cpu() {  // Skylake-SP … Ice Lake: AVX-512 without BF16
    CpuFeatures cpu;
    cpu.sse3 = cpu.avx2 = cpu.fma = true;
    cpu.avx512f = cpu.avx512bw = cpu.avx512dq = cpu.avx512vl = true;
    return cpu;
}

CpuFeatures bf16Cpu() {  // Cooper Lake, Sapphire Rapids without AMX exposed (this project's VM), Zen 4
    CpuFeatures cpu = avx512Cpu();
    cpu.avx512bf16 = true;
    return cpu;
}

CpuFeatures amxCpu() {  // Sapphire Rapids and later with AMX tiles enabled by the OS
    CpuFeatures cpu = bf16Cpu();
    cpu.amxbf16 = true;
    return cpu;
}

// bfloat16 by hand: round the float's upper 16 bits to nearest, ties to even.
std::uint16_t bf16Of(float x) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &x, 4);
    return static_cast<std::uint16_t>((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
}

double valueOf(std::uint16_t word) {
    const std::uint32_t bits = static_cast<std::uint32_t>(word) << 16;
    float x = 0;
    std::memcpy(&x, &bits, 4);
    return x;
}

class ProductThreads {  // OpenBLAS's thread count, which every product and slice follows, for a scope
public:
    explicit ProductThreads(int n) : before_(productThreadCount()) { setProductThreadCount(n); }
    ~ProductThreads() { setProductThreadCount(before_); }

private:
    int before_;
};

}  // namespace

TEST_CASE("products choice names: auto, bf16, f32, any case, nothing else", "[kernels][products]") {
    CHECK(parseProductsChoice("auto") == ProductsChoice::Auto);
    CHECK(parseProductsChoice("BF16") == ProductsChoice::Bf16);
    CHECK(parseProductsChoice("f32") == ProductsChoice::F32);
    CHECK_FALSE(parseProductsChoice(""));
    CHECK_FALSE(parseProductsChoice("fp32"));
    CHECK_FALSE(parseProductsChoice("bf16 "));
    CHECK(productsChoiceName(ProductsChoice::Bf16) == "bf16");
    CHECK(kProductsChoiceNames == "auto, bf16, f32");
}

TEST_CASE("auto multiplies in BF16 only with AMX-BF16 and oneDNN, bf16 needs AVX512_BF16, f32 runs anywhere",
          "[kernels][products]") {
    // auto: AVX512_BF16 alone stays f32 (vdpbf16ps at half the FMA ports' flops, bench/README.md).
    CHECK_FALSE(decideProducts(ProductsChoice::Auto, bf16Cpu(), true).bf16);
    CHECK(decideProducts(ProductsChoice::Auto, amxCpu(), true).bf16);
    CHECK_FALSE(decideProducts(ProductsChoice::Auto, amxCpu(), false).bf16);  // no oneDNN in the build
    CHECK(decideProducts(ProductsChoice::Auto, avx512Cpu(), false).runnable);
    CHECK(decideProducts(ProductsChoice::Auto, CpuFeatures{}, true).runnable);
    // bf16, forced: wherever AVX512_BF16 (with F, BW, VL) and oneDNN are; refused elsewhere.
    CHECK(decideProducts(ProductsChoice::Bf16, bf16Cpu(), true).bf16);
    CHECK(decideProducts(ProductsChoice::Bf16, bf16Cpu(), true).runnable);
    CHECK_FALSE(decideProducts(ProductsChoice::Bf16, avx512Cpu(), true).runnable);
    CHECK_FALSE(decideProducts(ProductsChoice::Bf16, bf16Cpu(), false).runnable);
    CpuFeatures bf16WithoutBw = bf16Cpu();
    bf16WithoutBw.avx512bw = false;
    CHECK_FALSE(decideProducts(ProductsChoice::Bf16, bf16WithoutBw, true).runnable);
    // f32: never BF16, always runnable.
    CHECK_FALSE(decideProducts(ProductsChoice::F32, amxCpu(), true).bf16);
    CHECK(decideProducts(ProductsChoice::F32, CpuFeatures{}, false).runnable);
    CHECK(cpuFeatureText(amxCpu()) == "sse3 avx2 fma avx512f avx512bw avx512dq avx512vl avx512bf16 amx-bf16");
}

TEST_CASE("a BF16 product is the float64 product of the bfloat16-rounded inputs, plus the bias, in both layouts",
          "[kernels][products][models]") {
    const ProductsChoiceScope bf16(ProductsChoice::Bf16);
    if (!bf16ProductsActive()) {
        WARN("skipped: this CPU or build cannot multiply in BF16 (avx512bf16 and oneDNN)");
        return;
    }
    constexpr Eigen::Index T = 37, in = 300, out = 45;  // odd sizes: no block of oneDNN's fits exactly
    std::mt19937 random(31);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    MatF X(T, in);
    for (Eigen::Index i = 0; i < X.size(); ++i) X.data()[i] = normal(random);
    std::vector<std::uint16_t> words(static_cast<std::size_t>(out * in));
    for (auto& word : words) word = bf16Of(0.05f * normal(random));
    std::vector<float> bias(static_cast<std::size_t>(out));
    for (float& b : bias) b = normal(random);
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(words.data());
    for (const bool transposed : {true, false}) {  // nn.Linear [out, in] and Conv1D [in, out]
        INFO((transposed ? "nn.Linear layout" : "Conv1D layout"));
        Mat want(T, out);  // Σ_j bf16(X[t, j]) · W(j, o), in double, plus the bias
        for (Eigen::Index t = 0; t < T; ++t)
            for (Eigen::Index o = 0; o < out; ++o) {
                double sum = bias[static_cast<std::size_t>(o)];
                for (Eigen::Index j = 0; j < in; ++j)
                    sum += valueOf(bf16Of(X(t, j))) * valueOf(words[static_cast<std::size_t>(transposed ? o * in + j : j * out + o)]);
                want(t, o) = sum;
            }
        const MatrixRef W{nullptr, transposed ? out : in, transposed ? in : out, bytes, DType::BF16};
        MatF Y(T, out);
        Y.rowwise() = Eigen::Map<const RowVecF>(bias.data(), out);  // the bias first, as linearInto does
        REQUIRE(bf16ProductInto(X, W, transposed, Y));
        // Only float32's accumulation separates them: 300 terms of size ~0.05 → ~1e-5.
        REQUIRE_MATRIX_NEAR(want, toDouble(Y), 1e-4);
    }
    const ProductsChoiceScope f32(ProductsChoice::F32);
    MatF Y = MatF::Zero(T, out);
    CHECK_FALSE(bf16ProductInto(X, MatrixRef{nullptr, out, in, bytes, DType::BF16}, true, Y));  // the caller widens
}

TEST_CASE("f32 path: a BF16 weight widened on two threads gives X·Wᵀ + b, into a used buffer, with and without a bias",
          "[kernels][products][models]") {
    const ProductsChoiceScope f32(ProductsChoice::F32);
    const ProductThreads two(2);
    // 300 × 600 words: 180,000, past two of the widening's grains (32,768 words each, forEachSlice), so each
    // thread widens a part. 200 tokens go to OpenBLAS, which without a bias writes Y itself
    // (beta 0); 5 tokens to our own kernels, which add to zeros.
    constexpr Eigen::Index out = 300, in = 600;
    std::mt19937 random(7);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<std::uint16_t> words(static_cast<std::size_t>(out * in));
    for (auto& word : words) word = bf16Of(0.05f * normal(random));
    std::vector<float> bias(static_cast<std::size_t>(out));
    for (float& b : bias) b = normal(random);
    const MatrixRef W{nullptr, out, in, reinterpret_cast<const std::uint8_t*>(words.data()), DType::BF16};
    for (const Eigen::Index T : {Eigen::Index{200}, Eigen::Index{5}})
        for (const bool withBias : {false, true}) {
            INFO(T << " tokens, " << (withBias ? "with" : "without") << " a bias");
            MatF X(T, in);
            for (Eigen::Index i = 0; i < X.size(); ++i) X.data()[i] = normal(random);
            Mat want(T, out);  // Σ_j X[t, j] · W(o, j) in double, W's words read by hand
            for (Eigen::Index t = 0; t < T; ++t)
                for (Eigen::Index o = 0; o < out; ++o) {
                    double sum = withBias ? bias[static_cast<std::size_t>(o)] : 0.0;
                    for (Eigen::Index j = 0; j < in; ++j) sum += double(X(t, j)) * valueOf(words[static_cast<std::size_t>(o * in + j)]);
                    want(t, o) = sum;
                }
            MatF Y = MatF::Constant(T, out, std::numeric_limits<float>::quiet_NaN());  // a buffer from an earlier layer
            linearInto(X, LinearRef{W, withBias ? VectorRef{bias.data(), out} : VectorRef{}}, Y);
            REQUIRE_MATRIX_NEAR(want, toDouble(Y), 1e-4);  // float32 sums of 600 terms of ~0.05
        }
}

TEST_CASE("the load check on two threads reports the first bad word of the whole tensor", "[kernels][products]") {
    const ProductThreads two(2);
    // 1,000,000 words: 3 whole slices of 262,144 → parts [0, 393,216) and [393,216, 1,000,000).
    std::vector<std::uint16_t> words(1'000'000, 0x3F80);  // 1.0
    const auto first = [&] { return firstNonFinite16(reinterpret_cast<const std::uint8_t*>(words.data()), 1'000'000, DType::BF16); };
    CHECK_FALSE(first());
    words[900'000] = 0x7F80;  // +inf, in the second part only
    CHECK(first() == Eigen::Index{900'000});
    words[393'216] = 0xFFC0;  // NaN, the second part's first word
    CHECK(first() == Eigen::Index{393'216});
    words[300'000] = 0xFF80;  // −inf in the first part: it wins though the second has two
    CHECK(first() == Eigen::Index{300'000});
    words[999'999] = 0x7F80;
    words[0] = 0x7FC1;  // a NaN with payload, the very first word
    CHECK(first() == Eigen::Index{0});
}
