// A kept causal head's hidden zeros cost no memory (core/kernels/zero_pages.hpp): its whole pages
// are given back instead of written, and read back as zeros.
#include <catch2/catch.hpp>
#include <sys/resource.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/kernels/zero_pages.hpp"
#include "core/model/attention.hpp"

namespace attnscope {

TEST_CASE("zeroReleasingPages: every element 0, the whole pages inside given back", "[zero_pages]") {
    constexpr std::size_t count = 64 * 1024;  // 256 KiB: 63 or 64 whole pages at any alignment
    std::vector<float> buffer(count + 100, 1.0f);  // every page written, so resident
    float* begin = buffer.data() + 37;             // not on a page boundary
    REQUIRE(residentBytesOf(begin, count * sizeof(float)) >= 62 * 4096);
    zeroReleasingPages(begin, count);
    CHECK(residentBytesOf(begin, count * sizeof(float)) == 0);  // before any read (mincore counts the zero page)
    std::size_t nonZero = 0;
    for (std::size_t i = 0; i < count; ++i) nonZero += begin[i] != 0.0f;
    CHECK(nonZero == 0);
    CHECK(buffer[36] == 1.0f);                // the neighbours are untouched
    CHECK(buffer[37 + count] == 1.0f);

    std::vector<float> small(300, 2.0f);  // under a page: written
    zeroReleasingPages(small.data() + 1, 298);
    CHECK(small[0] == 2.0f);
    CHECK(small[1] == 0.0f);
    CHECK(small[298] == 0.0f);
    CHECK(small[299] == 2.0f);
}

TEST_CASE("zeroQueueingPages: the whole pages handed back together, more ranges than one call takes", "[zero_pages]") {
    // 1,100 rows of 3 pages each (12 KiB), every row's last 2,000 floats zeroed: each range holds
    // one whole page at least and leaves the row's first 1,072 floats; 1,100 ranges take two calls.
    constexpr std::size_t rows = 1100, width = 3 * 1024, zeroed = 2000;
    std::vector<float> buffer(rows * width + 1024, 3.0f);
    float* const base = buffer.data() + 5;  // rows not on page boundaries
    for (std::size_t r = 0; r < rows; ++r) zeroQueueingPages(base + r * width + (width - zeroed), zeroed);
    releaseQueuedPages();
    std::size_t resident = 0;  // before any read (mincore counts the zero page a read maps)
    for (std::size_t r = 0; r < rows; ++r) resident += residentBytesOf(base + r * width + (width - zeroed), zeroed * sizeof(float));
    CHECK(resident == 0);
    std::size_t wrong = 0, firstWrong = SIZE_MAX;
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < width; ++c) {
            const float want = c < width - zeroed ? 3.0f : 0.0f;
            if (base[r * width + c] != want && wrong++ == 0) firstWrong = r * width + c;
        }
    INFO("first wrong at row " << firstWrong / width << " column " << firstWrong % width);
    CHECK(wrong == 0);
    CHECK(buffer[4] == 3.0f);
    CHECK(buffer[5 + rows * width] == 3.0f);
    // A second release with nothing queued changes nothing.
    releaseQueuedPages();
    CHECK(base[width - zeroed - 1] == 3.0f);
}

namespace {

struct Qkv {
    MatF q, k, v;
};

// Q, K and V of T rows of `cols` N(0, 1) entries.
Qkv randomQkv(Eigen::Index T, Eigen::Index cols, unsigned seed) {
    std::mt19937 random(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    Qkv m{MatF(T, cols), MatF(T, cols), MatF(T, cols)};
    for (MatF* x : {&m.q, &m.k, &m.v})
        for (Eigen::Index i = 0; i < x->size(); ++i) x->data()[i] = normal(random);
    return m;
}

}  // namespace

TEST_CASE("a kept causal head: its weights against a softmax in double, its hidden half not resident", "[zero_pages]") {
    // One head, d_k = 4, T = 4,096: a row is 16 KiB (4 pages), so the hidden keys of the first
    // three quarters of the rows hold whole pages.
    constexpr Eigen::Index T = 4096, dk = 4;
    const Qkv qkv = randomQkv(T, dk, 7);
    const MatF &Q = qkv.q, &K = qkv.k, &V = qkv.v;
    LayerTrace layer;
    MatF context;
    multiHeadAttentionInto(Q, K, V, AttentionShape{1, 1, true, 0, 0}, LayerDetail::WeightsOnly, layer, {}, context);
    REQUIRE(layer.heads.size() == 1);
    const AttentionWeights& w = layer.heads[0].weights;
    REQUIRE(w.isFloat());

    // Resident (measured before any read: mincore counts the zero page a read maps): a row's pages up to its token and the one its zeros start in, about 5/8 of the
    // matrix (Σ over rows of ⌈4·(i+1)/4096⌉ pages of 4); the page-granular bound is 0.66.
    const auto bytes = static_cast<std::size_t>(T * T) * sizeof(float);
    const double resident = double(residentBytesOf(w.visit([](const auto& m) { return static_cast<const void*>(m.data()); }), bytes));
    INFO("resident " << resident / double(bytes) << " of the head's T×T floats");
    CHECK(resident < 0.66 * double(bytes));
    CHECK(resident > 0.40 * double(bytes));  // the visible half is there

    // softmax_j(q_i·k_j / 2) over j ≤ i, in double; 0 past i. Every 7th row, all of it.
    double largest = 0;
    Eigen::Index firstBad = -1;
    for (Eigen::Index i = 0; i < T; i += 7) {
        std::vector<double> s(static_cast<std::size_t>(i + 1));
        double top = -INFINITY, sum = 0;
        for (Eigen::Index j = 0; j <= i; ++j) {
            double dot = 0;
            for (Eigen::Index c = 0; c < dk; ++c) dot += double(Q(i, c)) * double(K(j, c));
            s[static_cast<std::size_t>(j)] = dot / 2.0;
            top = std::max(top, dot / 2.0);
        }
        for (double& x : s) sum += (x = std::exp(x - top));
        for (Eigen::Index j = 0; j < T; ++j) {
            const double expected = j <= i ? s[static_cast<std::size_t>(j)] / sum : 0.0;
            const double diff = std::abs(w(i, j) - expected);
            if (diff > largest) largest = diff;
            if (firstBad < 0 && (diff > 1e-6 || (j > i && w(i, j) != 0.0))) firstBad = i * T + j;
        }
    }
    INFO("largest difference " << largest << ", first mismatch at row " << firstBad / T << " column " << firstBad % T);
    CHECK(firstBad == -1);

}

namespace {

long minorFaults() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

// Two causal heads at T = 4,096 (rows of 16 KiB) computed as `detail` twice in the same buffers:
// the second run's minor page faults (the two heads' T×T weights are 32,768 pages).
long secondRunFaults(LayerDetail detail, LayerTrace& layer) {
    constexpr Eigen::Index T = 4096, dk = 8;
    const Qkv qkv = randomQkv(T, 2 * dk, 11);
    const AttentionShape shape{2, 2, true, 0, 0};
    MatF context;
    multiHeadAttentionInto(qkv.q, qkv.k, qkv.v, shape, detail, layer, {}, context);
    const long before = minorFaults();
    multiHeadAttentionInto(qkv.q, qkv.k, qkv.v, shape, detail, layer, {}, context);
    return minorFaults() - before;
}

}  // namespace

TEST_CASE("a kept causal head rebuilt in its own buffers faults in no page, with A·V or without", "[zero_pages]") {
    // WeightsOnly: in each diagonal block of 128 rows, A·V reads the hidden keys up to the block's
    // end. Given back as pages, some of those (about 3 × 124 rows a head, where a row's page
    // boundary falls inside its block's hidden keys) were mapped to the zero page by that read, and
    // the next layer's scores written there faulted (copy-on-write, with a TLB shootdown). Now they
    // are written as zeros and stay.
    // WeightsNoOutput (a long run's layer rebuilt for its weights) gives back each row's pages from
    // its token on. In the same rows a page boundary falls between the token and the block's end
    // (the buffer not on a page boundary): the scores written there faulted those pages in again at
    // every rebuild, 744 faults for these two heads. The block's own keys are now scored aside and
    // only each row's visible part copied.
    // Either way the second run writes only pages the first one wrote, and gives back the same ones.
    for (const LayerDetail detail : {LayerDetail::WeightsOnly, LayerDetail::WeightsNoOutput}) {
        LayerTrace layer;
        const long faults = secondRunFaults(detail, layer);
        INFO((detail == LayerDetail::WeightsOnly ? "with A·V: " : "without: ") << faults << " minor page faults in the second run");
        CHECK(faults < 100);
        REQUIRE(layer.heads.size() == 2);
        CHECK(layer.heads[1].weights(4095, 4095) > 0.0);  // written this run: the last row sees itself
        CHECK(layer.heads[1].weights(1000, 1023) == 0.0);  // a hidden key: zero, written or given back
    }
}

TEST_CASE("a causal head kept without A·V gives back its diagonal blocks' hidden pages too", "[zero_pages]") {
    // One head at T = 4,096 as WeightsOnly (A·V reads each diagonal block's hidden keys: written as
    // zeros, pages given back past the block) and as WeightsNoOutput (a long run's layer rebuilt
    // for its weights: no A·V, pages given back from the token on). Rows 16 KiB apart, so in 3 ×
    // 124 rows a page boundary falls between the token and its block's end: that many pages more.
    constexpr Eigen::Index T = 4096, dk = 4;
    const Qkv qkv = randomQkv(T, dk, 5);
    const MatF &Q = qkv.q, &K = qkv.k, &V = qkv.v;
    const auto residentAfter = [&](LayerDetail detail) {
        LayerTrace layer;
        MatF context;
        multiHeadAttentionInto(Q, K, V, AttentionShape{1, 1, true, 0, 0}, detail, layer, {}, context);
        const AttentionWeights& w = layer.heads.at(0).weights;
        return residentBytesOf(w.visit([](const auto& m) { return static_cast<const void*>(m.data()); }),
                               static_cast<std::size_t>(T * T) * sizeof(float));
    };
    const std::size_t withOutput = residentAfter(LayerDetail::WeightsOnly);
    const std::size_t weightsAlone = residentAfter(LayerDetail::WeightsNoOutput);
    INFO("resident with A·V " << withOutput << " bytes, without " << weightsAlone);
    CHECK(weightsAlone + 300 * 4096 <= withOutput);
    CHECK(withOutput - weightsAlone <= 2 * 1024 * 1024);
}

}  // namespace attnscope
