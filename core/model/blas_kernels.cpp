#include "core/model/blas_kernels.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <string>
#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#endif

#ifdef ATTNSCOPE_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace attnscope {

#if defined(__x86_64__) || defined(__i386__)
namespace {

// AMX-BF16: CPUID.(EAX=7, ECX=0):EDX[22], with the OS saving the tile state (XCR0 bits 17 and
// 18). By hand because not every compiler's __builtin_cpu_supports knows "amx-bf16" (clang 14,
// which builds the fuzzers, does not).
bool hasAmxBf16() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d) == 0 || (d & (1u << 22)) == 0) return false;
    if (__get_cpuid(1, &a, &b, &c, &d) == 0 || (c & (1u << 27)) == 0) return false;  // OSXSAVE: xgetbv runs
    unsigned low = 0, high = 0;
    __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    return (low & (3u << 17)) == (3u << 17);
}

}  // namespace
#endif

CpuFeatures detectCpuFeatures() {
    CpuFeatures cpu;
#if defined(__x86_64__) || defined(__i386__)
    // Explicitly: this may run from a constructor before libgcc's own one filled the table.
    // The builtins check the OS's XCR0 too, so AVX-512 counts only where its state is saved.
    __builtin_cpu_init();
    cpu.sse3 = __builtin_cpu_supports("sse3");
    cpu.avx2 = __builtin_cpu_supports("avx2");
    cpu.fma = __builtin_cpu_supports("fma");
    cpu.avx512f = __builtin_cpu_supports("avx512f");
    cpu.avx512bw = __builtin_cpu_supports("avx512bw");
    cpu.avx512dq = __builtin_cpu_supports("avx512dq");
    cpu.avx512vl = __builtin_cpu_supports("avx512vl");
    cpu.avx512bf16 = __builtin_cpu_supports("avx512bf16");
    cpu.amxbf16 = hasAmxBf16();
#endif
    return cpu;
}

namespace {

constexpr std::array<std::pair<std::string_view, KernelFamily>, 8> kNames{{
    {"auto", KernelFamily::Auto},      {"openblas", KernelFamily::Library},
    {"avx512", KernelFamily::Avx512},  {"avx2", KernelFamily::Avx2},
    {"sse3", KernelFamily::Sse3},      {"skylakex", KernelFamily::Avx512},
    {"haswell", KernelFamily::Avx2},   {"prescott", KernelFamily::Sse3},
}};

}  // namespace

bool equalIgnoringCase(std::string_view given, std::string_view lowerCaseName) {
    if (given.size() != lowerCaseName.size()) return false;
    for (std::size_t i = 0; i < given.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(given[i])) != lowerCaseName[i]) return false;
    return true;
}

std::optional<KernelFamily> parseKernelFamily(std::string_view name) {
    for (const auto& [text, family] : kNames)
        if (equalIgnoringCase(name, text)) return family;
    return std::nullopt;
}

std::string_view kernelFamilyName(KernelFamily family) {
    for (const auto& [text, candidate] : kNames)
        if (candidate == family) return text;  // the first name of each family is its own
    return "auto";
}

bool canRunAvx512Kernels(const CpuFeatures& cpu) {
    return cpu.avx512f && cpu.avx512bw && cpu.avx512dq && cpu.avx512vl;
}

bool canRunAvx2Kernels(const CpuFeatures& cpu) { return cpu.avx2 && cpu.fma; }

KernelDecision decideKernels(KernelFamily family, const CpuFeatures& cpu) {
    switch (family) {
        case KernelFamily::Library: return {};
        case KernelFamily::Avx512: return {"SkylakeX", canRunAvx512Kernels(cpu)};
        case KernelFamily::Avx2: return {"Haswell", canRunAvx2Kernels(cpu)};
        case KernelFamily::Sse3: return {"Prescott", cpu.sse3};
        case KernelFamily::Auto: break;
    }
    if (canRunAvx512Kernels(cpu)) return {"SkylakeX", true};
    if (canRunAvx2Kernels(cpu)) return {"Haswell", true};
    return {};  // older CPUs: OpenBLAS's own detection knows them
}

std::string cpuFeatureText(const CpuFeatures& cpu) {
    const std::array<std::pair<const char*, bool>, 9> flags{{{"sse3", cpu.sse3}, {"avx2", cpu.avx2},
        {"fma", cpu.fma}, {"avx512f", cpu.avx512f}, {"avx512bw", cpu.avx512bw}, {"avx512dq", cpu.avx512dq},
        {"avx512vl", cpu.avx512vl}, {"avx512bf16", cpu.avx512bf16}, {"amx-bf16", cpu.amxbf16}}};
    std::string text;
    for (const auto& [name, present] : flags)
        if (present) text += (text.empty() ? "" : " ") + std::string(name);
    return text;
}

SimdLevel simdLevelFor(KernelFamily family, const CpuFeatures& cpu) {
    const SimdLevel best = canRunAvx512Kernels(cpu) ? SimdLevel::Avx512
                           : canRunAvx2Kernels(cpu) ? SimdLevel::Avx2 : SimdLevel::Sse2;
    if (family == KernelFamily::Sse3) return SimdLevel::Sse2;
    if (family == KernelFamily::Avx2) return std::min(best, SimdLevel::Avx2);
    return best;  // Auto, Library (OpenBLAS's own pick for OpenBLAS, ours for ours), Avx512
}

namespace {
std::atomic<KernelFamily> simdFamily{KernelFamily::Auto};  // constant-initialised: valid before main
}  // namespace

void setSimdKernelFamily(KernelFamily family) { simdFamily.store(family, std::memory_order_relaxed); }

SimdLevel activeSimdLevel() {
    static const CpuFeatures cpu = detectCpuFeatures();
    return simdLevelFor(simdFamily.load(std::memory_order_relaxed), cpu);
}

std::string_view simdLevelName(SimdLevel level) {
    switch (level) {
        case SimdLevel::Avx512: return "avx512";
        case SimdLevel::Avx2: return "avx2";
        case SimdLevel::Sse2: break;
    }
    return "sse2";
}

#ifdef ATTNSCOPE_HAVE_OPENBLAS
// DYNAMIC_ARCH builds export these (Debian's do); weak, so another OpenBLAS still links.
extern "C" void gotoblas_dynamic_init(void) __attribute__((weak));
extern "C" void gotoblas_dynamic_quit(void) __attribute__((weak));

bool switchBlasCore(const char* coreType) {
    if (!gotoblas_dynamic_init || !gotoblas_dynamic_quit) return false;
    setenv("OPENBLAS_CORETYPE", coreType, 1);
    gotoblas_dynamic_quit();  // forgets the kernel table; init reads OPENBLAS_CORETYPE again
    gotoblas_dynamic_init();
    return true;
}
std::string activeBlasCore() { return openblas_get_corename(); }
std::string blasConfig() { return openblas_get_config(); }
int productThreadCount() { return openblas_get_num_threads(); }
void setProductThreadCount(int threads) { openblas_set_num_threads(threads); }

// Exported by Debian's OpenBLAS (driver/others); weak, so another OpenBLAS still links.
extern "C" void openblas_read_env(void) __attribute__((weak));
extern "C" int blas_thread_shutdown_(void) __attribute__((weak));

bool setBlasThreadSpin(int log2Cycles) {
    if (!openblas_read_env || !blas_thread_shutdown_) return false;
    setenv("OPENBLAS_THREAD_TIMEOUT", std::to_string(log2Cycles).c_str(), 1);
    openblas_read_env();
    blas_thread_shutdown_();  // the next threaded product starts them again with the new timeout
    return true;
}
#else
// Without OpenBLAS every product is Eigen's: no kernel table to switch or name.
bool switchBlasCore(const char*) { return false; }
std::string activeBlasCore() { return {}; }
std::string blasConfig() { return {}; }
int productThreadCount() { return 1; }
void setProductThreadCount(int) {}
bool setBlasThreadSpin(int) { return false; }
#endif

}  // namespace attnscope
