#pragma once
// Matrix types shared by the whole engine. Row-major so that a row is a token's vector and so
// that real weights can later be mapped straight from row-major safetensors files.
#include <Eigen/Core>

namespace attnscope {

using Mat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVec = Eigen::Matrix<double, 1, Eigen::Dynamic, Eigen::RowMajor>;

}  // namespace attnscope
