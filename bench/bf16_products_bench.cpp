// Benchmark: one Qwen2.5-0.5B layer's weight products (q, k, v, o, gate, up, down: the BF16 shapes
// of the checkpoint) through both products paths of core/model/bf16_products.hpp, paired: the two
// paths alternate which runs first each round. Run by hand (bench/README.md "BF16 products"),
// never as a timed unit test.
//
//   attnscope_bf16_products_bench [--tokens T] [--threads N] [--rounds R]
//
// Prints each round's milliseconds and GFLOP/s per path, the load average before each round, and
// the peaks measured here on N threads: vdpbf16ps (BF16 pairs into float32) and vfmadd231ps
// (float32 FMA), both 512-bit, from tight loops of 24 independent accumulators.
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/model/bf16_products.hpp"
#include "core/model/blocks.hpp"

using namespace attnscope;

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kAccumulators = 24;
constexpr long kPeakIterations = 50'000'000;

double seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

__attribute__((target("avx512f,avx512bf16"))) double dotBf16Loop() {
    __m512 acc[kAccumulators];
    for (auto& a : acc) a = _mm512_setzero_ps();
    __m512bh x = (__m512bh)_mm512_set1_epi16(0x3F80), y = (__m512bh)_mm512_set1_epi16(0x3C00);
    for (long n = 0; n < kPeakIterations; ++n) {
#pragma GCC unroll 24
        for (auto& a : acc) a = _mm512_dpbf16_ps(a, x, y);
        asm volatile("" : "+v"(x));
    }
    float sum = 0;
    for (auto& a : acc) sum += _mm512_reduce_add_ps(a);
    return sum;
}

__attribute__((target("avx512f,fma"))) double fmaLoop() {
    __m512 acc[kAccumulators];
    for (auto& a : acc) a = _mm512_setzero_ps();
    __m512 x = _mm512_set1_ps(1.0001f), y = _mm512_set1_ps(0.9999f);
    for (long n = 0; n < kPeakIterations; ++n) {
#pragma GCC unroll 24
        for (auto& a : acc) a = _mm512_fmadd_ps(x, y, a);
        asm volatile("" : "+v"(x));
    }
    float sum = 0;
    for (auto& a : acc) sum += _mm512_reduce_add_ps(a);
    return sum;
}

// GFLOP/s of `loop` run on `threads` threads at once; flopsPerInstruction: 64 for vdpbf16ps
// (32 pairs, a multiply and an add each), 32 for a 16-wide FMA.
double peak(double (*loop)(), int threads, double flopsPerInstruction) {
    std::vector<std::thread> running;
    const auto start = Clock::now();
    for (int t = 0; t < threads; ++t) running.emplace_back([loop] { volatile double sink = loop(); (void)sink; });
    for (auto& t : running) t.join();
    return threads * double(kPeakIterations) * kAccumulators * flopsPerInstruction / seconds(start) * 1e-9;
}

struct Weight {
    std::vector<std::uint16_t> words;
    LinearRef layer;
};

Weight randomBf16(Eigen::Index out, Eigen::Index in, std::mt19937& random) {
    std::normal_distribution<float> normal(0.0f, 0.02f);
    Weight w;
    w.words.resize(static_cast<std::size_t>(out * in));
    for (auto& word : w.words) {
        const float x = normal(random);
        std::uint32_t bits = 0;
        std::memcpy(&bits, &x, 4);
        word = static_cast<std::uint16_t>(bits >> 16);
    }
    w.layer.weight = MatrixRef{nullptr, out, in, reinterpret_cast<const std::uint8_t*>(w.words.data()), DType::BF16};
    return w;
}

std::string loadAverage() {
    std::ifstream in("/proc/loadavg");
    std::string one, five, fifteen;
    in >> one >> five >> fifteen;
    return one + " " + five + " " + fifteen;
}

int intOption(int argc, char** argv, const char* name, int fallback) {
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], name) == 0) return std::atoi(argv[i + 1]);
    return fallback;
}

}  // namespace

int main(int argc, char** argv) {
    const int tokens = intOption(argc, argv, "--tokens", 512), rounds = intOption(argc, argv, "--rounds", 3);
    const int threads = intOption(argc, argv, "--threads", productThreadCount());
    setProductThreadCount(threads);
    constexpr Eigen::Index d = 896, kv = 128, ff = 4864;  // Qwen2.5-0.5B: 14 heads, 2 key/value heads of 64
    std::mt19937 random(31);
    std::vector<Weight> weights;
    for (const auto& [out, in] : std::vector<std::pair<Eigen::Index, Eigen::Index>>{
             {d, d}, {kv, d}, {kv, d}, {d, d}, {ff, d}, {ff, d}, {d, ff}})
        weights.push_back(randomBf16(out, in, random));
    double flops = 0;
    for (const Weight& w : weights) flops += 2.0 * tokens * double(w.layer.weight.rows * w.layer.weight.cols);
    MatF X = MatF::Random(tokens, d), H = MatF::Random(tokens, ff), Y;
    const auto layerProducts = [&] {
        for (const Weight& w : weights) linearInto(w.layer.weight.cols == d ? X : H, w.layer, Y);
    };
    std::printf("Qwen2.5-0.5B layer products, T = %d, %d thread(s), %.1f GFLOP a layer\n", tokens, threads, flops * 1e-9);
    if (!decideProducts(ProductsChoice::Bf16, detectCpuFeatures(), haveBf16Library()).runnable) {
        std::printf("this CPU or build cannot multiply in BF16 (avx512bf16 and oneDNN)\n");
        return 1;
    }
    std::printf("BF16 library: %s\n", bf16LibraryText().c_str());
    for (const ProductsChoice path : {ProductsChoice::F32, ProductsChoice::Bf16}) {  // warm-up: primitives, pages
        const ProductsChoiceScope chosen(path);
        layerProducts();
    }
    for (int round = 1; round <= rounds; ++round) {
        std::printf("round %d, load average %s:", round, loadAverage().c_str());
        const bool f32First = round % 2 == 1;
        for (const ProductsChoice path : {f32First ? ProductsChoice::F32 : ProductsChoice::Bf16,
                                          f32First ? ProductsChoice::Bf16 : ProductsChoice::F32}) {
            const ProductsChoiceScope chosen(path);
            const auto start = Clock::now();
            layerProducts();
            const double s = seconds(start);
            std::printf("  %s %.1f ms %.1f GFLOP/s", productsChoiceName(path).data(), s * 1e3, flops / s * 1e-9);
        }
        std::printf("\n");
    }
    std::printf("peaks on %d thread(s), load average %s: vdpbf16ps %.1f GFLOP/s, vfmadd231ps %.1f GFLOP/s\n", threads,
                loadAverage().c_str(), peak(dotBf16Loop, threads, 64), peak(fmaLoop, threads, 32));
    return 0;
}
