// The SGEMM kernels of sgemm_kernels.inl compiled for AVX-512 (F, BW, DQ, VL) and FMA; only called
// when activeSimdLevel() says this CPU runs them (sgemm.cpp).
#include "core/model/sgemm.hpp"  // before the target pragma: nothing of it is compiled for AVX-512

#if defined(__x86_64__)
// GCC: a target pragma over the file; clang (the fuzz build) ignores it and takes the same
// target attribute on every function declared here instead (immintrin.h before it: its
// intrinsics carry their own).
#include <immintrin.h>
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")
#endif
// GCC 12's own avx512fintrin.h (_mm512_reduce_add_ps, _mm512_extractf32x8_ps) reads an
// intentionally undefined vector; its warning is about the header, not this code.
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace attnscope {
namespace {

struct Avx512 {
    using V = __m512;
    static constexpr int W = 16;
    static constexpr int NtRows = 3, NtCols = 8;    // 24 accumulators of 32 registers
    static constexpr int NnRows = 8, NnVectors = 3;  // 24 accumulators, 3 of B, 1 broadcast
    static constexpr int NnWideRows = 6, NnWideVectors = 4;  // 24 accumulators, 4 of B, 1 broadcast
    static constexpr int PkVectors = 2, PkCols = 12;  // 24 accumulators, 2 of A, 1 broadcast
    static V zero() { return _mm512_setzero_ps(); }
    static __mmask16 mask(int lanes) { return static_cast<__mmask16>((1u << lanes) - 1u); }
    static V load(const float* p) { return _mm512_loadu_ps(p); }
    static void store(float* p, V v) { _mm512_storeu_ps(p, v); }
    static V loadPart(const float* p, int lanes) { return _mm512_maskz_loadu_ps(mask(lanes), p); }
    static V broadcast(const float* p) { return _mm512_set1_ps(*p); }
    static V fma(V a, V b, V acc) { return _mm512_fmadd_ps(a, b, acc); }
    static void addTo(float* p, V v) { _mm512_storeu_ps(p, _mm512_add_ps(_mm512_loadu_ps(p), v)); }
    static void storePart(float* p, V v, int lanes) { _mm512_mask_storeu_ps(p, mask(lanes), v); }
    static void addToPart(float* p, V v, int lanes) {
        _mm512_mask_storeu_ps(p, mask(lanes), _mm512_add_ps(_mm512_maskz_loadu_ps(mask(lanes), p), v));
    }
    static float sum(V v) { return _mm512_reduce_add_ps(v); }
    // [Σa, Σb, Σc, Σd]: pairs interleaved within each 128-bit lane, then the four lanes folded.
    static __m128 sum4(V a, V b, V c, V d) {
        const V ab = _mm512_add_ps(_mm512_unpacklo_ps(a, b), _mm512_unpackhi_ps(a, b));
        const V cd = _mm512_add_ps(_mm512_unpacklo_ps(c, d), _mm512_unpackhi_ps(c, d));
        const V abcd = _mm512_add_ps(_mm512_shuffle_ps(ab, cd, _MM_SHUFFLE(1, 0, 1, 0)),
                                     _mm512_shuffle_ps(ab, cd, _MM_SHUFFLE(3, 2, 3, 2)));
        const __m256 half = _mm256_add_ps(_mm512_castps512_ps256(abcd), _mm512_extractf32x8_ps(abcd, 1));
        return _mm_add_ps(_mm256_castps256_ps128(half), _mm256_extractf128_ps(half, 1));
    }
    // 16 × 16 in place: pairs of rows interleaved (ps, then pd), then 128-bit lanes gathered.
    static void transpose(V (&m)[16]) {
        V t[16], u[16];
        #pragma GCC unroll 8
        for (int i = 0; i < 8; ++i) {
            t[2 * i] = _mm512_unpacklo_ps(m[2 * i], m[2 * i + 1]);
            t[2 * i + 1] = _mm512_unpackhi_ps(m[2 * i], m[2 * i + 1]);
        }
        #pragma GCC unroll 4
        for (int i = 0; i < 4; ++i) {  // u[4i + q], 128-bit lane L: column 4L + q, rows 4i … 4i + 3
            u[4 * i] = pd(_mm512_unpacklo_pd(dp(t[4 * i]), dp(t[4 * i + 2])));
            u[4 * i + 1] = pd(_mm512_unpackhi_pd(dp(t[4 * i]), dp(t[4 * i + 2])));
            u[4 * i + 2] = pd(_mm512_unpacklo_pd(dp(t[4 * i + 1]), dp(t[4 * i + 3])));
            u[4 * i + 3] = pd(_mm512_unpackhi_pd(dp(t[4 * i + 1]), dp(t[4 * i + 3])));
        }
        #pragma GCC unroll 4
        for (int q = 0; q < 4; ++q) {
            const V even04 = _mm512_shuffle_f32x4(u[q], u[4 + q], _MM_SHUFFLE(2, 0, 2, 0));
            const V odd04 = _mm512_shuffle_f32x4(u[q], u[4 + q], _MM_SHUFFLE(3, 1, 3, 1));
            const V even8c = _mm512_shuffle_f32x4(u[8 + q], u[12 + q], _MM_SHUFFLE(2, 0, 2, 0));
            const V odd8c = _mm512_shuffle_f32x4(u[8 + q], u[12 + q], _MM_SHUFFLE(3, 1, 3, 1));
            m[q] = _mm512_shuffle_f32x4(even04, even8c, _MM_SHUFFLE(2, 0, 2, 0));
            m[8 + q] = _mm512_shuffle_f32x4(even04, even8c, _MM_SHUFFLE(3, 1, 3, 1));
            m[4 + q] = _mm512_shuffle_f32x4(odd04, odd8c, _MM_SHUFFLE(2, 0, 2, 0));
            m[12 + q] = _mm512_shuffle_f32x4(odd04, odd8c, _MM_SHUFFLE(3, 1, 3, 1));
        }
    }
    static __m512d dp(V v) { return _mm512_castps_pd(v); }
    static V pd(__m512d v) { return _mm512_castpd_ps(v); }
};

#include "core/model/sgemm_kernels.inl"

}  // namespace

void sgemmAvx512(const SgemmArgs& args) { sgemmRun<Avx512>(args); }

}  // namespace attnscope
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#else
namespace attnscope {
void sgemmAvx512(const SgemmArgs&) {}  // never called: activeSimdLevel() is Sse2 off x86-64
}  // namespace attnscope
#endif
