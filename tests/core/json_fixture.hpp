#pragma once
// Matrices of the committed reference fixtures (tests/reference/fixtures/*.json): a list of rows,
// or a plain list of numbers read as one row.
#include <nlohmann/json.hpp>

#include "core/base/matrix.hpp"

namespace attnscope::testing {

inline Mat fromJson(const nlohmann::json& rows) {
    if (!rows.at(0).is_array()) {
        Mat v(1, rows.size());
        for (std::size_t c = 0; c < rows.size(); ++c) v(0, static_cast<Eigen::Index>(c)) = rows[c].get<double>();
        return v;
    }
    Mat m(rows.size(), rows.at(0).size());
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (std::size_t c = 0; c < rows[r].size(); ++c)
            m(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = rows[r][c].get<double>();
    return m;
}

}  // namespace attnscope::testing
