// BF16 products through oneDNN (see bf16_products.hpp).
#include "core/model/bf16_products.hpp"

#include <array>
#include <atomic>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#ifdef ATTNSCOPE_HAVE_ONEDNN
#include <oneapi/dnnl/dnnl.hpp>
#endif

namespace attnscope {

namespace {

constexpr std::array<std::pair<std::string_view, ProductsChoice>, 3> kNames{{
    {"auto", ProductsChoice::Auto}, {"bf16", ProductsChoice::Bf16}, {"f32", ProductsChoice::F32}}};

std::atomic<ProductsChoice> chosen{ProductsChoice::Auto};  // constant-initialised: valid before main

}  // namespace

std::optional<ProductsChoice> parseProductsChoice(std::string_view name) {
    for (const auto& [text, choice] : kNames)
        if (equalIgnoringCase(name, text)) return choice;
    return std::nullopt;
}

std::string_view productsChoiceName(ProductsChoice choice) {
    for (const auto& [text, candidate] : kNames)
        if (candidate == choice) return text;
    return "auto";
}

bool canRunBf16Products(const CpuFeatures& cpu) {
    return cpu.avx512bf16 && cpu.avx512f && cpu.avx512bw && cpu.avx512vl;
}

// Auto asks for more than AVX512_BF16: on this project's AVX512_BF16 Xeon a vdpbf16ps retires
// half the flops of the two FMA ports, and oneDNN's BF16 matmul ran at 0.6× OpenBLAS's f32
// (bench/README.md "BF16 products"); AMX tiles multiply BF16 many times faster than FMA.
ProductsDecision decideProducts(ProductsChoice choice, const CpuFeatures& cpu, bool haveLibrary) {
    const bool possible = haveLibrary && canRunBf16Products(cpu);
    switch (choice) {
        case ProductsChoice::F32: return {false, true};
        case ProductsChoice::Bf16: return {possible, possible};
        case ProductsChoice::Auto: break;
    }
    return {possible && cpu.amxbf16, true};
}

void setProductsChoice(ProductsChoice choice) { chosen.store(choice, std::memory_order_relaxed); }
ProductsChoice productsChoice() { return chosen.load(std::memory_order_relaxed); }

bool multipliedInBf16(const MatrixRef& W) { return !W.data && W.dtype == DType::BF16 && bf16ProductsActive(); }

bool bf16ProductsActive() {
    static const CpuFeatures cpu = detectCpuFeatures();
    const ProductsDecision decision = decideProducts(productsChoice(), cpu, haveBf16Library());
    return decision.bf16 && decision.runnable;
}

#ifdef ATTNSCOPE_HAVE_ONEDNN

// oneDNN runs on OpenMP; its thread count follows OpenBLAS's (productThreadCount), so one setting
// governs every product. Weak: resolved in the libgomp oneDNN loads.
extern "C" int omp_get_max_threads(void) __attribute__((weak));
extern "C" void omp_set_num_threads(int) __attribute__((weak));

namespace {

using dnnl::memory;
using Dims = memory::dims;
// Each primitive holds its JIT-compiled code; a run at one length needs six (q, k/v, gate/up, down,
// the logits' blocks).
constexpr std::size_t kMaxPrimitives = 64;

// The calling thread's engine, stream, primitives by shape and rounded activations: the window's
// model worker and a command-line run each keep their own, reused across layers and runs.
struct Bf16Context {
    dnnl::engine engine{dnnl::engine::kind::cpu, 0};
    dnnl::stream stream{engine};
    std::map<std::tuple<Eigen::Index, Eigen::Index, Eigen::Index, bool>, dnnl::matmul> matmuls;
    std::map<std::pair<Eigen::Index, Eigen::Index>, dnnl::reorder> roundings;
    std::vector<std::uint16_t> roundedX;
};

Bf16Context& threadContext() {
    thread_local Bf16Context context;
    return context;
}

memory::desc rowMajor(Eigen::Index rows, Eigen::Index cols, memory::data_type type) {
    return memory::desc(Dims{rows, cols}, type, Dims{cols, 1});
}

// op(W) as the K×N matrix oneDNN multiplies by, described over the stored words (no copy):
// nn.Linear's [N, K] read with strides {1, K}, Conv1D's [K, N] as it is.
memory::desc weightDesc(Eigen::Index k, Eigen::Index n, bool transB) {
    return memory::desc(Dims{k, n}, memory::data_type::bf16, transB ? Dims{1, k} : Dims{n, 1});
}

// dst = X·op(W) + dst: the sum post-op keeps the bias (or the zeros) the caller put in Y.
dnnl::matmul& matmulFor(Bf16Context& c, Eigen::Index m, Eigen::Index n, Eigen::Index k, bool transB) {
    const auto key = std::make_tuple(m, n, k, transB);
    if (auto found = c.matmuls.find(key); found != c.matmuls.end()) return found->second;
    if (c.matmuls.size() >= kMaxPrimitives) c.matmuls.clear();  // a window's many sentence lengths: bounded
    dnnl::post_ops sum;
    sum.append_sum(1.0f);
    dnnl::primitive_attr attr;
    attr.set_post_ops(sum);
    const dnnl::matmul::desc desc(rowMajor(m, k, memory::data_type::bf16), weightDesc(k, n, transB),
                                  rowMajor(m, n, memory::data_type::f32));
    return c.matmuls.emplace(key, dnnl::matmul(dnnl::matmul::primitive_desc(desc, attr, c.engine))).first->second;
}

// X rounded to bfloat16 (nearest even) by oneDNN's own vectorised, threaded reorder.
memory roundedActivations(Bf16Context& c, const MatF& X) {
    const auto key = std::make_pair(X.rows(), X.cols());
    const memory::desc from = rowMajor(X.rows(), X.cols(), memory::data_type::f32);
    const memory::desc to = rowMajor(X.rows(), X.cols(), memory::data_type::bf16);
    c.roundedX.resize(static_cast<std::size_t>(X.size()));
    memory source(from, c.engine, const_cast<float*>(X.data()));
    memory rounded(to, c.engine, c.roundedX.data());
    if (c.roundings.size() >= kMaxPrimitives && !c.roundings.count(key)) c.roundings.clear();
    auto found = c.roundings.find(key);
    if (found == c.roundings.end()) found = c.roundings.emplace(key, dnnl::reorder(source, rounded)).first;
    found->second.execute(c.stream, source, rounded);
    return rounded;
}

void followProductThreads() {
    const int threads = productThreadCount();
    if (omp_get_max_threads && omp_set_num_threads && omp_get_max_threads() != threads) omp_set_num_threads(threads);
}

}  // namespace

bool haveBf16Library() { return true; }

std::string bf16LibraryText() {
    const dnnl_version_t* v = dnnl_version();
    return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch);
}

bool bf16ProductInto(const MatF& X, const MatrixRef& W, bool transB, MatF& Y) {
    if (!multipliedInBf16(W) || X.rows() == 0) return false;
    followProductThreads();
    Bf16Context& c = threadContext();
    const Eigen::Index m = X.rows(), n = Y.cols(), k = X.cols();
    memory rounded = roundedActivations(c, X);
    memory weights(weightDesc(k, n, transB), c.engine, const_cast<std::uint8_t*>(W.halves));
    memory out(rowMajor(m, n, memory::data_type::f32), c.engine, Y.data());
    matmulFor(c, m, n, k, transB)
        .execute(c.stream, {{DNNL_ARG_SRC, rounded}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, out}});
    c.stream.wait();
    return true;
}

#else

bool haveBf16Library() { return false; }
std::string bf16LibraryText() { return {}; }
bool bf16ProductInto(const MatF&, const MatrixRef&, bool, MatF&) { return false; }

#endif

}  // namespace attnscope
