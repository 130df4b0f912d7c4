#pragma once
// Headless heatmap export for the command line.
#include <QString>
#include <optional>

#include "core/base/result.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

// Draws every head's attention heatmap of `layer` (0-based) side by side and writes a PNG atomically.
Result<void> exportHeatmapPng(const Trace& trace, const QString& path, int layer = 0);

}  // namespace attnscope
