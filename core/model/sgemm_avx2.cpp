// The SGEMM kernels of sgemm_kernels.inl compiled for AVX2 and FMA; only called when
// activeSimdLevel() says this CPU runs them (sgemm.cpp).
#include "core/model/sgemm.hpp"  // before the target pragma: nothing of it is compiled for AVX2

#if defined(__x86_64__)
// GCC: a target pragma over the file; clang (the fuzz build) ignores it and takes the same
// target attribute on every function declared here instead (immintrin.h before it: its
// intrinsics carry their own).
#include <immintrin.h>
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif

namespace attnscope {
namespace {

struct Avx2 {
    using V = __m256;
    static constexpr int W = 8;
    static constexpr int NtRows = 2, NtCols = 4;    // 8 accumulators of 16 registers
    static constexpr int NnRows = 4, NnVectors = 2;  // 8 accumulators, 2 of B, 1 broadcast
    static constexpr int NnWideRows = 4, NnWideVectors = 2;  // no wider tile (16 registers)
    static constexpr int PkVectors = 2, PkCols = 6;  // 12 accumulators, 2 of A, 1 broadcast
    static V zero() { return _mm256_setzero_ps(); }
    // lanes < 8 ones, then zeros: the sign bits _mm256_maskload_ps reads
    static __m256i mask(int lanes) {
        alignas(32) static const int kOnes[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
        return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kOnes + 8 - lanes));
    }
    static V load(const float* p) { return _mm256_loadu_ps(p); }
    static void store(float* p, V v) { _mm256_storeu_ps(p, v); }
    static V loadPart(const float* p, int lanes) { return _mm256_maskload_ps(p, mask(lanes)); }
    static V broadcast(const float* p) { return _mm256_broadcast_ss(p); }
    static V fma(V a, V b, V acc) { return _mm256_fmadd_ps(a, b, acc); }
    static void addTo(float* p, V v) { _mm256_storeu_ps(p, _mm256_add_ps(_mm256_loadu_ps(p), v)); }
    static void storePart(float* p, V v, int lanes) { _mm256_maskstore_ps(p, mask(lanes), v); }
    static void addToPart(float* p, V v, int lanes) {
        const __m256i m = mask(lanes);
        _mm256_maskstore_ps(p, m, _mm256_add_ps(_mm256_maskload_ps(p, m), v));
    }
    static __m128 fold(V v) { return _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1)); }
    static float sum(V v) {
        __m128 s = fold(v);
        s = _mm_add_ps(s, _mm_movehl_ps(s, s));
        return _mm_cvtss_f32(_mm_add_ss(s, _mm_shuffle_ps(s, s, 1)));
    }
    // [Σa, Σb, Σc, Σd]: pairs interleaved within each 128-bit lane, then the two lanes folded.
    static __m128 sum4(V a, V b, V c, V d) {
        const V ab = _mm256_add_ps(_mm256_unpacklo_ps(a, b), _mm256_unpackhi_ps(a, b));
        const V cd = _mm256_add_ps(_mm256_unpacklo_ps(c, d), _mm256_unpackhi_ps(c, d));
        return fold(_mm256_add_ps(_mm256_shuffle_ps(ab, cd, _MM_SHUFFLE(1, 0, 1, 0)),
                                  _mm256_shuffle_ps(ab, cd, _MM_SHUFFLE(3, 2, 3, 2))));
    }
    // 8 × 8 in place: pairs of rows interleaved (ps, then pd), then the 128-bit halves swapped.
    // The same steps as Avx512::transpose, written apart: each width has its own intrinsics.
    static void transpose(V (&m)[8]) {
        V t[8], u[8];
        #pragma GCC unroll 4
        for (int i = 0; i < 4; ++i) {
            t[2 * i] = _mm256_unpacklo_ps(m[2 * i], m[2 * i + 1]);
            t[2 * i + 1] = _mm256_unpackhi_ps(m[2 * i], m[2 * i + 1]);
        }
        #pragma GCC unroll 2
        for (int i = 0; i < 2; ++i) {  // u[4i + q], 128-bit half L: column 4L + q, rows 4i … 4i + 3
            u[4 * i] = pd(_mm256_unpacklo_pd(dp(t[4 * i]), dp(t[4 * i + 2])));
            u[4 * i + 1] = pd(_mm256_unpackhi_pd(dp(t[4 * i]), dp(t[4 * i + 2])));
            u[4 * i + 2] = pd(_mm256_unpacklo_pd(dp(t[4 * i + 1]), dp(t[4 * i + 3])));
            u[4 * i + 3] = pd(_mm256_unpackhi_pd(dp(t[4 * i + 1]), dp(t[4 * i + 3])));
        }
        #pragma GCC unroll 4
        for (int q = 0; q < 4; ++q) {
            m[q] = _mm256_permute2f128_ps(u[q], u[4 + q], 0x20);
            m[4 + q] = _mm256_permute2f128_ps(u[q], u[4 + q], 0x31);
        }
    }
    static __m256d dp(V v) { return _mm256_castps_pd(v); }
    static V pd(__m256d v) { return _mm256_castpd_ps(v); }
};

#include "core/model/sgemm_kernels.inl"

}  // namespace

void sgemmAvx2(const SgemmArgs& args) { sgemmRun<Avx2>(args); }

}  // namespace attnscope
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#else
namespace attnscope {
void sgemmAvx2(const SgemmArgs&) {}  // never called: activeSimdLevel() is Sse2 off x86-64
}  // namespace attnscope
#endif
