#include "app/heatmap_export.hpp"

#include <algorithm>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>

#include "core/analysis/norm_attention.hpp"
#include "ui/common/file_write.hpp"
#include "ui/attention/heatmap_view.hpp"

namespace attnscope {

FigureName modelFigure(const std::string& modelName, int layer) {
    return {QFileInfo(QString::fromStdString(modelName)).fileName(), layer + 1};
}

Result<void> exportHeatmapPng(const Trace& trace, const QString& path, int layer, const FigureName& name, bool norms) {
    if (trace.tokenCount() == 0)
        return Error{path.toStdString(), QCoreApplication::translate("HeatmapExport", "nothing to draw: the sentence has no tokens").toStdString()};
    if (layer < 0 || layer >= trace.layerCount())
        return Error{path.toStdString(), QCoreApplication::translate("HeatmapExport", "there is no layer %1").arg(layer + 1).toStdString()};
    HeatmapView view;
    const int heads = trace.headCount();
    const int side = std::clamp(120 + 28 * std::max(trace.tokenCount(), trace.keyCount()), 420, 1400);  // every label legible
    view.resize(side * heads + 40, side + 60);
    AttentionViewOptions options;  // before showTrace, which draws with them
    options.weighting = norms ? AttentionViewOptions::Norms : AttentionViewOptions::Weights;
    view.setOptions(options);
    view.showTrace(trace, layer, 2);
    view.setAllHeads(heads > 1);
    return writePngFile(path, view.renderFigure(name.source, name.layerNumber));  // the one atomic writer: the OS's reason on failure
}

Result<void> exportPngIfAsked(const QCommandLineParser& parser, const Trace& trace, int layer, const FigureName& name) {
    if (!parser.isSet("export-png")) return {};
    if (!parser.isSet("norms")) return exportHeatmapPng(trace, parser.value("export-png"), layer, name);
    auto norms = normWeightedTrace(trace);
    if (!norms) return norms.error();
    return exportHeatmapPng(norms.value(), parser.value("export-png"), layer, name, true);
}

}  // namespace attnscope
