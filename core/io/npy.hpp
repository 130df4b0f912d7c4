#pragma once
// A matrix as a NumPy .npy file (format version 1.0): numpy.load reads it back as an array of the
// same shape, float64 ('<f8') or float32 ('<f4'). Only the bytes are built here; the callers write
// them atomically (one file, or an entry of a .npz: core/export/trace_npz.hpp).
//
// Layout: "\x93NUMPY", 1, 0, the header length (2 bytes, little-endian), the header — a Python
// dict {'descr': '<f8', 'fortran_order': False, 'shape': (R, C), } padded with spaces and ended
// by '\n' so the data starts at a multiple of 64 bytes — then R·C little-endian numbers, row by row.
#include <string>
#include <string_view>

#include "core/base/matrix.hpp"

namespace attnscope {

// Everything before the data, for `descr` ("<f8", "<f4") and shape rows × cols.
std::string npyHeader(std::string_view descr, Eigen::Index rows, Eigen::Index cols);

std::string npyBytes(const Mat& m);

}  // namespace attnscope
