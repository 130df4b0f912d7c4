// One generic body per step on GCC vector types of W floats (always inlined), compiled three
// times: W = 4 for SSE2 (any x86-64), W = 8 inside target("avx2,fma") functions and W = 16
// inside target("avx512…") functions; the public functions pick one by the level. A row's
// tail (n mod W) goes through the same body in a padded vector, so every element sees the same
// arithmetic at a given level.
#include "core/model/simd_kernels.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#pragma GCC diagnostic ignored "-Wpsabi"  // wide vectors inside always-inlined helpers only

namespace attnscope {

namespace {

#define ATTNSCOPE_INLINE inline __attribute__((always_inline))
#define ATTNSCOPE_LAMBDA_INLINE __attribute__((always_inline))
#define ATTNSCOPE_AVX2 __attribute__((target("avx2,fma")))
#define ATTNSCOPE_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")))

template <int W>
struct Vec {
    typedef float F __attribute__((vector_size(W * 4)));
    typedef int I __attribute__((vector_size(W * 4)));
};

template <int W>
ATTNSCOPE_INLINE typename Vec<W>::F splat(float x) {
    typename Vec<W>::F v;
    for (int i = 0; i < W; ++i) v[i] = x;
    return v;
}
template <int W>
ATTNSCOPE_INLINE typename Vec<W>::F load(const float* p) {
    typename Vec<W>::F v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
template <int W>
ATTNSCOPE_INLINE void store(float* p, typename Vec<W>::F v) { std::memcpy(p, &v, sizeof v); }

// The first `count` (< W) floats of p in a vector, the rest `pad`.
template <int W>
ATTNSCOPE_INLINE typename Vec<W>::F loadPartial(const float* p, std::size_t count, float pad) {
    float lanes[W];
    for (int i = 0; i < W; ++i) lanes[i] = static_cast<std::size_t>(i) < count ? p[i] : pad;
    return load<W>(lanes);
}
template <int W>
ATTNSCOPE_INLINE void storePartial(float* p, typename Vec<W>::F v, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) p[i] = v[i];
}

template <int W>
ATTNSCOPE_INLINE typename Vec<W>::F vmin(typename Vec<W>::F a, typename Vec<W>::F b) { return a < b ? a : b; }
template <int W>
ATTNSCOPE_INLINE typename Vec<W>::F vmax(typename Vec<W>::F a, typename Vec<W>::F b) { return a > b ? a : b; }

// exp(x) for x ≤ 0 (softmax): Cephes' polynomial on r = x − m·ln2, times 2^m built in the
// exponent bits; x < −87 (and −∞) gives exactly 0 (exp(−87) ≈ 1.6e-38, below any weight that counts).
template <int W>
ATTNSCOPE_INLINE typename Vec<W>::F expNonPositive(typename Vec<W>::F x) {
    using F = typename Vec<W>::F;
    using I = typename Vec<W>::I;
    const F clamped = vmax<W>(x, splat<W>(-87.0f));
    const F t = clamped * 1.44269504088896341f + 0.5f;  // m = floor(t): t in [−125, 0.5]
    const I truncated = __builtin_convertvector(t, I);
    const F m = __builtin_convertvector(truncated - (t < __builtin_convertvector(truncated, F) ? 1 : 0), F);
    F r = clamped - m * 0.693359375f;
    r = r + m * 2.12194440e-4f;
    const F r2 = r * r;
    F y = ((((1.9875691500E-4f * r + 1.3981999507E-3f) * r + 8.3334519073E-3f) * r + 4.1665795894E-2f) * r +
           1.6666665459E-1f) * r + 5.0000001201E-1f;
    y = y * r2 + r + 1.0f;
    const I bits = (__builtin_convertvector(m, I) + 127) << 23;  // 2^m, m ≥ −126
    F scale;
    std::memcpy(&scale, &bits, sizeof scale);
    return x < -87.0f ? splat<W>(0.0f) : y * scale;
}

// Eigen's generic_fast_erf_float: x·P(x²)/Q(x²) on x clamped to [−4, 4].
template <int W>
ATTNSCOPE_INLINE typename Vec<W>::F erfApprox(typename Vec<W>::F a) {
    using F = typename Vec<W>::F;
    const F x = vmax<W>(vmin<W>(a, splat<W>(4.0f)), splat<W>(-4.0f));
    const F x2 = x * x;
    F p = x2 * -2.72614225801306e-10f + 2.77068142495902e-08f;
    p = x2 * p - 2.10102402082508e-06f;
    p = x2 * p - 5.69250639462346e-05f;
    p = x2 * p - 7.34990630326855e-04f;
    p = x2 * p - 2.95459980854025e-03f;
    p = x2 * p - 1.60960333262415e-02f;
    p = x * p;
    F q = x2 * -1.45660718464996e-05f - 2.13374055278905e-04f;
    q = x2 * q - 1.68282697438203e-03f;
    q = x2 * q - 7.37332916720468e-03f;
    q = x2 * q - 1.42647390514189e-02f;
    return p / q;
}

// Eigen's generic_fast_tanh_float: x·P(x²)/Q(x²) on x clamped to ±7.9, x itself when |x| < 0.0004.
template <int W>
ATTNSCOPE_INLINE typename Vec<W>::F tanhApprox(typename Vec<W>::F a) {
    using F = typename Vec<W>::F;
    const F x = vmax<W>(vmin<W>(a, splat<W>(7.90531110763549805f)), splat<W>(-7.90531110763549805f));
    const F x2 = x * x;
    F p = x2 * -2.76076847742355e-16f + 2.00018790482477e-13f;
    p = x2 * p - 8.60467152213735e-11f;
    p = x2 * p + 5.12229709037114e-08f;
    p = x2 * p + 1.48572235717979e-05f;
    p = x2 * p + 6.37261928875436e-04f;
    p = x2 * p + 4.89352455891786e-03f;
    p = x * p;
    F q = x2 * 1.19825839466702e-06f + 1.18534705686654e-04f;
    q = x2 * q + 2.26843463243900e-03f;
    q = x2 * q + 4.89352518554385e-03f;
    const F absA = vmax<W>(a, -a);
    // Saturated: exactly ±1 (with FMA the clamped polynomial is an ulp short of it, which
    // GELU's 1 + tanh turns into a large relative error for very negative x).
    const F saturated = a > 0.0f ? splat<W>(1.0f) : splat<W>(-1.0f);
    return absA < 0.0004f ? a : absA >= 7.90531110763549805f ? saturated : p / q;
}

template <int W>
ATTNSCOPE_INLINE float horizontalSum(typename Vec<W>::F v) {
    float s = 0.0f;
    for (int i = 0; i < W; ++i) s += v[i];
    return s;
}
template <int W>
ATTNSCOPE_INLINE float horizontalMax(typename Vec<W>::F v) {
    float m = v[0];
    for (int i = 1; i < W; ++i) m = v[i] > m ? v[i] : m;
    return m;
}

// Applies f to x[0..n) in vectors of W, the tail in a padded vector.
template <int W, typename Fn>
ATTNSCOPE_INLINE void mapInPlace(float* x, std::size_t n, Fn f) {
    std::size_t i = 0;
    for (; i + W <= n; i += W) store<W>(x + i, f(load<W>(x + i)));
    if (i < n) storePartial<W>(x + i, f(loadPartial<W>(x + i, n - i, 0.0f)), n - i);
}

template <int W>
ATTNSCOPE_INLINE void geluErfBody(float* x, std::size_t n) {
    mapInPlace<W>(x, n, [](typename Vec<W>::F v) ATTNSCOPE_LAMBDA_INLINE { return 0.5f * v * (1.0f + erfApprox<W>(v * 0.70710678118654752f)); });
}

template <int W>
ATTNSCOPE_INLINE void geluTanhBody(float* x, std::size_t n) {
    mapInPlace<W>(x, n, [](typename Vec<W>::F v) ATTNSCOPE_LAMBDA_INLINE {
        return 0.5f * v * (1.0f + tanhApprox<W>(0.79788456080286536f * (v + 0.044715f * v * v * v)));
    });
}

// x·σ(x) with σ from exp(−|x|) ≤ 1 (no overflow): 1/(1 + e) for x ≥ 0, e/(1 + e) below. NaN stays
// NaN, +∞ gives +∞, −∞ NaN (as x / (1 + exp(−x)) does).
template <int W>
ATTNSCOPE_INLINE void siluBody(float* x, std::size_t n) {
    mapInPlace<W>(x, n, [](typename Vec<W>::F v) ATTNSCOPE_LAMBDA_INLINE {
        const typename Vec<W>::F e = expNonPositive<W>(-vmax<W>(v, -v));
        const typename Vec<W>::F sigma = (v >= 0.0f ? splat<W>(1.0f) : e) / (1.0f + e);
        return v * sigma;
    });
}

// The row's maximum over [0, valid); NaN when any entry is NaN.
template <int W>
ATTNSCOPE_INLINE float rowMax(const float* row, std::size_t valid) {
    using F = typename Vec<W>::F;
    const float inf = std::numeric_limits<float>::infinity();
    F best = splat<W>(-inf);
    F nan = splat<W>(0.0f);  // x − x: 0 for finite, NaN for NaN and ±∞; only NaN is kept below
    std::size_t i = 0;
    for (; i + W <= valid; i += W) {
        const F v = load<W>(row + i);
        best = vmax<W>(best, v);
        nan = v != v ? v : nan;
    }
    if (i < valid) {
        const F v = loadPartial<W>(row + i, valid - i, -inf);
        best = vmax<W>(best, v);
        nan = v != v ? v : nan;
    }
    return std::isnan(horizontalSum<W>(nan)) ? std::numeric_limits<float>::quiet_NaN() : horizontalMax<W>(best);
}

template <int W>
ATTNSCOPE_INLINE bool softmaxBody(float* row, std::size_t n, std::size_t valid, float scale) {
    using F = typename Vec<W>::F;
    const float top = valid ? rowMax<W>(row, valid) : -std::numeric_limits<float>::infinity();
    if (!std::isfinite(top)) return false;
    const F shift = splat<W>(top);
    F sums = splat<W>(0.0f);
    std::size_t i = 0;
    for (; i + W <= valid; i += W) {
        const F e = expNonPositive<W>((load<W>(row + i) - shift) * scale);
        store<W>(row + i, e);
        sums += e;
    }
    if (i < valid) {
        const F e = expNonPositive<W>((loadPartial<W>(row + i, valid - i, -std::numeric_limits<float>::infinity()) - shift) * scale);
        storePartial<W>(row + i, e, valid - i);
        sums += e;
    }
    const float inverse = 1.0f / horizontalSum<W>(sums);  // the maximum gives exp(0) = 1: sum ≥ 1
    mapInPlace<W>(row, valid, [inverse](F v) ATTNSCOPE_LAMBDA_INLINE { return v * inverse; });
    std::memset(row + valid, 0, (n - valid) * sizeof(float));
    return true;
}

template <int W>
ATTNSCOPE_INLINE void layerNormBody(float* row, std::size_t n, const float* gamma, const float* beta, float eps) {
    using F = typename Vec<W>::F;
    F sums = splat<W>(0.0f);
    std::size_t i = 0;
    for (; i + W <= n; i += W) sums += load<W>(row + i);
    if (i < n) sums += loadPartial<W>(row + i, n - i, 0.0f);
    const float mean = horizontalSum<W>(sums) / static_cast<float>(n);
    F squares = splat<W>(0.0f);
    for (i = 0; i + W <= n; i += W) {
        const F c = load<W>(row + i) - mean;
        squares += c * c;
    }
    if (i < n) {
        const F c = loadPartial<W>(row + i, n - i, mean) - mean;  // padding contributes 0
        squares += c * c;
    }
    const float inverse = 1.0f / std::sqrt(horizontalSum<W>(squares) / static_cast<float>(n) + eps);
    for (i = 0; i + W <= n; i += W)
        store<W>(row + i, (load<W>(row + i) - mean) * inverse * load<W>(gamma + i) + load<W>(beta + i));
    if (i < n)
        storePartial<W>(row + i,
                        (loadPartial<W>(row + i, n - i, 0.0f) - mean) * inverse * loadPartial<W>(gamma + i, n - i, 0.0f) +
                            loadPartial<W>(beta + i, n - i, 0.0f),
                        n - i);
}

template <int W>
ATTNSCOPE_INLINE void addBody(float* y, const float* x, std::size_t n) {
    std::size_t i = 0;
    for (; i + W <= n; i += W) store<W>(y + i, load<W>(y + i) + load<W>(x + i));
    for (; i < n; ++i) y[i] += x[i];
}

// ln x for finite x ≥ FLT_MIN: Cephes' logf as Eigen's plog_float has it (x = m·2^e with m in
// [½, 1), folded to [√½, √2), a degree-8 polynomial in m − 1), a few float ulp from std::log.
template <int W>
ATTNSCOPE_INLINE typename Vec<W>::F logNormal(typename Vec<W>::F v) {
    using F = typename Vec<W>::F;
    using I = typename Vec<W>::I;
    I bits;
    std::memcpy(&bits, &v, sizeof bits);
    F e = __builtin_convertvector(((bits >> 23) & 0xff) - 126, F);
    const I mantissaBits = (bits & 0x007fffff) | 0x3f000000;  // m in [½, 1)
    F x;
    std::memcpy(&x, &mantissaBits, sizeof x);
    const auto small = x < 0.707106781186547524f;
    e = small ? e - 1.0f : e;
    x = (small ? x + x : x) - 1.0f;
    const F x2 = x * x, x3 = x2 * x;
    F y = 7.0376836292E-2f * x - 1.1514610310E-1f;
    F y1 = -1.2420140846E-1f * x + 1.4249322787E-1f;
    F y2 = 2.0000714765E-1f * x - 2.4999993993E-1f;
    y = y * x + 1.1676998740E-1f;
    y1 = y1 * x - 1.6668057665E-1f;
    y2 = y2 * x + 3.3333331174E-1f;
    y = (y * x3 + y1) * x3 + y2;
    y = y * x3 + e * -2.12194440e-4f - 0.5f * x2;
    return x + y + e * 0.693359375f;
}

// Σ w·ln w over row[0..n), as float lanes, and mass[c] += w[c] in double. A 0 counts 0 (its
// log taken at FLT_MIN); a negative, NaN or ±∞ entry makes the sum NaN.
template <int W>
ATTNSCOPE_INLINE float entropyAndMassBody(const float* row, std::size_t n, double* mass) {
    using F = typename Vec<W>::F;
    typedef double D __attribute__((vector_size(W * 8)));
    F sums = splat<W>(0.0f);
    const F nan = splat<W>(std::numeric_limits<float>::quiet_NaN()), tiny = splat<W>(std::numeric_limits<float>::min());
    const auto step = [&](F w) ATTNSCOPE_LAMBDA_INLINE {
        const F safe = vmax<W>(w, tiny);
        const F flag = w < 0.0f ? nan : w - w;  // w − w: NaN for NaN and ±∞, else 0
        return w * logNormal<W>(safe) + flag;
    };
    std::size_t i = 0;
    for (; i + W <= n; i += W) {
        const F w = load<W>(row + i);
        sums += step(w);
        D m;
        std::memcpy(&m, mass + i, sizeof m);
        m += __builtin_convertvector(w, D);
        std::memcpy(mass + i, &m, sizeof m);
    }
    if (i < n) sums += step(loadPartial<W>(row + i, n - i, 0.0f));
    for (; i < n; ++i) mass[i] += static_cast<double>(row[i]);
    return horizontalSum<W>(sums);
}

// out[r] = Σ_i x[i]·w[r][i] over `rows` rows of n bfloat16 words (row-major, maybe misaligned).
// A bfloat16 is a float's upper half; a float times it is exact in double, so each product is
// exact and only the sums round, in W double lanes, then once to float.
template <int W>
struct Bf16Vec {  // in a class template: a typedef's dependent vector_size is applied when it is instantiated
    typedef double D __attribute__((vector_size(W * 8)));
    typedef std::uint16_t H __attribute__((vector_size(W * 2)));
    typedef std::uint32_t U __attribute__((vector_size(W * 4)));
};

template <int W>
ATTNSCOPE_INLINE void bf16RowDotsBody(const double* x, const std::uint8_t* words, std::size_t rows, std::size_t n,
                                      float* out) {
    using D = typename Bf16Vec<W>::D;
    using H = typename Bf16Vec<W>::H;
    using U = typename Bf16Vec<W>::U;
    for (std::size_t r = 0; r < rows; ++r) {
        const std::uint8_t* row = words + 2 * r * n;
        D sums = {};
        std::size_t i = 0;
        for (; i + W <= n; i += W) {
            H halves;
            std::memcpy(&halves, row + 2 * i, sizeof halves);
            const U bits = __builtin_convertvector(halves, U) << 16;
            typename Vec<W>::F w;
            std::memcpy(&w, &bits, sizeof w);
            D xs;
            std::memcpy(&xs, x + i, sizeof xs);
            sums += xs * __builtin_convertvector(w, D);
        }
        double total = 0;
        for (int lane = 0; lane < W; ++lane) total += sums[lane];
        for (; i < n; ++i) {
            std::uint16_t half = 0;
            std::memcpy(&half, row + 2 * i, 2);
            const std::uint32_t bits = static_cast<std::uint32_t>(half) << 16;
            float w = 0;
            std::memcpy(&w, &bits, sizeof w);
            total += x[i] * static_cast<double>(w);
        }
        out[r] = static_cast<float>(total);
    }
}

// Each step at each level: W = 16 (AVX-512), 8 (AVX2 + FMA), 4 (SSE2).
#define ATTNSCOPE_LEVELS(name, ret, params, args)                                   \
    ATTNSCOPE_AVX512 ret name##Avx512 params { return name##Body<16> args; }      \
    ATTNSCOPE_AVX2 ret name##Avx2 params { return name##Body<8> args; }           \
    ret name##Sse2 params { return name##Body<4> args; }                           \
    ret name##At(SimdLevel level, auto... a) {                                     \
        if (level == SimdLevel::Avx512) return name##Avx512(a...);                 \
        if (level == SimdLevel::Avx2) return name##Avx2(a...);                     \
        return name##Sse2(a...);                                                   \
    }

ATTNSCOPE_LEVELS(softmax, bool, (float* row, std::size_t n, std::size_t valid, float scale), (row, n, valid, scale))
ATTNSCOPE_LEVELS(geluErf, void, (float* x, std::size_t n), (x, n))
ATTNSCOPE_LEVELS(geluTanh, void, (float* x, std::size_t n), (x, n))
ATTNSCOPE_LEVELS(silu, void, (float* x, std::size_t n), (x, n))
ATTNSCOPE_LEVELS(layerNorm, void, (float* row, std::size_t n, const float* gamma, const float* beta, float eps),
                 (row, n, gamma, beta, eps))
ATTNSCOPE_LEVELS(add, void, (float* y, const float* x, std::size_t n), (y, x, n))
ATTNSCOPE_LEVELS(entropyAndMass, float, (const float* row, std::size_t n, double* mass), (row, n, mass))
ATTNSCOPE_LEVELS(bf16RowDots, void, (const double* x, const std::uint8_t* words, std::size_t rows, std::size_t n, float* out),
                 (x, words, rows, n, out))

}  // namespace

bool softmaxRowScaled(SimdLevel level, float* row, std::size_t n, std::size_t valid, float scale) {
    return softmaxAt(level, row, n, valid, scale);
}
void geluErfInPlace(SimdLevel level, float* x, std::size_t n) { geluErfAt(level, x, n); }
void geluTanhInPlace(SimdLevel level, float* x, std::size_t n) { geluTanhAt(level, x, n); }
void siluInPlace(SimdLevel level, float* x, std::size_t n) { siluAt(level, x, n); }
void layerNormRow(SimdLevel level, float* row, std::size_t n, const float* gamma, const float* beta, float eps) {
    layerNormAt(level, row, n, gamma, beta, eps);
}
void addInPlace(SimdLevel level, float* y, const float* x, std::size_t n) { addAt(level, y, x, n); }
float entropyAndMassRow(SimdLevel level, const float* row, std::size_t n, double* mass) {
    return entropyAndMassAt(level, row, n, mass);
}

void bf16RowDotProducts(SimdLevel level, const double* x, const std::uint8_t* words, std::size_t rows, std::size_t n,
                        float* out) {
    bf16RowDotsAt(level, x, words, rows, n, out);
}

}  // namespace attnscope
