#pragma once
// Binding a checkpoint's tensors by their Hugging Face names, for the families' bind functions.
//
// Shape legend: d model width, d_ff feed-forward width, V vocabulary size.
#include <string>
#include <vector>

#include "core/base/result.hpp"
#include "core/model/blocks.hpp"
#include "core/model/tensor_store.hpp"

namespace attnscope {

// Binds tensors by full HF name, remembering every name it bound and the first failure (a
// missing or mis-shaped tensor, named with the expected and the found shape, or a weight that
// is NaN or ±∞, named with its first such element). Once failed, it
// returns empty refs; check error() at the end.
class WeightBinder {
public:
    explicit WeightBinder(const TensorStore& store) : store_(store) {}
    bool has(const std::string& name) const { return store_.find(name) != nullptr; }
    MatrixRef matrix(const std::string& name, Eigen::Index rows, Eigen::Index cols);
    VectorRef vector(const std::string& name, Eigen::Index n);
    LinearRef linear(const std::string& name, Eigen::Index out, Eigen::Index in);  // .weight [out, in], .bias
    LinearRef linearNoBias(const std::string& name, Eigen::Index out, Eigen::Index in);  // .weight [out, in]
    LinearRef conv1d(const std::string& name, Eigen::Index in, Eigen::Index out);  // .weight [in, out], .bias
    LayerNormRef layerNorm(const std::string& name, Eigen::Index n);  // .weight/.bias or .gamma/.beta
    const Result<void>& status() const { return error_; }
    const std::vector<std::string>& used() const { return used_; }

private:
    // Sets error_ when the tensor holds a NaN or ±∞, naming the first one (a vector: 1×n, one index).
    bool refuseNonFinite(const std::string& name, const MatrixRef& m, bool isVector);

    const TensorStore& store_;
    Result<void> error_;
    std::vector<std::string> used_;
};

}  // namespace attnscope
