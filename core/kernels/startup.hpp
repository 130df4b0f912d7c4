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
};

const StartupKernels& startupKernels();

}  // namespace attnscope
