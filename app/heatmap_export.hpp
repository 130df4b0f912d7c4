#pragma once
// Headless heatmap export for the command line.
#include <QString>

class QCommandLineParser;
#include <optional>
#include <string>

#include "core/base/result.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

// What the figure's title names: the model or lesson, and the model's layer counted from 1 (a
// one-layer trace of detailTraceOf is layer 0 of `trace` but layer `layerNumber` of the model).
struct FigureName {
    QString source;
    int layerNumber = 1;
};

// A model's figure: its folder's name (as the window's title shows it) and `layer` (0-based) from 1.
FigureName modelFigure(const std::string& modelName, int layer);

// Draws every head's attention heatmap of `layer` (0-based in `trace`) side by side under a title
// (HeatmapView::renderFigure) and writes a PNG atomically. `norms`: the trace's weights are
// weight × ‖value‖ shares (normWeightedTrace), and the title says so.
Result<void> exportHeatmapPng(const Trace& trace, const QString& path, int layer, const FigureName& name, bool norms = false);
// The same to --export-png's file when the option is given (with --norms, of weight × ‖value‖);
// nothing (a success) otherwise.
Result<void> exportPngIfAsked(const QCommandLineParser& parser, const Trace& trace, int layer, const FigureName& name);

}  // namespace attnscope
