#include "app/heatmap_export.hpp"

#include <QCoreApplication>

#include "ui/common/file_write.hpp"
#include "ui/attention/heatmap_view.hpp"

namespace attnscope {

Result<void> exportHeatmapPng(const Trace& trace, const QString& path, int layer) {
    if (trace.tokenCount() == 0)
        return Error{path.toStdString(), QCoreApplication::translate("HeatmapExport", "nothing to draw: the sentence has no tokens").toStdString()};
    if (layer < 0 || layer >= trace.layerCount())
        return Error{path.toStdString(), QCoreApplication::translate("HeatmapExport", "there is no layer %1").arg(layer + 1).toStdString()};
    HeatmapView view;
    const int heads = trace.headCount();
    const int side = std::clamp(120 + 28 * trace.tokenCount(), 420, 1400);  // every label legible
    view.resize(side * heads + 40, side + 60);
    view.showTrace(trace, layer, 2);
    view.setAllHeads(heads > 1);
    return writePngFile(path, view.renderImage());  // the one atomic writer: the OS's reason on failure
}

}  // namespace attnscope
