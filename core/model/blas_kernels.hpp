// Which OpenBLAS kernels the model's matrix products run (issue 16). Debian's OpenBLAS is built
// DYNAMIC_ARCH and picks its kernels from the CPU when it loads, but it does not know every CPU
// (AMD Zen 4/5 get the AVX2 "Haswell" kernels, 1.5× slower than its AVX-512 "SkylakeX" ones).
// The decision here is a pure function of the CPU's features, so it can be tested with made-up
// features; core/kernels/startup.cpp applies it at start-up, before any product is computed.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace attnscope {

// What the kernels need of the CPU (and of the OS: AVX state saved on context switches).
struct CpuFeatures {
    bool sse3 = false;
    bool avx2 = false;
    bool fma = false;
    bool avx512f = false;
    bool avx512bw = false;
    bool avx512dq = false;
    bool avx512vl = false;
    bool avx512bf16 = false;  // vdpbf16ps: BF16 products (core/model/bf16_products.hpp)
    bool amxbf16 = false;     // AMX tiles for BF16, where the OS enabled their state
};

CpuFeatures detectCpuFeatures();  // the running CPU (CPUID via the compiler's builtins)

// The kernel families a user can ask for (--kernels NAME or ATTNSCOPE_KERNELS=NAME).
enum class KernelFamily {
    Auto,     // the decision below from the CPU's features (the default)
    Library,  // OpenBLAS's own detection, untouched
    Avx512,   // OpenBLAS "SkylakeX": AVX-512 F+BW+DQ+VL
    Avx2,     // OpenBLAS "Haswell": AVX2 + FMA
    Sse3,     // OpenBLAS "Prescott": SSE3, runs on any x86-64 OpenBLAS supports
};

// An option's value against a lower-case name, in any case ("SkylakeX" is "skylakex"); also the
// products choices' (bf16_products.hpp).
bool equalIgnoringCase(std::string_view given, std::string_view lowerCaseName);

// "auto", "openblas", "avx512", "avx2", "sse3", or OpenBLAS's names "skylakex", "haswell",
// "prescott"; any case. nullopt for anything else.
std::optional<KernelFamily> parseKernelFamily(std::string_view name);
std::string_view kernelFamilyName(KernelFamily family);  // "auto", "openblas", "avx512", …
inline constexpr std::string_view kKernelFamilyNames = "auto, openblas, avx512, avx2, sse3";

// The OpenBLAS core type for a family on a CPU: coreType is empty when OpenBLAS keeps its own
// choice (Library, or Auto on a CPU without AVX2+FMA); runnable is false when the CPU lacks
// what a forced family needs (OpenBLAS would die on an illegal instruction).
struct KernelDecision {
    std::string_view coreType;
    bool runnable = true;
};
KernelDecision decideKernels(KernelFamily family, const CpuFeatures& cpu);

bool canRunAvx512Kernels(const CpuFeatures& cpu);  // F, BW, DQ and VL
bool canRunAvx2Kernels(const CpuFeatures& cpu);    // AVX2 and FMA
std::string cpuFeatureText(const CpuFeatures& cpu);  // "sse3 avx2 fma avx512f …": the ones present

// The widest SIMD our own runtime-dispatched kernels (core/model/sgemm_*, simd_kernels) may use:
// the CPU's best, capped by the family the user forced (--kernels, ATTNSCOPE_KERNELS or their own
// OPENBLAS_CORETYPE), so forcing avx2 or sse3 keeps every kernel of the process off AVX-512.
enum class SimdLevel { Sse2, Avx2, Avx512 };  // Sse2: the x86-64 baseline (our SGEMM stays off)
SimdLevel simdLevelFor(KernelFamily family, const CpuFeatures& cpu);  // pure, for the tests
void setSimdKernelFamily(KernelFamily family);  // core/kernels/startup.cpp, before main(); default Auto
SimdLevel activeSimdLevel();  // simdLevelFor(that family, this CPU)
std::string_view simdLevelName(SimdLevel level);  // "sse2", "avx2", "avx512"

// Switches OpenBLAS to a core type ("SkylakeX", …) and sets OPENBLAS_CORETYPE to it (child
// processes and any later re-initialisation agree). Before the executable's constructors run the
// environment cannot be changed for OpenBLAS (glibc 2.36 resets `environ` after .preinit_array),
// so this re-selects through OpenBLAS's DYNAMIC_ARCH entry points, before any product is computed.
// False when the build's OpenBLAS has no runtime dispatch (nothing changed then).
bool switchBlasCore(const char* coreType);

// The BLAS behind the products: OpenBLAS's running core ("SkylakeX", …) and its build line;
// empty strings when the build has no OpenBLAS (Eigen only).
std::string activeBlasCore();
std::string blasConfig();

// The threads of the model's products and of its heads side by side: OpenBLAS's own setting (its
// default one a core, OPENBLAS_NUM_THREADS), so one setting governs the whole forward pass; 1
// without OpenBLAS.
int productThreadCount();
void setProductThreadCount(int threads);

// OpenBLAS's idle threads spin (sched_yield) for up to 2^28 cycles (~0.1 s) after each product
// before they sleep, keeping the second core from whatever runs next: our heads side by side
// (bert-base's attention at 512 tokens, 2 threads: ~148 ms a forward pass against ~80 ms with
// 2^18–2^22), or an export's spelling (6 % of its samples). This sets OPENBLAS_THREAD_TIMEOUT to
// `log2Cycles` (OpenBLAS keeps it within 4…30), re-reads OpenBLAS's environment and stops its
// threads, which are made again at the next threaded product. False when the build's OpenBLAS
// lacks these entry points. The start-up hook (core/kernels/startup.cpp) sets kForwardPassSpin
// unless the user set OPENBLAS_THREAD_TIMEOUT.
bool setBlasThreadSpin(int log2Cycles);
// ~0.4 ms at 2.7 GHz: back-to-back products keep their threads awake, our own pool's attention
// phase (milliseconds a layer at long lengths) finds the second core free.
constexpr int kForwardPassSpin = 20;

}  // namespace attnscope
