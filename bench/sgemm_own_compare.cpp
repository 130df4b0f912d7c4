// Times our own SGEMM (core/model/sgemm.hpp) against OpenBLAS's cblas_sgemm on one product shape,
// the weights cold (COPIES different weight matrices used in turn, so they come from memory as in
// a forward pass) or hot (COPIES = 1); best of 5 passes, each side in turn (bench/README.md, "Our
// own SGEMM"). Built by hand against the core library of a build:
//   g++ -O2 -std=c++20 -I. bench/sgemm_own_compare.cpp build/core/libattnscope_core.a -lopenblas -lpthread -o /tmp/sgemm_own
//   OPENBLAS_CORETYPE=SkylakeX /tmp/sgemm_own M N K TRANSB COPIES [THREADS]
// TRANSB 1: C += A·Bᵀ with B N×K (nn.Linear), 0: C += A·B with B K×N (Conv1D). THREADS sets both
// OpenBLAS's threads and ours. Our kernel runs at activeSimdLevel() (this program has no start-up
// hook: the CPU's best).
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/model/sgemm.hpp"

using namespace attnscope;

int main(int argc, char** argv) {
    if (argc < 6) {
        std::fprintf(stderr, "usage: %s M N K TRANSB COPIES [THREADS]\n", argv[0]);
        return 1;
    }
    const long m = std::atol(argv[1]), n = std::atol(argv[2]), k = std::atol(argv[3]);
    const bool transB = std::atoi(argv[4]) != 0;
    const int copies = std::atoi(argv[5]), threads = argc > 6 ? std::atoi(argv[6]) : 1;
    openblas_set_num_threads(threads);
    std::vector<std::vector<float>> weights(static_cast<std::size_t>(copies), std::vector<float>(static_cast<std::size_t>(n * k)));
    for (auto& w : weights)
        for (float& x : w) x = static_cast<float>(std::rand() % 100) * 0.01f;
    std::vector<float> a(static_cast<std::size_t>(m * k), 0.5f), c(static_cast<std::size_t>(m * n), 0.0f);
    const long ldb = transB ? k : n;
    for (int side = 0; side < 2; ++side) {
        double best = 1e9;
        for (int pass = 0; pass < 5; ++pass) {
            const auto start = std::chrono::steady_clock::now();
            for (const auto& w : weights) {
                if (side == 0)
                    cblas_sgemm(CblasRowMajor, CblasNoTrans, transB ? CblasTrans : CblasNoTrans, static_cast<int>(m),
                                static_cast<int>(n), static_cast<int>(k), 1.0f, a.data(), static_cast<int>(k), w.data(),
                                static_cast<int>(ldb), 1.0f, c.data(), static_cast<int>(n));
                else
                    ownSgemm(SgemmArgs{m, n, k, a.data(), k, w.data(), ldb, transB, c.data(), n}, threads);
            }
            best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
        std::printf("m=%ld n=%ld k=%ld %s threads=%d %-8s %.3f ms a product, %.1f GFLOP/s\n", m, n, k,
                    transB ? "A·Bᵀ" : "A·B ", threads, side ? "own" : "openblas", best / copies * 1e3,
                    2.0 * m * n * k * copies / best * 1e-9);
    }
    return 0;
}
