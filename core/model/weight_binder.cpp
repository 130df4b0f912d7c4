// Binding tensors by name (see weight_binder.hpp).
#include "core/model/weight_binder.hpp"

#include <cmath>
#include <filesystem>

#include "core/base/finite.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope {

namespace {

std::string nonFiniteName(float x) { return std::isnan(x) ? "NaN" : x > 0 ? "+inf" : "-inf"; }

float elementAt(const MatrixRef& m, Eigen::Index i) {
    std::vector<float> row(static_cast<std::size_t>(m.cols));
    m.rowsInto(i / m.cols, 1, row.data());
    return row[static_cast<std::size_t>(i % m.cols)];
}

}  // namespace

// A weight that is NaN or ±∞ would make every attention weight and prediction NaN without a
// word; the whole tensor is checked once, when it is bound (16-bit words without widening them).
bool WeightBinder::refuseNonFinite(const std::string& name, const MatrixRef& m, bool isVector) {
    const auto bad = m.data ? firstNonFinite(m.data, m.rows * m.cols) : firstNonFinite16(m.halves, m.rows * m.cols, m.dtype);
    // The check read every page: let them go again, so loading never holds the whole file (a run
    // reads each back from the page cache as it needs it).
    store_.releasePages(m.bytes(), m.byteCount());
    if (!bad) return false;
    const std::string index = isVector ? std::to_string(*bad)  // a vector: one index
                                       : std::to_string(*bad / m.cols) + ", " + std::to_string(*bad % m.cols);
    const TensorInfo* info = store_.find(name);
    const std::string file = info ? std::filesystem::path(info->file).filename().string() : "";
    const std::string quoted = "\"" + name + "\"";
    error_ = Error{file.empty() ? errorText(ErrorId::WhereTensorAlone, quoted) : errorText(ErrorId::WhereTensor, file, quoted),
                   errorText(ErrorId::HoldsNonFinite, nonFiniteName(elementAt(m, *bad)), index)};
    return true;
}

MatrixRef WeightBinder::matrix(const std::string& name, Eigen::Index rows, Eigen::Index cols) {
    if (!error_.ok()) return {};
    auto m = store_.storedMatrix(name, rows, cols);
    if (!m) {
        error_ = m.error();
        return {};
    }
    const MatrixRef ref{m.value().floats, rows, cols, m.value().halves, m.value().dtype};
    if (refuseNonFinite(name, ref, false)) return {};
    used_.push_back(name);
    return ref;
}

VectorRef WeightBinder::vector(const std::string& name, Eigen::Index n) {
    if (!error_.ok()) return {};
    auto v = store_.vector(name, n);
    if (!v) {
        error_ = v.error();
        return {};
    }
    if (refuseNonFinite(name, MatrixRef{v.value().data(), 1, n}, true)) return {};
    used_.push_back(name);
    return VectorRef{v.value().data(), n};
}

LinearRef WeightBinder::linear(const std::string& name, Eigen::Index out, Eigen::Index in) {
    return LinearRef{matrix(name + ".weight", out, in), vector(name + ".bias", out)};
}

LinearRef WeightBinder::conv1d(const std::string& name, Eigen::Index in, Eigen::Index out) {
    return LinearRef{matrix(name + ".weight", in, out), vector(name + ".bias", out)};
}

LayerNormRef WeightBinder::layerNorm(const std::string& name, Eigen::Index n) {
    // Checkpoints converted from the original TensorFlow BERT say gamma/beta.
    const bool old = !has(name + ".weight") && has(name + ".gamma");
    return LayerNormRef{vector(name + (old ? ".gamma" : ".weight"), n), vector(name + (old ? ".beta" : ".bias"), n)};
}

LinearRef WeightBinder::linearNoBias(const std::string& name, Eigen::Index out, Eigen::Index in) {
    return LinearRef{matrix(name + ".weight", out, in), {}};
}

}  // namespace attnscope
