#pragma once
// The attention kernel: one head's scores → scaling → mask → softmax → weighted sum, with every
// intermediate recorded into its HeadTrace. Written once, for both callers:
//   * lessons (core/pipeline/attention_layer.cpp): double, Eigen products through the pipeline's step
//     functions, hand-rounding after each step;
//   * real models (core/model/transformer.cpp, multiHeadAttention): float, the two products as
//     SGEMM (the BLAS wrapper) on head slices of Q, K, V in place, scratch reused, no rounding.
// What differs is the Arithmetic policy, a small struct with
//   void scores(ConstHeadView q, ConstHeadView k, MatOf<Scalar>& out) const;  // out = q·kᵀ, T_q×T_k
//   void weightedSum(const MatOf<Scalar>& a, ConstHeadView v, HeadOutView out) const;  // out = a·v
//   template <class M> void round(M&& m) const;  // hand-rounding, or nothing
// and, optionally, the weights straight from the unscaled scores in one step, for both records
// (models: 1/√d_k and the mask folded into one vectorised softmax pass a row):
//   void weightsFromScores(const HeadInput<Scalar>& in, HeadScratch<Scalar>& s) const;
//   // s.weights = softmax(s.scores / divisor + mask); s.scores may be overwritten
//
// Shape legend: T_q query tokens, T_k key/value tokens (T_q = T_k = T in self-attention),
// d_k query/key width, d_v value width.
#include <string>
#include <type_traits>
#include <vector>

#include "core/pipeline/steps.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

// A head's slice of a wider matrix, used in place (row stride = the full width).
template <typename Scalar>
using ConstHeadView = Eigen::Ref<const MatOf<Scalar>, 0, Eigen::OuterStride<>>;
template <typename Scalar>
using HeadOutView = Eigen::Ref<MatOf<Scalar>, 0, Eigen::OuterStride<>>;

template <typename Scalar>
struct HeadInput {
    ConstHeadView<Scalar> q;     // T_q×d_k
    ConstHeadView<Scalar> k;     // T_k×d_k
    ConstHeadView<Scalar> v;     // T_k×d_v
    const MatOf<Scalar>& mask;   // T_q×T_k, added to the scaled scores; empty: no mask (recorded as zeros)
    Scalar divisor;              // √d_k, or 1 when scaling is off
    bool ablated = false;        // head_mask 0: weights × 0 before the weighted sum (see core/trace/ablation.hpp)
    bool outputWanted = true;    // false: only the weights are wanted; the output is left zero
};

// How much of the head the Trace keeps (models keep only the weights for most layers).
enum class HeadRecord { Everything, WeightsOnly };

// Where the softmax's notices about masked or infinite rows go (nullptr: nowhere).
struct RowNotices {
    std::vector<Notice>* notices = nullptr;
    std::vector<std::string> rowNames;  // names the rows in the notices ("row 3" past its end)
};

// T_q×T_k buffers, reused across heads (models: across layers and runs too).
template <typename Scalar>
struct HeadScratch {
    MatOf<Scalar> scores, weights;
};

template <typename Derived>
Mat toTraceMatrix(const Eigen::MatrixBase<Derived>& m) {  // the Trace holds double (weights aside)
    return m.template cast<double>();
}

template <typename Arithmetic, typename Scalar>
concept FoldsScalingIntoSoftmax = requires(const Arithmetic& a, const HeadInput<Scalar>& in, HeadScratch<Scalar>& s) {
    a.weightsFromScores(in, s);
};
// The softmax output into HeadTrace::weights, in the run's precision: lessons copy their (rounded)
// double weights as every other step; models swap their float T×T buffer into the Trace, so the
// weights are written once, never copied (the scratch allocates a fresh buffer for the next head).
inline void recordWeights(Mat& weights, HeadTrace& trace) { trace.weights = toTraceMatrix(weights); }
inline void recordWeights(MatF& weights, HeadTrace& trace) { trace.weights.floatStorage().swap(weights); }

// One head: fills `out` (T_q×d_v) with weights·V and `trace` with the intermediates (params are
// the caller's: the kernel never sees the weight matrices).
template <typename Scalar, typename Arithmetic>
void attendHead(const HeadInput<Scalar>& in, const Arithmetic& arithmetic, HeadScratch<Scalar>& s,
                std::type_identity_t<HeadOutView<Scalar>> out, HeadRecord record, HeadTrace& trace, const RowNotices& rows) {
    const bool everything = record == HeadRecord::Everything;
    arithmetic.scores(in.q, in.k, s.scores);            // T_q×d_k · d_k×T_k → T_q×T_k
    arithmetic.round(s.scores);
    constexpr bool folded = FoldsScalingIntoSoftmax<Arithmetic, Scalar>;
    if (everything || !folded) {  // the steps one by one (folded: only to record them)
        scaleScores(s.scores, in.divisor, s.weights);       // T_q×T_k
        arithmetic.round(s.weights);
        if (everything) {
            trace.scores = toTraceMatrix(s.scores);
            trace.scaledScores = toTraceMatrix(s.weights);
        }
        const bool masked = in.mask.size() > 0;
        if (masked) applyMaskInPlace(s.weights, in.mask);   // T_q×T_k
        if (everything) {
            trace.mask = masked ? toTraceMatrix(in.mask) : Mat(Mat::Zero(s.weights.rows(), s.weights.cols()));
            trace.maskedScores = toTraceMatrix(s.weights);
        }
    }
    if constexpr (folded) arithmetic.weightsFromScores(in, s);  // the same weights whatever the record
    else softmaxRowsInPlace(s.weights, rows.notices, rows.rowNames);  // T_q×T_k, each row sums to 1
    arithmetic.round(s.weights);
    trace.ablated = in.ablated;
    if (in.ablated || !in.outputWanted) out.setZero();  // ablated: (0·A)·V = 0 for finite V, as head_mask = 0
    else arithmetic.weightedSum(s.weights, in.v, out);  // T_q×T_k · T_k×d_v → T_q×d_v
    recordWeights(s.weights, trace);  // every record keeps the weights, ablated or not
    arithmetic.round(out);
    if (everything) {
        trace.q = toTraceMatrix(in.q);
        trace.k = toTraceMatrix(in.k);
        trace.v = toTraceMatrix(in.v);
        trace.weightedSum = toTraceMatrix(out);
    }
}

}  // namespace attnscope
