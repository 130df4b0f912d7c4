#pragma once
// The Compare tab's exports: its three maps (A, B, A − B) side by side in one figure as PNG, SVG or
// PDF, and the numbers as CSV or JSON through core's comparisonToCsv / comparisonToJson, the
// functions `attnscope compare` writes with. Everything is made in memory and written by the one
// atomic writer (ui/common/file_write.hpp).
#include <QString>
#include <vector>

#include "core/analysis/compare_export.hpp"

class QCustomPlot;

namespace attnscope {

enum class CompareExport { Png, Svg, Pdf, Csv, Json };

// `plots`: drawn left to right at their size on screen (800×600 each if never shown); PNG at 2×.
Result<void> exportComparison(const std::vector<QCustomPlot*>& plots, const SentenceComparison& data,
                              const QString& path, CompareExport kind);

}  // namespace attnscope
