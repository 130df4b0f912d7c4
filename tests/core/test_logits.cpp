// logitsOf (core/model/transformer.hpp): a language-model head's logits over the whole vocabulary,
// against a double X·tableᵀ; with a release hook, the table's pages are handed back block by
// block, each row exactly once, in order, so the whole table is never needed at once.
#include <catch2/catch.hpp>
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
