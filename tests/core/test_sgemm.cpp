// Our own SGEMM (core/model/sgemm.hpp) against a double-precision product computed here with plain
// loops, on awkward shapes (row counts that leave partial tiles, N and K not multiples of 16, K
// split into blocks), strided rows, both layouts, the bias kept (beta = 1) or C overwritten (its
// NaNs never read), on every SIMD level
// this CPU runs, for both kernel families (up to 64 rows, and the packed one past that); the
// padding around C must stay untouched. `core_tests "[sgemm]" -s` prints every largest difference.
#include <catch2/catch.hpp>
#include <cmath>
#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <new>
#include <random>
#include <sstream>
#include <vector>

#include "core/model/blas_kernels.hpp"
#include "core/model/sgemm.hpp"

using namespace attnscope;

namespace {

struct Case {
    long m, n, k;
    bool transB;
    long pad;  // extra floats at the end of every row of A, B and C
    bool overwrite = false;  // C = A·op(B): C starts as NaNs, which must not reach the result
};

struct Worst {
    double diff = 0, allowed = 0;
    long row = -1, col = -1;
    bool paddingTouched = false;
};

// Runs `product` on random A, B and a random bias in C; compares with the double reference.
template <class Product>
Worst check(const Case& c, Product product) {
    std::mt19937 rng(static_cast<unsigned>(c.m * 7919 + c.n * 31 + c.k + c.transB));
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    const long lda = c.k + c.pad, ldb = (c.transB ? c.k : c.n) + c.pad, ldc = c.n + c.pad;
    const long bRows = c.transB ? c.n : c.k;
    std::vector<float> a(static_cast<std::size_t>(c.m * lda)), b(static_cast<std::size_t>(bRows * ldb));
    std::vector<float> out(static_cast<std::size_t>(c.m * ldc));
    for (float& x : a) x = value(rng);
    for (float& x : b) x = value(rng);
    for (float& x : out) x = value(rng);  // the bias (and the padding, which must survive)
    if (c.overwrite)
        for (long i = 0; i < c.m; ++i) std::fill_n(out.begin() + i * ldc, c.n, std::nanf(""));
    const std::vector<float> before = out;
    product(SgemmArgs{c.m, c.n, c.k, a.data(), lda, b.data(), ldb, c.transB, out.data(), ldc, c.overwrite});
    Worst worst;
    bool paddingTouched = false;
    for (long i = 0; i < c.m; ++i) {
        for (long j = 0; j < c.n; ++j) {
            double exact = c.overwrite ? 0.0 : before[static_cast<std::size_t>(i * ldc + j)], scale = 1.0;
            for (long p = 0; p < c.k; ++p) {
                const double bv = c.transB ? b[static_cast<std::size_t>(j * ldb + p)] : b[static_cast<std::size_t>(p * ldb + j)];
                exact += static_cast<double>(a[static_cast<std::size_t>(i * lda + p)]) * bv;
                scale += std::abs(a[static_cast<std::size_t>(i * lda + p)] * bv);
            }
            // float rounding of the k products and sums grows with Σ|a·b|: allowed 1e-6 of it
            const double diff = std::abs(out[static_cast<std::size_t>(i * ldc + j)] - exact), allowed = 1e-6 * scale;
            const bool worse = !(diff / allowed <= worst.diff / worst.allowed) && !std::isnan(worst.diff);  // a NaN stays
            if (worst.row < 0 || worse) worst = Worst{diff, allowed, i, j, false};
        }
        for (long j = c.n; j < ldc; ++j)
            if (out[static_cast<std::size_t>(i * ldc + j)] != before[static_cast<std::size_t>(i * ldc + j)]) paddingTouched = true;
    }
    worst.paddingTouched = paddingTouched;
    return worst;
}

const std::vector<Case>& awkwardCases() {
    static const std::vector<Case> cases = [] {
        std::vector<Case> all;
        for (bool transB : {true, false})
            for (long m : {1L, 3L, 17L, 32L, 65L}) {
                all.push_back({m, 37, 50, transB, 0});     // N, K below one panel / one vector
                all.push_back({m, 101, 771, transB, 5});   // partial tiles everywhere, strided rows
                all.push_back({m, 200, 1030, transB, 3});  // K split into blocks (768 + 262)
                all.push_back({m, 7, 3, transB, 1});       // K shorter than a vector
            }
        return all;
    }();
    return cases;
}

// Past 64 rows (and at AVX-512 below that when the panels are nearly full: 30, 60, 64) A·Bᵀ runs
// the packed family (A copied into panels of 32 rows at AVX-512, 16 at AVX2;
// strips of 12 / 6 weight rows; K in blocks of 768, 128 rows a block): rows that leave a partial
// panel and cross row blocks, strips cut short, K ending mid-block. A·B keeps its tiles there.
const std::vector<Case>& packedCases() {
    static const std::vector<Case> cases = [] {
        std::vector<Case> all;
        for (bool transB : {true, false})
            for (long m : {30L, 60L, 64L, 65L, 97L, 130L, 513L}) {
                all.push_back({m, 101, 771, transB, 5});  // 101 = 8·12 + 5 = 16·6 + 5; K = 768 + 3
                all.push_back({m, 26, 1600, transB, 3});  // two strips (four at AVX2) and two rows; 3 K blocks
                all.push_back({m, 7, 3, transB, 1});      // narrower than a strip, K shorter than a vector
                all.push_back({m, 48, 40, transB, 0});    // whole strips, rows packed
            }
        return all;
    }();
    return cases;
}

// Attention's products (core/model/attention.cpp): C = A·B over one panel of keys or V_h's d_k
// columns, n from 49 to 64 (AVX-512's 6 × 4 tiles: 6-row tiles and the last 1…5 rows), K one
// block (d_k) or several (a block of 128 query rows against up to T_k keys), C overwritten or
// added to; the same shapes for A·Bᵀ (zeroed first, then its tiles add).
const std::vector<Case>& attentionCases() {
    static const std::vector<Case> cases = [] {
        std::vector<Case> all;
        for (bool overwrite : {true, false})
            for (bool transB : {false, true})
                for (long m : {1L, 5L, 6L, 13L, 128L}) {
                    all.push_back({m, 64, 64, transB, 0, overwrite});   // a panel of 64 keys, d_k = 64
                    all.push_back({m, 49, 64, transB, 3, overwrite});   // the wide tile's last vector one lane
                    all.push_back({m, 64, 300, transB, 2, overwrite});  // A·V over 300 keys: K in 3 blocks
                    all.push_back({m, 40, 70, transB, 1, overwrite});   // narrower: the 8 × 3 tiles
                }
        return all;
    }();
    return cases;
}

std::string describe(const Case& c, const Worst& w) {
    std::ostringstream text;
    text << (c.overwrite ? "overwriting " : "") << (c.transB ? "A·Bᵀ" : "A·B") << " m=" << c.m << " n=" << c.n << " k=" << c.k << " pad=" << c.pad
         << ": largest difference " << w.diff << " at C(" << w.row << ", " << w.col << "), allowed " << w.allowed;
    return text.str();
}

void checkLevel(SimdLevel level, const std::vector<Case>& cases) {
    for (const Case& c : cases) {
        const Worst w = check(c, [level](const SgemmArgs& args) { REQUIRE(sgemmOnLevel(level, args)); });
        INFO(describe(c, w));
        CHECK(w.diff <= w.allowed);
        CHECK_FALSE(w.paddingTouched);
    }
}

// checkLevel where this CPU runs the level's kernels; elsewhere a warning says what went unchecked.
void checkLevelIfRunnable(SimdLevel level, const std::vector<Case>& cases) {
    const CpuFeatures cpu = detectCpuFeatures();
    if (level == SimdLevel::Avx512 && !canRunAvx512Kernels(cpu)) {
        WARN("this CPU has no AVX-512 F+BW+DQ+VL: the AVX-512 kernels are not checked here");
        return;
    }
    if (level == SimdLevel::Avx2 && !canRunAvx2Kernels(cpu)) {
        WARN("this CPU has no AVX2+FMA: the AVX2 kernels are not checked here");
        return;
    }
    checkLevel(level, cases);
}

}  // namespace

TEST_CASE("our SGEMM on AVX-512 against a double product: awkward shapes, both layouts, bias kept", "[sgemm]") {
    checkLevelIfRunnable(SimdLevel::Avx512, awkwardCases());
}

TEST_CASE("our SGEMM on AVX2+FMA against a double product: awkward shapes, both layouts, bias kept", "[sgemm]") {
    checkLevelIfRunnable(SimdLevel::Avx2, awkwardCases());
}

TEST_CASE("our packed SGEMM (full panels, more than 64 rows) on AVX-512 against a double product", "[sgemm]") {
    checkLevelIfRunnable(SimdLevel::Avx512, packedCases());
}

TEST_CASE("our packed SGEMM (full panels, more than 64 rows) on AVX2+FMA against a double product", "[sgemm]") {
    checkLevelIfRunnable(SimdLevel::Avx2, packedCases());
}

TEST_CASE("our SGEMM on AVX-512 and AVX2 in attention's shapes: one panel of 64 columns, C overwritten or added to", "[sgemm]") {
    checkLevelIfRunnable(SimdLevel::Avx512, attentionCases());
    checkLevelIfRunnable(SimdLevel::Avx2, attentionCases());
}

TEST_CASE("our SGEMM on two and three threads: the column parts add up to the whole product", "[sgemm]") {
    if (activeSimdLevel() == SimdLevel::Sse2) {
        CHECK_FALSE(ownSgemm(SgemmArgs{1, 1, 1}, 2));  // nothing of ours runs on this CPU
        return;
    }
    for (int threads : {2, 3})
        for (const Case& c : {Case{32, 200, 771, true, 2}, Case{17, 3072, 96, false, 0}, Case{5, 50, 40, true, 0},
                              Case{130, 200, 771, true, 2}, Case{97, 500, 400, true, 1}}) {  // packed: A per part
            const Worst w = check(c, [threads](const SgemmArgs& args) { REQUIRE(ownSgemm(args, threads)); });
            INFO(threads << " threads, " << describe(c, w));
            CHECK(w.diff <= w.allowed);
            CHECK_FALSE(w.paddingTouched);
        }
}

TEST_CASE("a part that throws on the pool reaches the caller, and the pool keeps working", "[sgemm]") {
    // A pool worker that let an exception out (say the packed kernels' work space not allocated)
    // would end the process; the caller gets it once every part is done, from either side.
    for (int thrower : {0, 1, 2}) {
        INFO("part " << thrower << " throws");
        std::vector<int> ran(3, 0);
        bool caught = false;
        try {
            runOnColumnPool(3, [&](int part) {
                ran[static_cast<std::size_t>(part)] = 1;
                if (part == thrower) throw std::bad_alloc();
            });
        } catch (const std::bad_alloc&) {
            caught = true;
        }
        CHECK(caught);
        CHECK(ran == std::vector<int>{1, 1, 1});  // the other parts still ran
    }
    std::vector<int> ran(3, 0);
    CHECK(runOnColumnPool(3, [&](int part) { ran[static_cast<std::size_t>(part)] = part + 1; }));
    CHECK(ran == std::vector<int>{1, 2, 3});
}

TEST_CASE("runInSlices covers 0…n once, in whole grains, on the pool's threads, one slice when it cannot split",
          "[sgemm]") {
    std::mutex lock;
    std::vector<std::pair<std::size_t, std::size_t>> slices;
    std::set<std::thread::id> threads;
    const auto record = [&](std::size_t begin, std::size_t end) {
        const std::lock_guard held(lock);
        slices.emplace_back(begin, end);
        threads.insert(std::this_thread::get_id());
    };
    const auto sliced = [&](std::size_t n, std::size_t grain, int parts) {
        slices.clear();
        threads.clear();
        runInSlices(n, grain, parts, record);
        std::sort(slices.begin(), slices.end());
        return slices;
    };
    using Slices = std::vector<std::pair<std::size_t, std::size_t>>;
    // 10 grains of 100 in 3: grains 0–2, 3–5, 6–9 (⌊10·i/3⌋); the last slice takes the odd 50.
    CHECK(sliced(1000, 100, 3) == Slices{{0, 300}, {300, 600}, {600, 1000}});
    CHECK(threads.size() == 3);
    CHECK(sliced(1050, 100, 2) == Slices{{0, 500}, {500, 1050}});
    CHECK(threads.size() == 2);
    CHECK(sliced(199, 100, 2) == Slices{{0, 199}});  // one grain: the calling thread alone
    CHECK(threads == std::set<std::thread::id>{std::this_thread::get_id()});
    CHECK(sliced(1000, 100, 1) == Slices{{0, 1000}});
    // Asked from a part already on the pool: that part's thread runs it whole.
    std::vector<Slices> inner(2);
    REQUIRE(runOnColumnPool(2, [&](int part) {
        runInSlices(1000, 100, 2, [&](std::size_t begin, std::size_t end) {
            inner[static_cast<std::size_t>(part)].emplace_back(begin, end);
        });
    }));
    CHECK(inner == std::vector<Slices>{{{0, 1000}}, {{0, 1000}}});
}

TEST_CASE("the routing rule: ours up to 64 tokens, and nn.Linear's products up to 128 on AVX-512", "[sgemm]") {
    if (std::getenv("ATTNSCOPE_SGEMM")) {
        WARN("ATTNSCOPE_SGEMM is set: every product goes to one side, the rule is not checked");
        return;
    }
    const bool avx512 = activeSimdLevel() == SimdLevel::Avx512;
    CHECK(ownSgemmWins(64, 3072, 768, false, 1));
    CHECK(ownSgemmWins(1, 768, 768, true, 2));
    CHECK(ownSgemmWins(128, 3072, 768, true, 1) == avx512);
    CHECK(ownSgemmWins(65, 768, 3072, true, 2) == avx512);
    CHECK_FALSE(ownSgemmWins(129, 768, 768, true, 1));
    CHECK_FALSE(ownSgemmWins(512, 3072, 768, true, 1));
    CHECK_FALSE(ownSgemmWins(65, 2304, 768, false, 1));  // Conv1D past 64: OpenBLAS
}

TEST_CASE("our kernels' SIMD level: the CPU's best, capped by the family the user forced", "[kernels]") {
    CpuFeatures avx512;
    avx512.sse3 = avx512.avx2 = avx512.fma = true;
    avx512.avx512f = avx512.avx512bw = avx512.avx512dq = avx512.avx512vl = true;
    CpuFeatures avx2 = avx512;
    avx2.avx512f = avx2.avx512bw = avx2.avx512dq = avx2.avx512vl = false;
    const CpuFeatures old;  // SSE2 only
    CHECK(simdLevelFor(KernelFamily::Auto, avx512) == SimdLevel::Avx512);
    CHECK(simdLevelFor(KernelFamily::Library, avx512) == SimdLevel::Avx512);
    CHECK(simdLevelFor(KernelFamily::Avx2, avx512) == SimdLevel::Avx2);
    CHECK(simdLevelFor(KernelFamily::Sse3, avx512) == SimdLevel::Sse2);
    CHECK(simdLevelFor(KernelFamily::Auto, avx2) == SimdLevel::Avx2);
    CHECK(simdLevelFor(KernelFamily::Avx512, avx2) == SimdLevel::Avx2);  // refused by main() anyway
    CHECK(simdLevelFor(KernelFamily::Auto, old) == SimdLevel::Sse2);
    CHECK(simdLevelFor(KernelFamily::Avx2, old) == SimdLevel::Sse2);
    CHECK(simdLevelName(SimdLevel::Avx512) == "avx512");
    CHECK(simdLevelName(SimdLevel::Sse2) == "sse2");
}
