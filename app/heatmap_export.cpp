#include "app/heatmap_export.hpp"

#include <QFile>
#include <filesystem>

#include "ui/heatmap_view.hpp"

namespace attnscope {

std::optional<Error> exportHeatmapPng(const Trace& trace, const QString& path, int layer) {
    if (trace.tokenCount() == 0) return Error{path.toStdString(), "nothing to draw: the sentence has no tokens"};
    if (layer < 0 || layer >= trace.layerCount())
        return Error{path.toStdString(), "there is no layer " + std::to_string(layer + 1)};
    HeatmapView view;
    const int heads = trace.headCount();
    const int side = std::clamp(120 + 28 * trace.tokenCount(), 420, 1400);  // every label legible
    view.resize(side * heads + 40, side + 60);
    view.showTrace(trace, layer, 2);
    view.setAllHeads(heads > 1);
    // Written beside the target and renamed over it, so a reader never sees half a PNG.
    const QString temporary = path + ".part";
    if (!view.savePng(temporary)) {
        QFile::remove(temporary);
        return Error{path.toStdString(), "could not be written as PNG"};
    }
    std::error_code error;
    std::filesystem::rename(temporary.toStdString(), path.toStdString(), error);
    if (error) return Error{path.toStdString(), "could not be written: " + error.message()};
    return std::nullopt;
}

}  // namespace attnscope
