// The products of BF16 weights computed in BF16 (issue 31), beside blas_kernels (the f32 kernels):
// oneDNN's matmul reads the checkpoint's bfloat16 words where the mapping holds them, with the
// activations rounded to bfloat16 in a reused buffer and float32 accumulation; the f32 path widens
// one matrix at a time to float and multiplies with OpenBLAS (blocks.cpp). Which path runs is a
// pure decision from the CPU's features, the user's choice and the build, testable with made-up
// features; the start-up hook (core/kernels/startup.cpp) sets the choice from --products or
// ATTNSCOPE_PRODUCTS. Why auto keeps f32 on AVX512_BF16 alone: bench/README.md "BF16 products".
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/model/blas_kernels.hpp"
#include "core/model/blocks.hpp"

namespace attnscope {

// The products a user can ask for (--products NAME or ATTNSCOPE_PRODUCTS=NAME).
enum class ProductsChoice {
    Auto,  // BF16 products where they are faster than f32: the CPU has AMX-BF16 (the default)
    Bf16,  // BF16 products wherever the CPU has AVX512_BF16
    F32,   // every weight widened to float32 a matrix at a time (OpenBLAS or Eigen)
};
std::optional<ProductsChoice> parseProductsChoice(std::string_view name);  // "auto", "bf16", "f32"; any case
std::string_view productsChoiceName(ProductsChoice choice);
inline constexpr std::string_view kProductsChoiceNames = "auto, bf16, f32";

// bf16: BF16 weights are multiplied in BF16; runnable false when bf16 was asked for and this CPU
// or this build (no oneDNN) cannot.
struct ProductsDecision {
    bool bf16 = false;
    bool runnable = true;
};
ProductsDecision decideProducts(ProductsChoice choice, const CpuFeatures& cpu, bool haveLibrary);
bool canRunBf16Products(const CpuFeatures& cpu);  // AVX512_BF16 with F, BW, VL (oneDNN's avx512_core_bf16)
bool haveBf16Library();                           // this build has oneDNN
std::string bf16LibraryText();                    // "oneDNN 2.6.3", or empty without it

void setProductsChoice(ProductsChoice choice);  // the start-up hook; default Auto
ProductsChoice productsChoice();
bool bf16ProductsActive();  // the decision for the choice, this CPU and this build
bool multipliedInBf16(const MatrixRef& W);  // a BF16 weight in the mapping, with bf16ProductsActive()

// Y += X·op(W) (W [out,in] when transB, else [in,out]) for BF16 weights when bf16ProductsActive():
// X is rounded to bfloat16, W is read in place, the sums are float32. False (nothing done) for any
// other weight or when the f32 path is chosen: the caller widens and uses its f32 kernels.
bool bf16ProductInto(const MatF& X, const MatrixRef& W, bool transB, MatF& Y);

// The choice for the lifetime of a scope, then the previous one (tests pinning a path).
class ProductsChoiceScope {
public:
    explicit ProductsChoiceScope(ProductsChoice choice) : previous_(productsChoice()) { setProductsChoice(choice); }
    ~ProductsChoiceScope() { setProductsChoice(previous_); }
    ProductsChoiceScope(const ProductsChoiceScope&) = delete;
    ProductsChoiceScope& operator=(const ProductsChoiceScope&) = delete;

private:
    ProductsChoice previous_;
};

}  // namespace attnscope
