// Benchmark: the real-model forward pass (core/model) on bert-base or gpt2 (124M) shapes. Run by
// hand or through bench/run_forward_bench.sh, never as a timed unit test.
//
//   attnscope_forward_bench MODEL_DIR [--threads N] [--tokens T] [--runs R] [--warmup W]
//                           [--mode app|full|weights|math|all] [--dump FILE]
//   attnscope_forward_bench --peak [--threads N]
//   attnscope_forward_bench --attention [--threads N] [--tokens T] [--runs R] [--only TEXT]
//
// MODEL_DIR: a BERT or GPT-2 folder (config.json, model.safetensors, tokenizer files), e.g. from
// bench/make_bert_base.py or bench/make_gpt2_small.py; or a gated decoder's (Qwen, Llama, … from
// bench/make_decoder_checkpoint.py), which runs the modes app and weights only: app is then the
// window's runSentence on T letters a, b, c, … (bench/run_decoder_bench.sh's forward pass alone).
// Input: T token ids with a fixed pseudo-random middle ([CLS]=2 … [SEP]=3 for BERT; the same
// formula as bench/torch_forward.py, so both run the same ids). Modes, each timed R times after W
// warm-ups:
//   app      exactly what the window does (app/model_worker.cpp): runModel with
//            fullDetailMaxTokens = 0 (every layer keeps its attention weights) and detailLayer
//            the layer the worked example shows (the first) Full, then takeDetailTrace moves it out
//   full     runModel with its default at T ≤ 128: every layer LayerDetail::Full (every
//            intermediate and the weight slices as double; the whole-run JSON export)
//   weights  runModel with fullDetailMaxTokens = 0 alone (every layer WeightsOnly)
//   math     the same float32 forward from the same building blocks with no Trace filling
//            (multiHeadAttention WeightsOnly into a scratch layer, which keeps the float T×T
//            weights the kernel wrote: no copy), with a per-phase split
// Output: one "time" line per timed run (mode, milliseconds) for the driver script, then medians,
// GFLOP/s, and the peak resident set size (getrusage) next to the safetensors file size.
// --dump writes the final hidden state (T×d float32, little-endian) for comparison with torch.
// --peak measures the machine's single-precision FMA peak on N threads with the widest FMAs the
// CPU has (AVX-512F 16-wide, and AVX2+FMA 8-wide for comparison; chosen at run time, so the
// binary still runs on any x86-64).
// --attention times one causal layer's attention (multiHeadAttentionInto on random Q, K, V) in
// the shapes of Qwen2.5-0.5B (14 heads, 2 key/value heads) and Llama-3.2-1B (32, 8), d_k = 64,
// as a long run digests it (Summary) and as the shown layer keeps it (WeightsOnly), and prints
// the products' rate (T(T+1)/2 visible scores, 4·d_k flops each) against the FMA peak measured
// in the same run (issue 31's "≥ 70 % of the peak"); --only runs the cases whose line contains
// TEXT ("Llama", "digested"), e.g. to profile one.
//
// Threads: OpenBLAS runs the matrix products on N threads (openblas_set_num_threads); the rest
// of the engine is single-threaded.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "core/model/attention.hpp"
#include "core/model/bert.hpp"
#include "core/model/blas_kernels.hpp"
#include "core/model/gpt2.hpp"
#include "core/model/long_run.hpp"
#include "core/model/transformer.hpp"
#include "core/source/model_session.hpp"

#ifdef ATTNSCOPE_HAVE_OPENBLAS
#include <cblas.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

using namespace attnscope;

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double peakRssMb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

// The benchmark input; bench/torch_forward.py computes the same list.
std::vector<int> benchIds(int T, int vocab, bool bert) {
    std::vector<int> ids(static_cast<std::size_t>(T));
    for (int i = 0; i < T; ++i) ids[static_cast<std::size_t>(i)] = 5 + static_cast<int>((1000003LL * i + 12345) % (vocab - 5));
    if (!bert) return ids;
    ids.front() = 2;  // [CLS]
    if (T > 1) ids.back() = 3;  // [SEP]
    return ids;
}

// FLOPs of one forward through the layers (multiply-add = 2), the products only; the same for a
// BERT encoder and a GPT-2 decoder (the causal mask is not subtracted: both sides compute the
// full T×T scores).
double encoderFlops(const TransformerConfig& c, double T) {
    const double d = c.width, ff = c.feedForward;
    const double perLayer = 2 * T * d * 3 * d      // Q, K, V projections
                            + 2 * T * T * d * 2    // scores Q·Kᵀ and weights·V, all heads
                            + 2 * T * d * d        // output projection
                            + 2 * T * d * ff * 2;  // feed-forward in and out
    return perLayer * c.layers;
}

// The same for the gated decoders (Llama, Qwen, Mistral, Gemma): grouped K and V, a gated
// feed-forward (gate, up, down), the causal half of the scores (the visible T(T+1)/2, as computed).
double gatedDecoderFlops(const TransformerConfig& c, double T) {
    const double d = c.width, ff = c.feedForward, q = double(c.heads) * c.headWidth(),
                 kv = double(c.keyValueHeads()) * c.headWidth();
    const double perLayer = 2 * T * d * (q + 2 * kv)              // Q, K, V projections
                            + 2 * (T * (T + 1) / 2) * q * 2       // visible scores and weights·V, all heads
                            + 2 * T * q * d                       // output projection
                            + 2 * T * d * ff * 3;                 // gate, up, down
    return perLayer * c.layers;
}

// T letters a, b, c, …: the sentence bench/torch_decoder_forward.py feeds as byte ids, which the
// decoder checkpoints' byte-level tokenizer (bench/make_decoder_checkpoint.py) makes T tokens.
std::string letters(int T) {
    std::string s;
    for (int i = 0; i < T; ++i) s += static_cast<char>('a' + i % 26);
    return s;
}

void setThreads(int n) {
#ifdef ATTNSCOPE_HAVE_OPENBLAS
    openblas_set_num_threads(n);
#else
    (void)n;
#endif
}

// ---------------------------------------------------------------- forward without a Trace

struct PhaseTimes {
    std::map<std::string, double> ms;
    void add(const std::string& phase, Clock::time_point start) { ms[phase] += msSince(start); }
};

// The BERT encoder from the public building blocks, as bert.cpp's encoderAttention and encoderFeedForward minus the Trace.
MatF forwardMath(const LoadedModel& model, const std::vector<int>& ids, PhaseTimes* phases) {
    const TransformerConfig& c = model.config;
    const EncoderWeights& w = *model.weightsAs<EncoderWeights>();
    auto t = Clock::now();
    MatF tokens = gatherRows(w.words, ids);
    if (w.tokenTypes.present()) tokens.rowwise() += w.tokenTypes.rowsAsFloat(0, 1).row(0);
    std::vector<int> positionIds(ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) positionIds[i] = c.positionOffset + static_cast<int>(i);
    MatF X = tokens + gatherRows(w.positions, positionIds);
    layerNorm(X, w.embeddingNorm, c.layerNormEps);
    if (phases) phases->add("embeddings", t);
    for (const EncoderLayerWeights& l : w.layers) {
        t = Clock::now();
        const MatF Q = linear(X, l.query), K = linear(X, l.key), V = linear(X, l.value);
        if (phases) phases->add("qkv projections", t);
        t = Clock::now();
        LayerTrace scratch;
        const MatF context = multiHeadAttention(Q, K, V, c.heads, false, LayerDetail::WeightsOnly, scratch);
        if (phases) phases->add("attention (QK^T, softmax, AV)", t);
        t = Clock::now();
        MatF attended = linear(context, l.attentionOutput);
        if (phases) phases->add("output projection", t);
        t = Clock::now();
        attended += X;
        layerNorm(attended, l.attentionNorm, c.layerNormEps);
        if (phases) phases->add("residual + layernorm", t);
        t = Clock::now();
        MatF inner = linear(attended, l.intermediate);
        if (phases) phases->add("ffn in", t);
        t = Clock::now();
        activate(inner, c.activation);
        if (phases) phases->add("gelu", t);
        t = Clock::now();
        MatF out = linear(inner, l.output);
        if (phases) phases->add("ffn out", t);
        t = Clock::now();
        out += attended;
        layerNorm(out, l.outputNorm, c.layerNormEps);
        if (phases) phases->add("residual + layernorm", t);
        X = std::move(out);
    }
    return X;
}

// The GPT-2 decoder from the public building blocks, as gpt2.cpp's gpt2Attention and gpt2FeedForward minus the Trace.
MatF forwardMathGpt2(const LoadedModel& model, const std::vector<int>& ids, PhaseTimes* phases) {
    const TransformerConfig& c = model.config;
    const Gpt2Weights& w = *model.weightsAs<Gpt2Weights>();
    const Eigen::Index d = c.width;
    auto t = Clock::now();
    std::vector<int> positionIds(ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) positionIds[i] = static_cast<int>(i);
    MatF X = gatherRows(w.words, ids) + gatherRows(w.positions, positionIds);
    if (phases) phases->add("embeddings", t);
    for (const Gpt2BlockWeights& b : w.blocks) {
        t = Clock::now();
        MatF normed = X;
        layerNorm(normed, b.norm1, c.layerNormEps);
        if (phases) phases->add("residual + layernorm", t);
        t = Clock::now();
        const MatF qkv = conv1d(normed, b.attention);
        const MatF Q = qkv.leftCols(d), K = qkv.middleCols(d, d), V = qkv.rightCols(d);
        if (phases) phases->add("qkv projections", t);
        t = Clock::now();
        LayerTrace scratch;
        const MatF context = multiHeadAttention(Q, K, V, c.heads, true, LayerDetail::WeightsOnly, scratch);
        if (phases) phases->add("attention (QK^T, softmax, AV)", t);
        t = Clock::now();
        const MatF attended = conv1d(context, b.projection);
        if (phases) phases->add("output projection", t);
        t = Clock::now();
        MatF residual = X + attended;
        normed = residual;
        layerNorm(normed, b.norm2, c.layerNormEps);
        if (phases) phases->add("residual + layernorm", t);
        t = Clock::now();
        MatF inner = conv1d(normed, b.feedForward);
        if (phases) phases->add("ffn in", t);
        t = Clock::now();
        activate(inner, c.activation);
        if (phases) phases->add("gelu", t);
        t = Clock::now();
        residual += conv1d(inner, b.feedOutput);
        if (phases) phases->add("ffn out", t);
        X = std::move(residual);
    }
    t = Clock::now();
    layerNorm(X, w.finalNorm, c.layerNormEps);
    if (phases) phases->add("residual + layernorm", t);
    return X;
}

MatF forwardMathAny(const LoadedModel& model, const std::vector<int>& ids, PhaseTimes* phases) {
    return model.weightsAs<Gpt2Weights>() ? forwardMathGpt2(model, ids, phases) : forwardMath(model, ids, phases);
}

// ---------------------------------------------------------------- peak FLOP/s

// 10 independent accumulator chains, in named variables so they stay in registers (an array
// inside the loop is kept in memory at -O2): enough to fill two FMA pipes of latency 4-5.
#define ATTNSCOPE_TEN(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9)
#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) double fmaLoopAvx2(long iterations) {
#define DECLARE(i) __m256 a##i = _mm256_set1_ps(1.0f + 0.001f * i);
#define STEP(i) a##i = _mm256_fmadd_ps(a##i, m, b);
#define SUM(i) s = _mm256_add_ps(s, a##i);
    ATTNSCOPE_TEN(DECLARE)
    const __m256 m = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
    for (long n = 0; n < iterations; ++n) {
        ATTNSCOPE_TEN(STEP)
    }
    __m256 s = _mm256_setzero_ps();
    ATTNSCOPE_TEN(SUM)
    float sink[8];
    _mm256_storeu_ps(sink, s);
    return static_cast<double>(sink[0]) * 1e-30 + static_cast<double>(iterations) * 10 * 8 * 2;  // flops
#undef DECLARE
#undef STEP
#undef SUM
}
// The AVX2 loop again with 16-wide registers: each needs its own target attribute and intrinsics,
// which a template cannot carry, so the two stay written out (duplicates pairs them).
__attribute__((target("avx512f"))) double fmaLoopAvx512(long iterations) {
#define DECLARE(i) __m512 a##i = _mm512_set1_ps(1.0f + 0.001f * i);
#define STEP(i) a##i = _mm512_fmadd_ps(a##i, m, b);
#define SUM(i) s = _mm512_add_ps(s, a##i);
    ATTNSCOPE_TEN(DECLARE)
    const __m512 m = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
    for (long n = 0; n < iterations; ++n) {
        ATTNSCOPE_TEN(STEP)
    }
    __m512 s = _mm512_setzero_ps();
    ATTNSCOPE_TEN(SUM)
    float sink[16];
    _mm512_storeu_ps(sink, s);
    return static_cast<double>(sink[0]) * 1e-30 + static_cast<double>(iterations) * 10 * 16 * 2;
#undef DECLARE
#undef STEP
#undef SUM
}
#endif
// Baseline x86-64: SSE2 has no FMA; 10 chains of 4-wide multiply and add.
double mulAddLoopSse(long iterations) {
    using V = float __attribute__((vector_size(16)));
#define DECLARE(i) V a##i = V{} + (1.0f + 0.001f * i);
#define STEP(i) a##i = a##i * m + b;
#define SUM(i) s += a##i;
    ATTNSCOPE_TEN(DECLARE)
    const V m = V{} + 0.999999f, b = V{} + 1e-7f;
    for (long n = 0; n < iterations; ++n) {
        ATTNSCOPE_TEN(STEP)
    }
    V s = V{};
    ATTNSCOPE_TEN(SUM)
    return static_cast<double>(s[0]) * 1e-30 + static_cast<double>(iterations) * 10 * 4 * 2;
#undef DECLARE
#undef STEP
#undef SUM
}

enum class PeakIsa { Sse2, Avx2, Avx512 };

double peakLoop(PeakIsa isa, long iterations) {
#if defined(__x86_64__)
    if (isa == PeakIsa::Avx512) return fmaLoopAvx512(iterations / 2);  // twice the flops per step
    if (isa == PeakIsa::Avx2) return fmaLoopAvx2(iterations);
#endif
    (void)isa;
    return mulAddLoopSse(iterations);
}

double measurePeak(PeakIsa isa, const char* name, int threads) {
    const long iterations = 200'000'000;
    std::vector<double> gflops;
    for (int rep = 0; rep < 5; ++rep) {
        std::vector<double> flops(static_cast<std::size_t>(threads));
        const auto start = Clock::now();
        std::vector<std::thread> pool;
        for (int i = 0; i < threads; ++i)
            pool.emplace_back([&, i] { flops[static_cast<std::size_t>(i)] = peakLoop(isa, iterations); });
        for (auto& th : pool) th.join();
        const double seconds = msSince(start) / 1000.0;
        double total = 0;
        for (double f : flops) total += std::floor(f);  // the sink term is < 1
        gflops.push_back(total / seconds / 1e9);
    }
    std::printf("peak %s, %d thread(s): median %.1f GFLOP/s, best %.1f GFLOP/s (5 runs)\n", name, threads,
                median(gflops), *std::max_element(gflops.begin(), gflops.end()));
    return median(gflops);
}

// Every FMA width the CPU has, widest last (the script reads the last line as the peak).
int runPeak(int threads) {
    const CpuFeatures cpu = detectCpuFeatures();
    if (!canRunAvx2Kernels(cpu)) measurePeak(PeakIsa::Sse2, "SSE2 mul+add 4-wide", threads);
    if (canRunAvx2Kernels(cpu)) measurePeak(PeakIsa::Avx2, "AVX2 FMA 8-wide", threads);
    if (cpu.avx512f) measurePeak(PeakIsa::Avx512, "AVX-512 FMA 16-wide", threads);
    return 0;
}

// ---------------------------------------------------------------- attention kernels

struct AttentionCase {
    const char* name;
    int heads, kvHeads;
};

MatF randomRows(Eigen::Index T, Eigen::Index cols, unsigned seed) {
    std::srand(seed);
    return MatF::Random(T, cols) * 2.0f;  // scores of order 1–10: a softmax neither flat nor one-hot
}

double timeAttention(const AttentionCase& c, Eigen::Index T, LayerDetail detail, int runs) {
    constexpr Eigen::Index dk = 64;
    const MatF Q = randomRows(T, c.heads * dk, 1), K = randomRows(T, c.kvHeads * dk, 2), V = randomRows(T, c.kvHeads * dk, 3);
    const AttentionShape shape{c.heads, c.kvHeads, true, 0, 0};
    LayerTrace layer;
    MatF context;
    std::vector<HeadDigest> digests;
    std::vector<double> ms;
    for (int run = 0; run <= runs; ++run) {  // run 0 warms the scratch
        const auto start = Clock::now();
        multiHeadAttentionInto(Q, K, V, shape, detail, layer, {}, context, &digests);
        if (run > 0) ms.push_back(msSince(start));
    }
    return median(ms);
}

int runAttention(int threads, int T, int runs, const std::string& only) {
    setThreads(threads);
    const CpuFeatures cpu = detectCpuFeatures();
    const double peak = cpu.avx512f ? measurePeak(PeakIsa::Avx512, "AVX-512 FMA 16-wide", threads)
                                    : measurePeak(PeakIsa::Avx2, "AVX2 FMA 8-wide", threads);
    const AttentionCase cases[] = {{"Qwen2.5-0.5B", 14, 2}, {"Llama-3.2-1B", 32, 8}};
    const std::pair<LayerDetail, const char*> details[] = {{LayerDetail::Summary, "digested (long run)"},
                                                           {LayerDetail::WeightsOnly, "weights kept (shown layer)"}};
    for (const AttentionCase& c : cases)
        for (const auto& [detail, what] : details) {
            if (!only.empty() && (std::string(c.name) + " " + what).find(only) == std::string::npos) continue;
            const double ms = timeAttention(c, T, detail, runs);
            const double flops = c.heads * (double(T) * (T + 1) / 2) * 64 * 4;  // Q·Kᵀ and A·V, visible part
            const double gflops = flops / (ms / 1000) / 1e9;
            std::printf("attention %s, %d tokens, %s, %d thread(s): median %.1f ms a layer, %.1f GFLOP/s, %.0f %% of the peak\n",
                        c.name, T, what, threads, ms, gflops, 100 * gflops / peak);
        }
    return 0;
}

int usage() {
    std::fprintf(stderr,
                 "usage: attnscope_forward_bench MODEL_DIR [--threads N] [--tokens T] [--runs R] [--warmup W]\n"
                 "                               [--mode app|full|weights|math|all] [--dump FILE]\n"
                 "       attnscope_forward_bench --peak [--threads N]\n"
                 "       attnscope_forward_bench --attention [--threads N] [--tokens T] [--runs R] [--only TEXT]\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::string dir, mode = "all", dump, only;
    int threads = 1, T = 128, runs = 5, warmup = 1;
    bool peak = false, attention = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
        const char* v = nullptr;
        if (a == "--peak") peak = true;
        else if (a == "--attention") attention = true;
        else if (a == "--only" && (v = next())) only = v;
        else if (a == "--threads" && (v = next())) threads = std::atoi(v);
        else if (a == "--tokens" && (v = next())) T = std::atoi(v);
        else if (a == "--runs" && (v = next())) runs = std::atoi(v);
        else if (a == "--warmup" && (v = next())) warmup = std::atoi(v);
        else if (a == "--mode" && (v = next())) mode = v;
        else if (a == "--dump" && (v = next())) dump = v;
        else if (!a.empty() && a[0] != '-' && dir.empty()) dir = a;
        else return usage();
    }
    if (threads < 1 || runs < 1 || warmup < 0 || T < 1) return usage();
    if (peak) return runPeak(threads);
    if (attention) return runAttention(threads, T, runs, only);
    if (dir.empty()) return usage();
    setThreads(threads);

    auto start = Clock::now();
    auto openedOrError = openModel(dir);  // weights and tokenizer, as the window opens a folder
    if (!openedOrError) {
        std::fprintf(stderr, "attnscope_forward_bench: %s\n", openedOrError.error().text().c_str());
        return 1;
    }
    const OpenedModel opened = std::move(openedOrError).value();
    const LoadedModel& model = opened.model;
    const double loadMs = msSince(start);
    // forwardMathAny builds BERT and GPT-2 alone; the other families run as the window runs them.
    const bool blocksKnown = model.weightsAs<EncoderWeights>() || model.weightsAs<Gpt2Weights>();
    if (!blocksKnown && mode != "app" && mode != "weights" && mode != "all") {
        std::fprintf(stderr, "attnscope_forward_bench: --mode %s needs a BERT-family or GPT-2 model; %s is %s\n",
                     mode.c_str(), dir.c_str(), familyName(model.config.family).c_str());
        return 1;
    }
    const TransformerConfig& c = model.config;
    T = std::min(T, c.maxTokens());
    const std::vector<int> ids = benchIds(T, c.vocabSize, model.weightsAs<EncoderWeights>() != nullptr);
    const double rssAfterLoad = peakRssMb();
    std::printf("model %s (%s): L=%d d=%d H=%d d_ff=%d V=%d; T=%d; %d thread(s); load (map + bind + tokenizer) %.1f ms\n",
                dir.c_str(), familyName(c.family).c_str(), c.layers, c.width, c.heads, c.feedForward, c.vocabSize, T,
                threads, loadMs);
#ifdef ATTNSCOPE_HAVE_OPENBLAS
    const char* envThreads = std::getenv("OPENBLAS_NUM_THREADS");
    const char* envCore = std::getenv("OPENBLAS_CORETYPE");
    const char* envSpin = std::getenv("OPENBLAS_THREAD_TIMEOUT");  // set by the start-up hook unless by the user
    std::printf("threads: attnscope openblas_get_num_threads()=%d (OPENBLAS_NUM_THREADS=%s, idle spin "
                "OPENBLAS_THREAD_TIMEOUT=%s); OpenBLAS %s; kernels: %s (OPENBLAS_CORETYPE=%s)\n",
                openblas_get_num_threads(), envThreads ? envThreads : "unset", envSpin ? envSpin : "unset",
                openblas_get_config(), openblas_get_corename(), envCore ? envCore : "unset");
#else
    std::printf("products: Eigen (no OpenBLAS in this build)\n");
#endif

    const bool all = mode == "all";
    std::map<std::string, std::vector<double>> times;
    MatF lastMath, lastFull;
    int tokensRun = T;
    const auto timeMode = [&](const std::string& name, auto&& body) {
        for (int i = 0; i < warmup + runs; ++i) {
            const auto t0 = Clock::now();
            body();
            const double ms = msSince(t0);
            if (i >= warmup) {
                times[name].push_back(ms);
                std::printf("time %s %.3f\n", name.c_str(), ms);
            }
        }
    };
    if (blocksKnown && (all || mode == "math"))
        timeMode("math", [&] { lastMath = forwardMathAny(model, ids, nullptr); });
    if (all || mode == "app")
        timeMode("app", [&] {
            RunControl control;
            control.fullDetailMaxTokens = 0;
            control.detailLayer = 0;  // as app/model_worker.cpp: the shown layer Full up to 128 tokens,
            control.detailLayerMaxTokens = kShownLayerInRunUpTo;  // then moved out; beyond, rebuilt after the run is drawn
            // The gated decoders: the window's own call (runSentence: tokenize, run, name any
            // overflow) on the letters torch_decoder_forward.py feeds, so both forward passes compare alone.
            auto run = blocksKnown ? runModel(model, ids, {}, control) : runSentence(opened, letters(T), control);
            if (!run) std::abort();
            tokensRun = run.value().trace.tokenCount();  // T with the bench's byte-level tokenizer
            if (run.value().detail.at(0) == LayerDetail::Full && !takeDetailTrace(opened, run.value(), 0)) std::abort();
        });
    if (blocksKnown && (all || mode == "full"))
        timeMode("full", [&] {
            auto run = runModel(model, ids, {});
            if (!run) std::abort();
            lastFull = run.value().hiddenStates.back();
        });
    if (all || mode == "weights")
        timeMode("weights", [&] {
            RunControl control;
            control.fullDetailMaxTokens = 0;
            auto run = runModel(model, ids, {}, control);
            if (!run) std::abort();
        });
    if (times.empty()) return usage();
    if (tokensRun != T) std::printf("the letters made %d tokens with this model's tokenizer\n", tokensRun);

    const double flops = blocksKnown ? encoderFlops(c, T) : gatedDecoderFlops(c, T);
    std::printf("\nlayer FLOPs (products only): %.2f GFLOP\n", flops / 1e9);
    for (const auto& [name, ms] : times)
        std::printf("%-8s median %8.1f ms over %zu runs  (min %.1f)  %6.1f GFLOP/s\n", name.c_str(), median(ms),
                    ms.size(), *std::min_element(ms.begin(), ms.end()), flops / (median(ms) / 1000) / 1e9);
    if (times.count("math") && times.count("full")) {
        const double m = median(times["math"]), f = median(times["full"]);
        std::printf("split of 'full': forward math %.1f ms (%.0f%%), Trace filling %.1f ms (%.0f%%)\n", m,
                    100 * m / f, f - m, 100 * (f - m) / f);
    }
    if (lastMath.size() && lastFull.size())
        std::printf("math vs full hidden state: max |diff| %.3g (same building blocks: expect 0)\n",
                    (lastMath - lastFull).cwiseAbs().maxCoeff());
    if (blocksKnown && (all || mode == "math")) {
        PhaseTimes phases;
        for (int i = 0; i < runs; ++i) forwardMathAny(model, ids, &phases);
        std::printf("phases of 'math' (mean per run):\n");
        for (const auto& [phase, ms] : phases.ms) std::printf("  %-32s %8.1f ms\n", phase.c_str(), ms / runs);
    }

    const auto fileBytes = std::filesystem::file_size(std::filesystem::path(dir) / "model.safetensors");
    const double fileMb = static_cast<double>(fileBytes) / (1024.0 * 1024.0);
    const double rss = peakRssMb();
    std::printf("memory: safetensors %.1f MiB; peak RSS after load %.1f MiB, after the runs %.1f MiB "
                "(%.2f x the file)\n",
                fileMb, rssAfterLoad, rss, rss / fileMb);
    if (!dump.empty()) {
        const MatF& out = lastFull.size() ? lastFull : lastMath;
        std::FILE* f = std::fopen(dump.c_str(), "wb");
        if (!f || std::fwrite(out.data(), sizeof(float), static_cast<std::size_t>(out.size()), f) !=
                      static_cast<std::size_t>(out.size())) {
            std::fprintf(stderr, "attnscope_forward_bench: cannot write %s\n", dump.c_str());
            return 1;
        }
        std::fclose(f);
    }
    return 0;
}
