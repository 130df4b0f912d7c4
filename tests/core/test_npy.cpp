// NumPy .npy bytes (core/io/npy.hpp), checked byte by byte against the format description.
#include <catch2/catch.hpp>
#include <cstring>

#include "core/io/npy.hpp"
#include "tests/matrix_literal.hpp"

using namespace attnscope;

TEST_CASE(".npy bytes of a 2×3 matrix, by the format's rules", "[export]") {
    // Header dict "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }" is 59 characters;
    // 10 + 59 + 1 ('\n') = 70, so 58 spaces pad it to 128: header length 59 + 58 + 1 = 118.
    // (numpy.load of these bytes gives [[1, 2, 3], [4, 5, -0.5]] float64, shape (2, 3).)
    const Mat m = testing::rows({{1, 2, 3}, {4, 5, -0.5}});
    const std::string bytes = npyBytes(m);
    REQUIRE(bytes.size() == 128 + 6 * 8);
    CHECK(bytes.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));
    CHECK(static_cast<unsigned char>(bytes[8]) == 118);
    CHECK(bytes[9] == 0);
    CHECK(bytes.substr(10, 59) == "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }");
    CHECK(bytes.substr(69, 58) == std::string(58, ' '));
    CHECK(bytes[127] == '\n');
    double last = 0;
    std::memcpy(&last, bytes.data() + 128 + 5 * 8, 8);  // row 1, column 2
    CHECK(last == -0.5);
    double second = 0;
    std::memcpy(&second, bytes.data() + 128 + 8, 8);  // row 0, column 1: row-major
    CHECK(second == 2.0);
}
