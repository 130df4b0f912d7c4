#pragma once
// A matrix as a NumPy .npy file (format version 1.0): numpy.load reads it back as a float64
// array of the same shape. Only the bytes are built here; app/ writes them atomically.
//
// Layout: "\x93NUMPY", 1, 0, the header length (2 bytes, little-endian), the header — a Python
// dict {'descr': '<f8', 'fortran_order': False, 'shape': (R, C), } padded with spaces and ended
// by '\n' so the data starts at a multiple of 64 bytes — then R·C little-endian doubles, row by row.
#include <string>

#include "core/base/matrix.hpp"

namespace attnscope {

std::string npyBytes(const Mat& m);

}  // namespace attnscope
