#include "core/io/npy.hpp"

#include <bit>
#include <cstring>

namespace attnscope {

std::string npyHeader(std::string_view descr, Eigen::Index rows, Eigen::Index cols) {
    std::string header = "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': (" +
                         std::to_string(rows) + ", " + std::to_string(cols) + "), }";
    constexpr std::size_t prefix = 10;  // magic (6) + version (2) + header length (2)
    header.append((64 - (prefix + header.size() + 1) % 64) % 64, ' ');
    header += '\n';
    std::string out("\x93NUMPY\x01\x00", 8);
    out += static_cast<char>(header.size() & 0xFF);
    out += static_cast<char>(header.size() >> 8);
    return out + header;
}

std::string npyBytes(const Mat& m) {
    static_assert(std::endian::native == std::endian::little, "the .npy data is written as '<f8'");
    std::string out = npyHeader("<f8", m.rows(), m.cols());
    const std::size_t start = out.size();
    out.resize(start + sizeof(double) * static_cast<std::size_t>(m.size()));
    std::memcpy(out.data() + start, m.data(), sizeof(double) * static_cast<std::size_t>(m.size()));  // row-major Mat
    return out;
}

}  // namespace attnscope
