#include "core/kernels/startup.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <malloc.h>

#include "core/model/bf16_products.hpp"
#include "core/model/blas_kernels.hpp"

namespace attnscope {

namespace {

StartupKernels startup;  // constant-initialised: valid before any constructor runs

// `option` NAME or `option`=NAME on the command line, else the environment variable `variable`.
void findRequest(int argc, char** argv, const char* option, const char* variable, const char*& requested,
                 const char*& source) {
    const std::size_t length = std::strlen(option);
    for (int i = 1; argv && i < argc; ++i) {
        if (std::strcmp(argv[i], option) == 0 && i + 1 < argc) requested = argv[i + 1];
        else if (std::strncmp(argv[i], option, length) == 0 && argv[i][length] == '=') requested = argv[i] + length + 1;
        else continue;
        source = option;
        return;
    }
    if (const char* env = std::getenv(variable); env && *env) {
        requested = env;
        source = variable;
    }
}

// --products NAME (or ATTNSCOPE_PRODUCTS): a name that is no choice changes nothing, main() refuses it.
void chooseProducts(int argc, char** argv) {
    findRequest(argc, argv, "--products", "ATTNSCOPE_PRODUCTS", startup.productsRequested, startup.productsSource);
    if (!startup.productsRequested) return;
    if (const auto choice = parseProductsChoice(startup.productsRequested)) setProductsChoice(*choice);
}

// OpenBLAS's idle threads spin 2^kForwardPassSpin cycles after a product, not 2^28
// (core/model/blas_kernels.hpp: they kept the second core from our heads side by side), unless
// the user chose OPENBLAS_THREAD_TIMEOUT.
void shortenThreadSpin() {
    if (const char* user = std::getenv("OPENBLAS_THREAD_TIMEOUT"); user && *user) {
        startup.userThreadSpin = true;
        return;
    }
    if (setBlasThreadSpin(kForwardPassSpin)) startup.threadSpinSet = kForwardPassSpin;
}

// Unless the user tuned malloc (GLIBC_TUNABLES, MALLOC_MMAP_THRESHOLD_): see kMappedBlock.
void mapBigBuffers() {
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    const char* threshold = std::getenv("MALLOC_MMAP_THRESHOLD_");
    if ((tunables && std::strstr(tunables, "malloc.mmap_threshold")) || (threshold && *threshold)) return;
    startup.bigBuffersMapped = mallopt(M_MMAP_THRESHOLD, kMappedBlock) == 1;
}

// Runs from the executable's .init_array (glibc passes argc, argv, envp): after OpenBLAS's own
// initialisation, before main() and any product. Not .preinit_array: there glibc's `environ` is
// still null and its own initialiser resets it afterwards, so OPENBLAS_CORETYPE set there is lost.
// A name that is not a family, or one this CPU cannot run, changes nothing: main() refuses it.
void chooseKernels(int argc, char** argv, char** /*envp*/) {
    startup.ran = true;
    mapBigBuffers();
    shortenThreadSpin();
    chooseProducts(argc, argv);
    findRequest(argc, argv, "--kernels", "ATTNSCOPE_KERNELS", startup.requested, startup.source);
    const char* userCore = std::getenv("OPENBLAS_CORETYPE");
    if (!startup.requested && userCore && *userCore) {
        startup.userCoreType = true;  // the user's own OpenBLAS setting wins over "auto"
        setSimdKernelFamily(parseKernelFamily(userCore).value_or(KernelFamily::Library));  // ours follow it
        return;
    }
    const auto family = startup.requested ? parseKernelFamily(startup.requested) : KernelFamily::Auto;
    if (!family) return;
    setSimdKernelFamily(*family);  // our own kernels stay at or below the family asked for
    const KernelDecision decision = decideKernels(*family, detectCpuFeatures());
    if (!decision.runnable || decision.coreType.empty()) return;  // empty: OpenBLAS's own choice
    static char coreType[32];  // the decision's name, NUL-terminated for setenv
    const std::size_t n = std::min(decision.coreType.size(), sizeof coreType - 1);
    std::memcpy(coreType, decision.coreType.data(), n);
    if (switchBlasCore(coreType)) startup.coreTypeSet = coreType;
}

}  // namespace

const StartupKernels& startupKernels() { return startup; }

}  // namespace attnscope

// Outside the namespace for a plain symbol; `used` keeps it at -O2 and with --gc-sections.
__attribute__((section(".init_array"), used)) static void (*attnscopeChooseKernels)(int, char**, char**) =
    &attnscope::chooseKernels;
