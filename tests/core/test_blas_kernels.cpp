// The choice of OpenBLAS kernels (core/model/blas_kernels.hpp), from made-up CPU features: the
// decision is a pure function, so every CPU family is checked here whatever this machine is.
#include <catch2/catch.hpp>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#endif
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/kernels/startup.hpp"
#include "core/kernels/vector_state.hpp"
#include "core/model/blas_kernels.hpp"
#include "core/model/transformer.hpp"

using namespace attnscope;

namespace {

CpuFeatures avx2Cpu() {  // Zen 1–3, Haswell … Alder Lake
    CpuFeatures cpu;
    cpu.sse3 = cpu.avx2 = cpu.fma = true;
    return cpu;
}

CpuFeatures avx512Cpu() {  // Skylake-SP and later Xeons, Zen 4/5 (which OpenBLAS 0.3.21 gives Haswell)
    CpuFeatures cpu = avx2Cpu();
    cpu.avx512f = cpu.avx512bw = cpu.avx512dq = cpu.avx512vl = true;
    return cpu;
}

}  // namespace

TEST_CASE("kernel family names: ours and OpenBLAS's, any case, nothing else", "[kernels]") {
    CHECK(parseKernelFamily("auto") == KernelFamily::Auto);
    CHECK(parseKernelFamily("openblas") == KernelFamily::Library);
    CHECK(parseKernelFamily("AVX512") == KernelFamily::Avx512);
    CHECK(parseKernelFamily("SkylakeX") == KernelFamily::Avx512);
    CHECK(parseKernelFamily("avx2") == KernelFamily::Avx2);
    CHECK(parseKernelFamily("haswell") == KernelFamily::Avx2);
    CHECK(parseKernelFamily("Prescott") == KernelFamily::Sse3);
    CHECK(parseKernelFamily("sse3") == KernelFamily::Sse3);
    CHECK_FALSE(parseKernelFamily(""));
    CHECK_FALSE(parseKernelFamily("avx"));
    CHECK_FALSE(parseKernelFamily("skylakex "));
    CHECK_FALSE(parseKernelFamily("Zen"));  // a real OpenBLAS core, but not a family we offer
    CHECK(kernelFamilyName(KernelFamily::Avx512) == "avx512");
    CHECK(kernelFamilyName(KernelFamily::Library) == "openblas");
}

TEST_CASE("auto: AVX-512 F+BW+DQ+VL → SkylakeX, else AVX2+FMA → Haswell, else OpenBLAS's choice", "[kernels]") {
    CHECK(decideKernels(KernelFamily::Auto, avx512Cpu()).coreType == "SkylakeX");
    CHECK(decideKernels(KernelFamily::Auto, avx2Cpu()).coreType == "Haswell");
    CpuFeatures knightsLanding = avx512Cpu();  // AVX-512F without BW/DQ/VL
    knightsLanding.avx512bw = knightsLanding.avx512dq = knightsLanding.avx512vl = false;
    CHECK(decideKernels(KernelFamily::Auto, knightsLanding).coreType == "Haswell");
    CpuFeatures noVl = avx512Cpu();
    noVl.avx512vl = false;
    CHECK(decideKernels(KernelFamily::Auto, noVl).coreType == "Haswell");
    CpuFeatures avx2NoFma = avx2Cpu();
    avx2NoFma.fma = false;
    CHECK(decideKernels(KernelFamily::Auto, avx2NoFma).coreType.empty());
    CpuFeatures old;  // an SSE2-only x86-64
    CHECK(decideKernels(KernelFamily::Auto, old).coreType.empty());
    CHECK(decideKernels(KernelFamily::Auto, old).runnable);
}

TEST_CASE("a forced family runs only where the CPU has what it needs", "[kernels]") {
    CHECK(decideKernels(KernelFamily::Avx512, avx512Cpu()).runnable);
    CHECK_FALSE(decideKernels(KernelFamily::Avx512, avx2Cpu()).runnable);
    CHECK(decideKernels(KernelFamily::Avx2, avx512Cpu()).coreType == "Haswell");
    CHECK(decideKernels(KernelFamily::Avx2, avx512Cpu()).runnable);
    CHECK_FALSE(decideKernels(KernelFamily::Avx2, CpuFeatures{}).runnable);
    CHECK(decideKernels(KernelFamily::Sse3, avx2Cpu()).coreType == "Prescott");
    CHECK_FALSE(decideKernels(KernelFamily::Sse3, CpuFeatures{}).runnable);
    CHECK(decideKernels(KernelFamily::Library, avx512Cpu()).coreType.empty());
    CHECK(cpuFeatureText(avx2Cpu()) == "sse3 avx2 fma");
    CHECK(cpuFeatureText(CpuFeatures{}).empty());
}

// Run by tests/kernels/run_with_kernels.sh only (hidden): the kernels OpenBLAS runs in this process
// are the ones that script asked for, so its model checks really ran on them. "auto": the decision
// for this CPU, applied by core/kernels/startup.cpp (linked into core_tests).
TEST_CASE("OpenBLAS runs the kernels asked for", "[.kernels-active]") {
    const char* expected = std::getenv("ATTNSCOPE_EXPECT_BLAS_CORE");
    REQUIRE(expected != nullptr);
    std::string want = expected;
    if (want == "auto") want = std::string(decideKernels(KernelFamily::Auto, detectCpuFeatures()).coreType);
    if (want.empty()) return;  // no AVX2: OpenBLAS's own choice, whatever it names
    CHECK(activeBlasCore() == want);
}

// Our own kernels (core/model/sgemm_*) follow the same choice: run by tests/kernels under each family.
TEST_CASE("our kernels' SIMD level follows the kernels asked for", "[.kernels-active]") {
    const char* expected = std::getenv("ATTNSCOPE_EXPECT_BLAS_CORE");
    REQUIRE(expected != nullptr);
    const std::string want = expected;
    const SimdLevel best = simdLevelFor(KernelFamily::Auto, detectCpuFeatures());
    if (want == "Prescott") CHECK(activeSimdLevel() == SimdLevel::Sse2);
    else if (want == "Haswell") CHECK(activeSimdLevel() == SimdLevel::Avx2);
    else CHECK(activeSimdLevel() == best);  // SkylakeX (the CPU has AVX-512 or the test skipped) or auto
}

TEST_CASE("OpenBLAS's threads spin briefly from start-up on, and its threaded products still come out right",
          "[kernels][models]") {
    // core/kernels/startup.cpp (linked into core_tests) sets OPENBLAS_THREAD_TIMEOUT to
    // kForwardPassSpin before main() unless the user set it; each setBlasThreadSpin stops OpenBLAS's
    // threads, made again at the next threaded product. A 2-thread 256×256×256 product (threaded
    // inside OpenBLAS) against the same product in double, after each change.
    const StartupKernels& startup = startupKernels();
    REQUIRE(startup.ran);
    const char* timeout = std::getenv("OPENBLAS_THREAD_TIMEOUT");
    const std::string before = timeout ? timeout : "";
    if (!startup.userThreadSpin && !blasConfig().empty()) {
        CHECK(startup.threadSpinSet == kForwardPassSpin);
        CHECK(before == std::to_string(kForwardPassSpin));
    }
    setProductThreadCount(2);
    const attnscope::MatF X = attnscope::MatF::Random(256, 256);
    const attnscope::LinearRef layer{attnscope::MatrixRef{X.data(), 256, 256}, attnscope::VectorRef{X.data(), 256}};
    const attnscope::Mat expected = (X.cast<double>() * X.cast<double>().transpose()).rowwise() + X.row(0).cast<double>();
    for (int spin : {4, 30, kForwardPassSpin}) {
        INFO("OPENBLAS_THREAD_TIMEOUT " << spin);
        const bool set = setBlasThreadSpin(spin);
        if (!blasConfig().empty()) CHECK(set);
        if (set) CHECK(std::string(std::getenv("OPENBLAS_THREAD_TIMEOUT")) == std::to_string(spin));
        for (int round = 0; round < 3; ++round) {  // the threads are made again, and used again
            const attnscope::MatF Y = attnscope::linear(X, layer);  // X·Xᵀ + the first row as bias
            CHECK((Y.cast<double>() - expected).cwiseAbs().maxCoeff() < 1e-3);
        }
    }
    if (!before.empty()) setBlasThreadSpin(std::atoi(before.c_str()));  // the user's setting back
}

#if defined(__x86_64__) || defined(__i386__)
namespace {

// XGETBV with ECX = 1 (where CPUID 0Dh.1 EAX bit 2 says it exists): the state components in use;
// bit 2 is the upper halves of the vector registers.
bool canReadStateInUse() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    return __get_cpuid_count(0xD, 1, &a, &b, &c, &d) && (a & 4u) != 0 && __builtin_cpu_supports("avx");
}
__attribute__((target("xsave"))) bool upperHalvesInUse() { return (_xgetbv(1) & 4u) != 0; }
// A 256-bit write the compiler does not see (an AVX function would end in VZEROUPPER), as code
// outside ours may leave it. Only called where the CPU has AVX.
void dirtyUpperHalves() { __asm__ volatile("vcmptrueps %%ymm0, %%ymm0, %%ymm0" ::: "xmm0"); }

}  // namespace

TEST_CASE("clearUpperVectorState leaves the vector registers' upper halves clean", "[kernels]") {
    // The window's worker threads call it before each job: SSE2 code after dirty upper halves
    // ran bert-base's head statistics at 512 tokens in ~5 s instead of ~0.3 s (bench/README.md).
    if (!canReadStateInUse()) {
        WARN("skipped: this CPU cannot report the registers' state in use (XGETBV 1)");
        clearUpperVectorState();
        return;
    }
    dirtyUpperHalves();
    if (!upperHalvesInUse()) {  // some CPUs (seen: AMD EPYC) never report these halves in use
        WARN("skipped: this CPU does not report a 256-bit write as state in use (XGETBV 1)");
        clearUpperVectorState();
        return;
    }
    clearUpperVectorState();
    CHECK_FALSE(upperHalvesInUse());
}
#endif

namespace {

std::size_t residentBytes() {  // /proc/self/statm's second field, in pages
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f) return 0;
    unsigned long size = 0, resident = 0;
    const int read = std::fscanf(f, "%lu %lu", &size, &resident);
    std::fclose(f);
    return read == 2 ? resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE)) : 0;
}

char* touched(std::size_t bytes) {
    auto* block = static_cast<char*>(std::malloc(bytes));
    REQUIRE(block != nullptr);
    std::memset(block, 1, bytes);
    return block;
}

}  // namespace

TEST_CASE("from start-up on, a freed block of 4 MiB and more goes back to the system at once", "[kernels]") {
    // glibc's own rule would have raised its threshold to 30 MiB once the 30 MiB block was freed:
    // the 16 MiB block would then come from the heap and stay resident after free().
    if (!startupKernels().bigBuffersMapped) {
        WARN("skipped: malloc's threshold was set by the user (GLIBC_TUNABLES or MALLOC_MMAP_THRESHOLD_)");
        return;
    }
    if (residentBytes() == 0) {
        WARN("skipped: /proc/self/statm cannot be read here");
        return;
    }
    constexpr std::size_t MiB = std::size_t{1} << 20;
    std::free(touched(30 * MiB));
    const std::size_t before = residentBytes();
    char* block = touched(16 * MiB);
    const std::size_t inUse = residentBytes();
    std::free(block);
    const std::size_t after = residentBytes();
    INFO("resident before " << before / MiB << " MiB, with the block " << inUse / MiB << " MiB, after free " << after / MiB << " MiB");
    CHECK(inUse >= before + 15 * MiB);
    CHECK(after + 15 * MiB <= inUse);
}
