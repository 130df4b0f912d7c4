// logitsOf (core/model/transformer.hpp): a language-model head's logits over the whole vocabulary,
// against a double X·tableᵀ; with a release hook, the table's pages are handed back block by
// block, each row exactly once, in order, so the whole table is never needed at once.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "core/model/transformer.hpp"
#include "tests/core/matrix_compare.hpp"

using namespace attnscope;

TEST_CASE("logits over a vocabulary, whole or block by block with each block released", "[models][logits]") {
    const MatF X = MatF::Random(2, 48);           // n×d
    const MatF table = MatF::Random(20000, 48);   // V×d: blocks of ⌊2¹⁸ / 48⌋ = 5,461 rows (1 MiB of floats)
    const MatrixRef ref{table.data(), table.rows(), table.cols()};
    const Mat expected = X.cast<double>() * table.cast<double>().transpose();  // n×V
    REQUIRE_MATRIX_NEAR(expected, Mat(logitsOf(X, ref).cast<double>()), 1e-4);

    std::vector<std::pair<const float*, std::size_t>> released;  // each block's first float and its count
    const MatF blocked = logitsOf(X, ref, [&](const void* data, std::size_t bytes) {
        released.emplace_back(static_cast<const float*>(data), bytes / sizeof(float));
    });
    REQUIRE_MATRIX_NEAR(expected, Mat(blocked.cast<double>()), 1e-4);
    REQUIRE(released.size() == 4);  // 3 × 5,461 + 3,617 rows
    const float* next = table.data();
    for (const auto& [data, count] : released) {
        CHECK(data == next);
        next = data + count;
    }
    CHECK(next == table.data() + table.size());
}

// A BF16 table (a tied embedding of Qwen or Llama, at an odd address) for 1, 4 and 5 rows: up to
// four rows each table row's dot products in double (bf16RowDotProducts), more through the
// widened products; against X·tableᵀ in double over the words' exact values; the table released
// block by block, each byte once, in order.
TEST_CASE("logits over a BF16 vocabulary, read as stored for a few rows", "[models][logits]") {
    constexpr Eigen::Index V = 9000, d = 37;  // d odd: every word of an odd row at an odd address
    const MatF values = MatF::Random(V, d) * 0.05f;
    std::vector<std::uint8_t> bytes(1 + 2 * static_cast<std::size_t>(V * d));
    MatF exact(V, d);  // the floats the words stand for: each value's upper half
    for (Eigen::Index i = 0; i < values.size(); ++i) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, values.data() + i, 4);
        const auto half = static_cast<std::uint16_t>(bits >> 16);
        std::memcpy(bytes.data() + 1 + 2 * i, &half, 2);
        bits = std::uint32_t{half} << 16;
        std::memcpy(exact.data() + i, &bits, 4);
    }
    const MatrixRef table{nullptr, V, d, bytes.data() + 1, DType::BF16};
    for (const Eigen::Index n : {1, 4, 5}) {
        INFO(n << " rows");
        const MatF X = MatF::Random(n, d);
        const Mat expected = X.cast<double>() * exact.cast<double>().transpose();  // n×V
        std::size_t next = 0, blocks = 0;  // the next byte to be released
        const MatF logits = logitsOf(X, table, [&](const void* data, std::size_t count) {
            CHECK(static_cast<const std::uint8_t*>(data) == bytes.data() + 1 + next);
            next += count;
            ++blocks;
        });
        CHECK(next == 2 * static_cast<std::size_t>(V * d));
        // Read as stored, 8 MiB of words a block (the table's 666 KB); widened, ⌊2¹⁸ / 37⌋ = 7,084 rows.
        CHECK(blocks == (n <= 4 ? 1u : 2u));
        // Float products (5 rows) or exact ones summed in double (up to 4), rounded to float.
        REQUIRE_MATRIX_NEAR(expected, Mat(logits.cast<double>()), n <= 4 ? 1e-7 : 2e-6);
    }
}
