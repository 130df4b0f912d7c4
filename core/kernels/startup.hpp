// The start-up hook that picks OpenBLAS's kernels and the BF16 products' path (the decision: core/model/blas_kernels.hpp).
// Compiled into every executable that runs models (attnscope, core_tests, the benchmarks) through
// the object library attnscope_kernel_startup, not an archive: the linker would drop an
// unreferenced .init_array entry from one.
#pragma once

namespace attnscope {

// What the hook did, for --kernel-info and the tests. Strings point into argv/environ.
struct StartupKernels {
    const char* requested = nullptr;  // the name given, or nullptr (then "auto")
    const char* source = nullptr;     // "--kernels", "ATTNSCOPE_KERNELS", or nullptr
    bool userCoreType = false;        // OPENBLAS_CORETYPE was set by the user and left alone
    const char* coreTypeSet = nullptr;  // the core type the hook switched OpenBLAS to, or nullptr
    bool userThreadSpin = false;      // OPENBLAS_THREAD_TIMEOUT was set by the user and left alone
    int threadSpinSet = 0;            // the OPENBLAS_THREAD_TIMEOUT the hook set (kForwardPassSpin), or 0
    bool ran = false;                 // false: the hook is not linked into this executable
    const char* productsRequested = nullptr;  // --products NAME / ATTNSCOPE_PRODUCTS, or nullptr ("auto")
    const char* productsSource = nullptr;     // "--products", "ATTNSCOPE_PRODUCTS", or nullptr
    bool bigBuffersMapped = false;            // malloc maps every block from kMappedBlock up on its own
};

// From this size up a block has a mapping of its own, given back when it is freed (mallopt
// M_MMAP_THRESHOLD, fixed): glibc's default raises the threshold to 32 MiB after the first large
// free, and a long run's layer rebuilt in the window (14–28 MB blocks for Qwen2.5-0.5B's shape at
// 4,096 tokens) then stayed in the heap after it was let go: about 40 MB of the peak.
inline constexpr int kMappedBlock = 4 << 20;

const StartupKernels& startupKernels();

}  // namespace attnscope
