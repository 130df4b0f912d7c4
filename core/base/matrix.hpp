#pragma once
// Matrix types shared by the whole engine. Row-major so that a row is a token's vector and so
// that real weights can later be mapped straight from row-major safetensors files.
#include <Eigen/Core>

namespace attnscope {

// Of any scalar: lessons compute in double (Mat), real models in float (MatF, core/model); the
// attention kernel (core/pipeline/attention_kernel.hpp) is written once for both.
template <typename Scalar>
using MatOf = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename Scalar>
using RowVecOf = Eigen::Matrix<Scalar, 1, Eigen::Dynamic, Eigen::RowMajor>;

using Mat = MatOf<double>;
using RowVec = RowVecOf<double>;

}  // namespace attnscope
