// The SGEMM kernel bodies (core/model/sgemm.hpp), written once for a vector-traits struct S and
// included by sgemm_avx512.cpp and sgemm_avx2.cpp inside an anonymous namespace, after their
// target pragma: every function here is compiled for that instruction set and has internal
// linkage, so no inline instance for a wider ISA can be merged into code that runs everywhere.
// No standard-library call here for the same reason. The loops over a tile are unrolled
// (#pragma GCC unroll) so its accumulators live in registers: -O2 leaves them on the stack.
//
// S provides: V, W (lanes), zero(), load(p), loadPart(p, lanes), store(p, v), broadcast(p),
// fma(a, b, acc), addTo(p, v), addToPart(p, v, lanes), storePart(p, v, lanes), sum4(a, b, c, d) → __m128 of the four sums,
// sum(v), transpose(V[W]) in place; tile sizes NtRows × NtCols (A rows × B rows, A·Bᵀ), NnRows ×
// NnVectors (A·B; NnWideRows × NnWideVectors for one wider panel) and PkVectors × PkCols (A·Bᵀ's packed tiles, many tokens).

constexpr long kBlockLimit = 1024;  // K is split when longer: A's slice and B's panel stay in L2
constexpr long kBlock = 768;        // (a multiple of 16: blocks start on whole vectors)

constexpr long kNnBlock = 128;      // A·B: rows of B a panel spans (192 B each at AVX-512): L1, few pages
inline long lesser(long a, long b) { return a < b ? a : b; }

// ---------------------------------------------------------------- C += A·Bᵀ (B n×k)
// A tile of RM×RN dot products over k, each kept as a vector of partial sums and added up at the
// end (four at a time). pf: the next panel's rows, pfRows of them prefetched into L2 as we go,
// so the weights stream from memory while this panel computes.
template <class S, int RM, int RN>
void ntTile(long k, const float* a, long lda, const float* b, long ldb, float* c, long ldc,
            const float* pf, long pfRows) {
    using V = typename S::V;
    V acc[RM][RN];
    #pragma GCC unroll 8
    for (int i = 0; i < RM; ++i)
        #pragma GCC unroll 8
        for (int j = 0; j < RN; ++j) acc[i][j] = S::zero();
    long kk = 0;
    for (; kk + S::W <= k; kk += S::W) {
        for (long r = 0; r < pfRows; ++r) _mm_prefetch(reinterpret_cast<const char*>(pf + r * ldb + kk), _MM_HINT_T1);
        V av[RM];
        #pragma GCC unroll 8
        for (int i = 0; i < RM; ++i) av[i] = S::load(a + i * lda + kk);
        #pragma GCC unroll 8
        for (int j = 0; j < RN; ++j) {
            V bv = S::load(b + j * ldb + kk);
            __asm__("" : "+v"(bv));  // loaded once into a register, not folded into each FMA
            #pragma GCC unroll 8
            for (int i = 0; i < RM; ++i) acc[i][j] = S::fma(av[i], bv, acc[i][j]);
        }
    }
    if (kk < k) {  // the last, partial vector: masked loads read zeros past the end
        const int lanes = static_cast<int>(k - kk);
        V av[RM];
        #pragma GCC unroll 8
        for (int i = 0; i < RM; ++i) av[i] = S::loadPart(a + i * lda + kk, lanes);
        #pragma GCC unroll 8
        for (int j = 0; j < RN; ++j) {
            const V bv = S::loadPart(b + j * ldb + kk, lanes);
            #pragma GCC unroll 8
            for (int i = 0; i < RM; ++i) acc[i][j] = S::fma(av[i], bv, acc[i][j]);
        }
    }
    #pragma GCC unroll 8
    for (int i = 0; i < RM; ++i) {
        float* row = c + i * ldc;
        int j = 0;
        #pragma GCC unroll 8
        for (; j + 4 <= RN; j += 4)
            _mm_storeu_ps(row + j, _mm_add_ps(_mm_loadu_ps(row + j),
                                              S::sum4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3])));
        #pragma GCC unroll 8
        for (; j < RN; ++j) row[j] += S::sum(acc[i][j]);
    }
}

#define ATTNSCOPE_ROW_CASE(R, CALL) \
    case R:                         \
        if constexpr (R <= kMaxRows) CALL; \
        return;

template <class S, int RN>
void ntRows(int rm, long k, const float* a, long lda, const float* b, long ldb, float* c, long ldc,
            const float* pf, long pfRows) {
    constexpr int kMaxRows = S::NtRows;
    switch (rm) {
        ATTNSCOPE_ROW_CASE(1, (ntTile<S, 1, RN>(k, a, lda, b, ldb, c, ldc, pf, pfRows)))
        ATTNSCOPE_ROW_CASE(2, (ntTile<S, 2, RN>(k, a, lda, b, ldb, c, ldc, pf, pfRows)))
        ATTNSCOPE_ROW_CASE(3, (ntTile<S, 3, RN>(k, a, lda, b, ldb, c, ldc, pf, pfRows)))
        ATTNSCOPE_ROW_CASE(4, (ntTile<S, 4, RN>(k, a, lda, b, ldb, c, ldc, pf, pfRows)))
        default: return;
    }
}

// Every row of A against RN rows of B (n0…) over the K block k0…k0+kl; the next panel's pfRows
// rows are prefetched, spread over the row tiles.
template <class S, int RN>
void ntPanel(const SgemmArgs& g, long n0, long k0, long kl, const float* pf, long pfRows) {
    const long tiles = (g.m + S::NtRows - 1) / S::NtRows;
    for (long t = 0; t < tiles; ++t) {
        const long m0 = t * S::NtRows;
        const long r0 = pfRows * t / tiles, r1 = pfRows * (t + 1) / tiles;
        ntRows<S, RN>(static_cast<int>(lesser(S::NtRows, g.m - m0)), kl, g.a + m0 * g.lda + k0, g.lda,
                      g.b + n0 * g.ldb + k0, g.ldb, g.c + m0 * g.ldc + n0, g.ldc, pf ? pf + r0 * g.ldb : nullptr,
                      r1 - r0);
    }
}

template <class S>
void ntRun(const SgemmArgs& g) {
    constexpr long RN = S::NtCols;
    const long kc = g.k <= kBlockLimit ? g.k : kBlock;
    for (long n0 = 0; n0 < g.n; n0 += RN) {
        const long rn = lesser(RN, g.n - n0);
        for (long k0 = 0; k0 < g.k; k0 += kc) {
            const long kl = lesser(kc, g.k - k0);
            if (rn < RN) {  // the last columns: four at a time, then one by one
                long n = n0;
                for (; n + 4 <= n0 + rn; n += 4) ntPanel<S, 4>(g, n, k0, kl, nullptr, 0);
                for (; n < n0 + rn; ++n) ntPanel<S, 1>(g, n, k0, kl, nullptr, 0);
                continue;
            }
            // The panel after this one: the next K block of these rows, or the next rows' first.
            const bool lastBlock = k0 + kc >= g.k;
            const float* pf = lastBlock ? g.b + (n0 + RN) * g.ldb : g.b + n0 * g.ldb + k0 + kc;
            const long pfRows = lastBlock ? lesser(RN, g.n - n0 - RN) : RN;
            ntPanel<S, RN>(g, n0, k0, kl, pfRows > 0 ? pf : nullptr, pfRows > 0 ? pfRows : 0);
        }
    }
}

// ---------------------------------------------------------------- C += A·B (B k×n)
// What a tile prefetches into L2 at each step kk: `lines` cache lines from at + kk·stride.
struct Prefetch {
    const float* at = nullptr;
    long stride = 0, lines = 0;
};

// An RM × (RV·W) tile: each step of k broadcasts one value of each A row against RV vectors of
// B's row k. Part: the last vector holds only lastLanes columns.
template <class S, int RM, int RV, bool Part>
void nnTile(long k, const float* a, long lda, const float* b, long ldb, float* c, long ldc, int lastLanes,
            const Prefetch& pf, bool store) {
    using V = typename S::V;
    V acc[RM][RV];
    #pragma GCC unroll 8
    for (int i = 0; i < RM; ++i)
        #pragma GCC unroll 8
        for (int j = 0; j < RV; ++j) acc[i][j] = S::zero();
    for (long kk = 0; kk < k; ++kk) {
        const float* brow = b + kk * ldb;
        for (long p = 0; p < pf.lines; ++p)
            _mm_prefetch(reinterpret_cast<const char*>(pf.at + kk * pf.stride + p * 16), _MM_HINT_T1);
        V bv[RV];
        #pragma GCC unroll 8
        for (int j = 0; j < RV; ++j) {
            bv[j] = (Part && j == RV - 1) ? S::loadPart(brow + j * S::W, lastLanes) : S::load(brow + j * S::W);
            __asm__("" : "+v"(bv[j]));  // loaded once into a register, not folded into each FMA
        }
        #pragma GCC unroll 8
        for (int i = 0; i < RM; ++i) {
            const V av = S::broadcast(a + i * lda + kk);
            #pragma GCC unroll 8
            for (int j = 0; j < RV; ++j) acc[i][j] = S::fma(av, bv[j], acc[i][j]);
        }
    }
    #pragma GCC unroll 8
    for (int i = 0; i < RM; ++i)
        #pragma GCC unroll 8
        for (int j = 0; j < RV; ++j) {
            float* at = c + i * ldc + j * S::W;
            const bool part = Part && j == RV - 1;
            if (store) part ? S::storePart(at, acc[i][j], lastLanes) : S::store(at, acc[i][j]);
            else part ? S::addToPart(at, acc[i][j], lastLanes) : S::addTo(at, acc[i][j]);
        }
}

template <class S, int MaxRows, int RV, bool Part>
void nnRows(int rm, long k, const float* a, long lda, const float* b, long ldb, float* c, long ldc, int lastLanes,
            const Prefetch& pf, bool store) {
    constexpr int kMaxRows = MaxRows;
#define ATTNSCOPE_NN(R) (nnTile<S, R, RV, Part>(k, a, lda, b, ldb, c, ldc, lastLanes, pf, store))
    switch (rm) {
        ATTNSCOPE_ROW_CASE(1, ATTNSCOPE_NN(1))
        ATTNSCOPE_ROW_CASE(2, ATTNSCOPE_NN(2))
        ATTNSCOPE_ROW_CASE(3, ATTNSCOPE_NN(3))
        ATTNSCOPE_ROW_CASE(4, ATTNSCOPE_NN(4))
        ATTNSCOPE_ROW_CASE(5, ATTNSCOPE_NN(5))
        ATTNSCOPE_ROW_CASE(6, ATTNSCOPE_NN(6))
        ATTNSCOPE_ROW_CASE(7, ATTNSCOPE_NN(7))
        ATTNSCOPE_ROW_CASE(8, ATTNSCOPE_NN(8))
        default: return;
    }
#undef ATTNSCOPE_NN
}

template <class S, int MaxRows, int RV, bool Part>
void nnPanel(const SgemmArgs& g, long n0, long k0, long kl, int lastLanes, Prefetch pf) {
    const bool store = g.overwrite && k0 == 0;  // the first block of K writes C, the others add
    const long tiles = (g.m + MaxRows - 1) / MaxRows;
    // The panel's lines shared out: `each` a tile, one more for the first `extra` tiles. Worked
    // out once, not divided per tile: at d_k = 64 steps (the attention scores) a tile's division
    // and its Prefetch passed by value cost 15 % of the products.
    const long each = pf.lines / tiles, extra = pf.lines % tiles;
    long line = 0;
    for (long t = 0; t < tiles; ++t) {
        const long m0 = t * MaxRows;
        const long lines = each + (t < extra ? 1 : 0);
        const Prefetch tilePf{pf.at + line * 16, pf.stride, lines};
        line += lines;
        nnRows<S, MaxRows, RV, Part>(static_cast<int>(lesser(MaxRows, g.m - m0)), kl, g.a + m0 * g.lda + k0, g.lda,
                            g.b + k0 * g.ldb + n0, g.ldb, g.c + m0 * g.ldc + n0, g.ldc, lastLanes, tilePf, store);
    }
}

// The panel's width in vectors (1…the tile's) and whether its last vector is partial.
template <class S, int MaxRows, int RV>
void nnPanelOfWidth(int rv, bool part, const SgemmArgs& g, long n0, long k0, long kl, int lastLanes,
                    Prefetch pf) {
    if constexpr (RV >= 1) {
        if (rv == RV) {
            if (part) nnPanel<S, MaxRows, RV, true>(g, n0, k0, kl, lastLanes, pf);
            else nnPanel<S, MaxRows, RV, false>(g, n0, k0, kl, lastLanes, pf);
            return;
        }
        nnPanelOfWidth<S, MaxRows, RV - 1>(rv, part, g, n0, k0, kl, lastLanes, pf);
    }
}

// K blocks outside, column panels inside: consecutive panels continue the same rows of B, A's
// slice stays in L1, and a panel spans few pages (rows of B are ldb apart: all of K at once
// missed the TLB at every step). While a block computes, the next block's rows are prefetched
// front to back, an equal share per panel: one sequential stream, as memory serves best (a
// prefetch of each next panel, 128 short pieces of rows, left the weights' reads 2–3× slower).
template <class S, int Rows, int Vectors>
void nnRunTiles(const SgemmArgs& g) {
    constexpr long panelCols = Vectors * S::W;
    const long panels = (g.n + panelCols - 1) / panelCols;
    for (long k0 = 0; k0 < g.k; k0 += kNnBlock) {
        const long kl = lesser(kNnBlock, g.k - k0);
        const long nextRows = lesser(kNnBlock, g.k - k0 - kl);  // 0 after the last block
        // Each panel's share of the next block, spread over its kl steps in whole cache lines.
        const long share = (nextRows * g.ldb + panels - 1) / panels;
        const long stride = ((share + kl - 1) / kl + 15) / 16 * 16;
        for (long p = 0; p < panels; ++p) {
            const long n0 = p * panelCols;
            const long cols = lesser(panelCols, g.n - n0);
            const int rv = static_cast<int>((cols + S::W - 1) / S::W);
            const int lastLanes = static_cast<int>(cols - (rv - 1) * S::W);
            const Prefetch pf{g.b + (k0 + kl) * g.ldb + p * share, stride, nextRows > 0 ? stride / 16 : 0};
            nnPanelOfWidth<S, Rows, Vectors>(rv, lastLanes < S::W, g, n0, k0, kl, lastLanes, pf);
        }
    }
}

// NnRows × NnVectors tiles, or one panel of NnWideRows × NnWideVectors tiles where n fits it
// but not the narrower panel: each of attention's products (B a head's keys, 64 at a time, or
// V_h, d_k = 64 columns) in whole 6 × 4 tiles at AVX-512, not a 3-vector panel and a 1-vector
// one (each of whose steps loads 9 values for 8 FMAs). Wider panels everywhere lost to 8 × 3 on
// GPT-2's Conv1D products at 32 and 64 tokens (a partial last row tile; bench/README.md).
template <class S>
void nnRun(const SgemmArgs& g) {
    if (g.n > S::NnVectors * S::W && g.n <= S::NnWideVectors * S::W) nnRunTiles<S, S::NnWideRows, S::NnWideVectors>(g);
    else nnRunTiles<S, S::NnRows, S::NnVectors>(g);
}

#undef ATTNSCOPE_ROW_CASE

// ---------------------------------------------------------------- A·Bᵀ, many tokens: A packed
// Past 64 rows the A·Bᵀ tiles above read A (the activations) again for every 8 weight rows; here A
// is copied once per block into panels of MR = PkVectors·W rows laid out k-major, and a tile
// computes Cᵀ: MR rows of A (vectors) against PkCols weight rows (broadcasts, read in place along
// k), K's block in registers, then transposed in registers and added into C. (A·B the same way, its
// strips copied from B's rows by the first tile, lost to OpenBLAS and to the tiles above: a TLB
// miss per row of B; bench/README.md, "Past 64 tokens".)
constexpr long kPackedFrom = 65;
// Blocks measured at 128 and 512 tokens: kc = 768 (a strip of 12 weight rows, 36 KiB: L1, and
// twelve long sequential runs for the prefetcher; 384 was 3–10 % slower), mc = 128 rows (384 KiB
// of packed A: L2; 256 and 512 rows were slower at 512 tokens).
constexpr long kPkRows = 128, kPkK = 768;

template <class S>
constexpr long pkRows() { return S::PkVectors * S::W; }

// A's rows m0… (rows ≤ mc) over k0…k0+kc into panels [panel][kk][MR]; rows past the end are
// zeros. W × W blocks transposed in registers (element by element: 4 % of a product at 512 tokens).
template <class S>
void pkPackA(const SgemmArgs& g, long m0, long rows, long k0, long kc, float* out) {
    using V = typename S::V;
    constexpr long MR = pkRows<S>();
    for (long p = 0; p * MR < rows; ++p) {
        float* panel = out + p * kc * MR;
        for (long v = 0; v < S::PkVectors; ++v) {
            const long r0 = p * MR + v * S::W, live = lesser(S::W, rows - r0);  // live ≤ 0: all zeros
            const float* src = g.a + (m0 + r0) * g.lda + k0;
            for (long kk = 0; kk < kc; kk += S::W) {
                const int lanes = static_cast<int>(lesser(S::W, kc - kk));
                V t[S::W];
                #pragma GCC unroll 16
                for (int i = 0; i < S::W; ++i) {
                    const float* at = src + i * g.lda + kk;
                    t[i] = i >= live ? S::zero() : lanes == S::W ? S::load(at) : S::loadPart(at, lanes);
                }
                S::transpose(t);
                for (int i = 0; i < lanes; ++i) S::store(panel + (kk + i) * MR + v * S::W, t[i]);
            }
        }
    }
}

// The last, partial strip (cols < PkCols weight rows) packed [kk][PkCols], missing rows zero.
template <class S>
void pkPackStrip(const SgemmArgs& g, long n0, long cols, long k0, long kc, float* out) {
    constexpr long NR = S::PkCols;
    for (long kk = 0; kk < kc; ++kk)
        for (long j = 0; j < NR; ++j) out[kk * NR + j] = j < cols ? g.b[(n0 + j) * g.ldb + k0 + kk] : 0.0f;
}

// One MR × PkCols tile of Cᵀ over kc: ap a packed panel of A; the weights' column j at step kk is
// b[j·ldb + kk] (InPlace: PkCols rows of B) or b[kk·PkCols + j] (a packed strip). The first `rows`
// rows and `cols` columns are added into C.
template <class S, bool InPlace>
void pkTile(long kc, const float* ap, const float* b, long ldb, float* c, long ldc, long rows, long cols) {
    using V = typename S::V;
    constexpr int MV = S::PkVectors, NR = S::PkCols, MR = MV * S::W;
    static_assert(NR <= 12, "three row pointers of four rows each");
    V acc[NR][MV];
    #pragma GCC unroll 16
    for (int j = 0; j < NR; ++j)
        #pragma GCC unroll 4
        for (int v = 0; v < MV; ++v) acc[j][v] = S::zero();
    // In place: rows 4q … 4q + 3 at rq + {0, 1, 2, 3}·ldb, three pointers and two strides in
    // registers (twelve row pointers spilled to the stack: 152 instead of 171 GFLOP/s in L1).
    const float* rq[3] = {b, InPlace && NR > 4 ? b + 4 * ldb : b, InPlace && NR > 8 ? b + 8 * ldb : b};
    long ld1 = ldb, ld3 = 3 * ldb;
    for (long kk = 0; kk < kc; ++kk) {
        V av[MV];
        #pragma GCC unroll 4
        for (int v = 0; v < MV; ++v) av[v] = S::load(ap + kk * MR + v * S::W);
        if constexpr (InPlace) __asm__("" : "+r"(ld1), "+r"(ld3));  // strides, not 12 pointers
        #pragma GCC unroll 16
        for (int j = 0; j < NR; ++j) {
            const float* at = b + kk * NR + j;
            if constexpr (InPlace) {
                const float* row = rq[j / 4] + kk;
                at = j % 4 == 0 ? row : j % 4 == 1 ? row + ld1 : j % 4 == 2 ? row + 2 * ld1 : row + ld3;
            }
            const V bv = S::broadcast(at);
            #pragma GCC unroll 4
            for (int v = 0; v < MV; ++v) acc[j][v] = S::fma(av[v], bv, acc[j][v]);
        }
    }
    // Cᵀ's W × W blocks transposed in registers (columns past PkCols zero), each row added to C.
    #pragma GCC unroll 4
    for (int v = 0; v < MV; ++v) {
        V t[S::W];
        #pragma GCC unroll 16
        for (int j = 0; j < S::W; ++j) t[j] = j < NR ? acc[j][v] : S::zero();
        S::transpose(t);
        const long vRows = lesser(S::W, rows - v * S::W);
        if (vRows == S::W && cols == NR) {
            #pragma GCC unroll 16
            for (int r = 0; r < S::W; ++r) S::addToPart(c + (v * S::W + r) * ldc, t[r], NR);
        } else {
            for (long r = 0; r < vRows; ++r) S::addToPart(c + (v * S::W + r) * ldc, t[r], static_cast<int>(cols));
        }
    }
}

// Blocks of kPkRows rows of A and kPkK of K: A's block packed (L2), then strip by strip of PkCols
// weight rows (L1), every panel of the block against the strip. The weights are read in place,
// once per row block.
template <class S>
void pkRun(const SgemmArgs& g, float* work) {
    constexpr long MR = pkRows<S>(), NR = S::PkCols;
    float* packedA = work;
    float* strip = work + kPkRows * kPkK;
    for (long m0 = 0; m0 < g.m; m0 += kPkRows) {
        const long rows = lesser(kPkRows, g.m - m0);
        for (long k0 = 0; k0 < g.k; k0 += kPkK) {
            const long kc = lesser(kPkK, g.k - k0);
            pkPackA<S>(g, m0, rows, k0, kc, packedA);
            for (long n0 = 0; n0 < g.n; n0 += NR) {
                const long cols = lesser(NR, g.n - n0);
                if (cols < NR) pkPackStrip<S>(g, n0, cols, k0, kc, strip);  // the last weight rows
                for (long p = 0; p * MR < rows; ++p) {
                    const float* ap = packedA + p * kc * MR;
                    float* c = g.c + (m0 + p * MR) * g.ldc + n0;
                    const long tileRows = lesser(MR, rows - p * MR);
                    if (cols == NR) pkTile<S, true>(kc, ap, g.b + n0 * g.ldb + k0, g.ldb, c, g.ldc, tileRows, cols);
                    else pkTile<S, false>(kc, ap, strip, 0, c, g.ldc, tileRows, cols);
                }
            }
        }
    }
}

// Floats of work space pkRun needs (the caller's thread-local buffer).
template <class S>
constexpr long pkWorkFloats() { return kPkRows * kPkK + kPkK * S::PkCols; }

// Past 64 rows always; below, at AVX-512, when A's rows nearly fill whole panels (at most an
// eighth of the panel rows padding): bert-base's forward pass, 1 thread, 2026-11-27, median ms of
// 6 alternating rounds, tiles / packed: 32 tokens 65.1 / 58.9, 64: 129 / 97; but 24: 51 / 62,
// 40: 84 / 105, 48: 94 / 97 (the padded rows cost more than the packing saves).
template <class S>
bool packedWins(long m) {
    if (m >= kPackedFrom) return true;
    if constexpr (S::W != 16) return false;  // AVX2's 16-row panels: not measured below 65
    const long padded = (m + pkRows<S>() - 1) / pkRows<S>() * pkRows<S>();
    return (padded - m) * 8 <= m;
}

template <class S>
void sgemmRun(const SgemmArgs& g) {
    if (g.m <= 0 || g.n <= 0 || g.k <= 0) return;
    if (g.transB) {
        if (g.overwrite)  // these tiles add: C starts at zero
            for (long i = 0; i < g.m; ++i)
                for (long j = 0; j < g.n; ++j) g.c[i * g.ldc + j] = 0.0f;
        if (packedWins<S>(g.m)) pkRun<S>(g, sgemmWorkspace(pkWorkFloats<S>()));
        else ntRun<S>(g);
    } else {
        nnRun<S>(g);
    }
}
