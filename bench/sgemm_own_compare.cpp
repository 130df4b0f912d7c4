// Times our own SGEMM (core/model/sgemm.hpp) against OpenBLAS's cblas_sgemm on one product shape,
// the weights cold (COPIES different weight matrices used in turn, so they come from memory as in
// a forward pass) or hot (COPIES = 1); best of 5 passes, each side in turn (bench/README.md, "Our
// own SGEMM"). Built by hand against the core library of a build:
//   g++ -O2 -std=c++20 -I. bench/sgemm_own_compare.cpp build/core/libattnscope_core.a -lopenblas -lpthread -o /tmp/sgemm_own
//   OPENBLAS_CORETYPE=SkylakeX /tmp/sgemm_own M[,M…] N K TRANSB COPIES [THREADS]
// M: one token count or several (128,256,512: past 64 the packed kernels). TRANSB 1: C += A·Bᵀ
// with B N×K (nn.Linear), 0: C += A·B with B K×N (Conv1D). THREADS sets both OpenBLAS's threads
// and ours. Our kernel runs at activeSimdLevel(): the CPU's best, or AVX2 with
// ATTNSCOPE_KERNELS=avx2 (then give OpenBLAS OPENBLAS_CORETYPE=Haswell to compare like with like).
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/model/blas_kernels.hpp"
#include "core/model/sgemm.hpp"

using namespace attnscope;

namespace {

// Best of 5 passes over every weight matrix; ms per product.
template <class Product>
double bestMs(const std::vector<std::vector<float>>& weights, Product product) {
    double best = 1e9;
    for (int pass = 0; pass < 5; ++pass) {
        const auto start = std::chrono::steady_clock::now();
        for (const auto& w : weights) product(w.data());
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return best / static_cast<double>(weights.size()) * 1e3;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 6) {
        std::fprintf(stderr, "usage: %s M[,M...] N K TRANSB COPIES [THREADS]\n", argv[0]);
        return 1;
    }
    const long n = std::atol(argv[2]), k = std::atol(argv[3]);
    const bool transB = std::atoi(argv[4]) != 0;
    const int copies = std::atoi(argv[5]), threads = argc > 6 ? std::atoi(argv[6]) : 1;
    if (const char* family = std::getenv("ATTNSCOPE_KERNELS"))
        if (const auto parsed = parseKernelFamily(family)) setSimdKernelFamily(*parsed);
    openblas_set_num_threads(threads);
    std::vector<std::vector<float>> weights(static_cast<std::size_t>(copies), std::vector<float>(static_cast<std::size_t>(n * k)));
    for (auto& w : weights)
        for (float& x : w) x = static_cast<float>(std::rand() % 100) * 0.01f;
    const long ldb = transB ? k : n;
    for (const char* at = argv[1]; *at;) {
        char* end = nullptr;
        const long m = std::strtol(at, &end, 10);
        at = *end == ',' ? end + 1 : end;
        std::vector<float> a(static_cast<std::size_t>(m * k), 0.5f), c(static_cast<std::size_t>(m * n), 0.0f);
        const double blas = bestMs(weights, [&](const float* w) {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, transB ? CblasTrans : CblasNoTrans, static_cast<int>(m),
                        static_cast<int>(n), static_cast<int>(k), 1.0f, a.data(), static_cast<int>(k), w,
                        static_cast<int>(ldb), 1.0f, c.data(), static_cast<int>(n));
        });
        const double own = bestMs(weights, [&](const float* w) {
            ownSgemm(SgemmArgs{m, n, k, a.data(), k, w, ldb, transB, c.data(), n}, threads);
        });
        const double gflop = 2.0 * static_cast<double>(m * n * k) * 1e-9;
        std::printf("m=%ld n=%ld k=%ld %s threads=%d %s %s: openblas %.3f ms (%.0f GFLOP/s), own %.3f ms (%.0f), "
                    "openblas/own %.2f\n",
                    m, n, k, transB ? "A·Bᵀ" : "A·B ", threads, copies > 1 ? "cold" : "hot ",
                    std::string(simdLevelName(activeSimdLevel())).c_str(), blas, gflop / blas * 1e3, own,
                    gflop / own * 1e3, blas / own);
    }
    return 0;
}
