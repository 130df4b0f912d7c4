#pragma once
// The one writer of a matrix as JSON rows ([[m00, m01, …], [m10, …], …]): the trace and compare
// exports and the lesson file all write matrices this way. Internal to core .cpp files (it includes
// nlohmann; never include it from a public header).
#include <nlohmann/json.hpp>
#include <utility>

#include "core/base/matrix.hpp"

namespace attnscope::json {

// Each row a list; `cell` turns one number into its JSON (the trace export writes NaN and ±inf as text).
template <class Cell>
nlohmann::ordered_json matrixRows(const Mat& m, Cell cell) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        nlohmann::ordered_json row = nlohmann::ordered_json::array();
        for (Eigen::Index c = 0; c < m.cols(); ++c) row.push_back(cell(m(r, c)));
        rows.push_back(std::move(row));
    }
    return rows;
}

inline nlohmann::ordered_json matrixRows(const Mat& m) {
    return matrixRows(m, [](double v) { return v; });
}

}  // namespace attnscope::json
