#pragma once
// A head's attention weights in the precision of the run that computed them: double for lessons
// (their hand arithmetic, exact to the last bit), float for real models (written once by the
// attention kernel, no double copy: 144 heads × 512² weights are 151 MB as float, 302 MB as double).
//
// GridRef is the read-only view every generic reader takes (stepMatrix returns it): a Mat or a
// MatF, read as double element by element, or handed whole to an Eigen expression by visit().
// Like std::string_view it does not own: keep it no longer than the matrix it views.
#include <cassert>
#include <utility>

#include "core/base/matrix.hpp"

namespace attnscope {

using MatF = MatOf<float>;

class GridRef {
public:
    GridRef(const Mat& m) : exact_(&m) {}   // NOLINT: implicit, a Mat is always a valid view
    GridRef(const MatF& m) : single_(&m) {}  // NOLINT

    Eigen::Index rows() const { return single_ ? single_->rows() : exact_->rows(); }
    Eigen::Index cols() const { return single_ ? single_->cols() : exact_->cols(); }
    Eigen::Index size() const { return single_ ? single_->size() : exact_->size(); }
    // A float element read as double is its exact value (every float is a double).
    double operator()(Eigen::Index r, Eigen::Index c) const {
        return single_ ? static_cast<double>((*single_)(r, c)) : (*exact_)(r, c);
    }
    bool isFloat() const { return single_ != nullptr; }
    // Lesson code only (lessons always run in double): the matrix itself. Precondition: !isFloat().
    const Mat& exact() const {
        assert(!isFloat());
        return *exact_;
    }
    Mat toMat() const { return single_ ? Mat(single_->cast<double>()) : *exact_; }
    // f(const Mat&) or f(const MatF&): one generic lambda serves both without a copy.
    template <typename F>
    decltype(auto) visit(F&& f) const {
        return single_ ? std::forward<F>(f)(*single_) : std::forward<F>(f)(*exact_);
    }

private:
    const Mat* exact_ = nullptr;
    const MatF* single_ = nullptr;
};

// HeadTrace::weights: owns a Mat (lessons) or a MatF (models); the other one stays empty.
class AttentionWeights {
public:
    AttentionWeights() = default;
    AttentionWeights(Mat m) : exact_(std::move(m)) {}                        // NOLINT: lessons, tests
    AttentionWeights(MatF m) : single_(std::move(m)), isFloat_(true) {}      // NOLINT

    Eigen::Index rows() const { return ref().rows(); }
    Eigen::Index cols() const { return ref().cols(); }
    Eigen::Index size() const { return ref().size(); }
    double operator()(Eigen::Index r, Eigen::Index c) const { return ref()(r, c); }
    bool isFloat() const { return isFloat_; }
    const Mat& exact() const { return ref().exact(); }  // precondition: !isFloat() (lessons)
    Mat toMat() const { return ref().toMat(); }
    template <typename F>
    decltype(auto) visit(F&& f) const {
        return ref().visit(std::forward<F>(f));
    }
    GridRef ref() const { return isFloat_ ? GridRef(single_) : GridRef(exact_); }
    operator GridRef() const { return ref(); }  // NOLINT

    // The models' kernel writes its softmax here (resized to T_q×T_k, then kept): see
    // core/pipeline/attention_kernel.hpp. Makes the weights float; any double ones are dropped.
    MatF& floatStorage() {
        if (!isFloat_) exact_ = Mat();
        isFloat_ = true;
        return single_;
    }
    // Two weights are equal when they hold the same precision and the same numbers.
    bool operator==(const AttentionWeights& o) const {
        return isFloat_ == o.isFloat_ && (isFloat_ ? same(single_, o.single_) : same(exact_, o.exact_));
    }

private:
    template <typename M>
    static bool same(const M& a, const M& b) {
        return a.rows() == b.rows() && a.cols() == b.cols() && (a.size() == 0 || a == b);
    }

    Mat exact_;
    MatF single_;
    bool isFloat_ = false;
};

}  // namespace attnscope
