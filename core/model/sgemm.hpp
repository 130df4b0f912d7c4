// Our own single-precision products for the model's projections and feed-forward layers (issue 16).
// At few tokens OpenBLAS packs (copies) every weight matrix before using it a few dozen times; these
// kernels read the mapped weights in place, once, with the token rows held in cache (llamafile's
// "tinyBLAS" idea). Past 64 tokens nn.Linear's products copy the token rows into panels instead
// and still read the weights in place (sgemm_kernels.inl, pkRun). AVX-512 and AVX2+FMA versions
// (sgemm_avx512.cpp, sgemm_avx2.cpp), chosen at run time (activeSimdLevel()): the build has no
// -march. Where they are used: ownSgemmWins().
#pragma once

#include <cstddef>
#include <functional>

#include "core/model/blas_kernels.hpp"

namespace attnscope {

// C (m×n, row stride ldc) += A (m×k, row stride lda) · op(B), row-major, beta = 1 (C holds the
// bias); with `overwrite`, C = A·op(B) (beta = 0: C's old values, even NaNs, are never read).
// op(B) = Bᵀ with B n×k when transB (nn.Linear's [out, in] weights), else B k×n (GPT-2 Conv1D's
// [in, out]); ldb is B's row stride either way.
struct SgemmArgs {
    long m = 0, n = 0, k = 0;
    const float* a = nullptr;
    long lda = 0;
    const float* b = nullptr;
    long ldb = 0;
    bool transB = false;
    float* c = nullptr;
    long ldc = 0;
    bool overwrite = false;
};

// One thread at `level` (the caller makes sure the CPU runs it). False, nothing computed, for
// SimdLevel::Sse2 or a build for another architecture.
bool sgemmOnLevel(SimdLevel level, const SgemmArgs& args);

// At activeSimdLevel() on `threads` threads (output columns split between them; a small
// persistent pool, not OpenBLAS's threads). False, nothing computed, when no kernel of ours runs.
bool ownSgemm(const SgemmArgs& args, int threads);

// part(0) … part(parts − 1) at once, part 0 on the calling thread, the others on the pool ownSgemm
// uses (persistent threads). False, nothing run, when the pool is busy (another caller, or a part
// asking again): the caller then runs the parts itself. A product inside a part runs on one thread.
// An exception from any part is rethrown here once every part has finished (the first one).
bool runOnColumnPool(int parts, const std::function<void(int)>& part);

// slice(begin, end) over [0, n) cut into at most `threads` slices, each a whole number of `grain`s
// but the last, run at once on that pool; one slice on the calling thread when n is under two
// grains or the pool is busy. For the passes over a checkpoint's weights between its products
// (the load check, the BF16 widening): memory-bound, on one thread they left the other core idle.
void runInSlices(std::size_t n, std::size_t grain, int threads,
                 const std::function<void(std::size_t, std::size_t)>& slice);

// The routing rule, from the measurements in bench/README.md ("Our own SGEMM"): ours where it
// beat OpenBLAS, per layout (transB as in SgemmArgs). ATTNSCOPE_SGEMM=openblas or =own in the
// environment picks one side for every product (paired benchmarks).
bool ownSgemmWins(long m, long n, long k, bool transB, int threads);

// The per-level entry points (the files compiled for those instruction sets).
void sgemmAvx512(const SgemmArgs& args);
void sgemmAvx2(const SgemmArgs& args);

// The calling thread's work space for the per-level kernels (packed copies of A), at least
// `floats` long, 64-byte aligned; kept for the thread's next products. Defined in sgemm.cpp,
// compiled for the baseline: the kernels' files call no standard library themselves.
float* sgemmWorkspace(long floats);

}  // namespace attnscope
