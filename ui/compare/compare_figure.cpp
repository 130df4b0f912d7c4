#include "ui/compare/compare_figure.hpp"

#include <QFileInfo>
#include <QImage>
#include <qcustomplot.h>

#include "ui/common/file_write.hpp"
#include "ui/common/plot_bytes.hpp"
#include "ui/common/theme_colors.hpp"

namespace attnscope {

namespace {

QSize plotSize(const QCustomPlot* plot) { return plot->size().isEmpty() ? QSize(800, 600) : plot->size(); }

QSize figureSize(const std::vector<QCustomPlot*>& plots) {
    QSize size(0, 0);
    for (const QCustomPlot* p : plots) size = QSize(size.width() + plotSize(p).width(), std::max(size.height(), plotSize(p).height()));
    return size;
}

// Each plot in its own column, as on screen.
void paintRow(QCPPainter& painter, const std::vector<QCustomPlot*>& plots) {
    int x = 0;
    for (QCustomPlot* p : plots) {
        painter.save();
        painter.translate(x, 0);
        p->toPainter(&painter, plotSize(p).width(), plotSize(p).height());
        painter.restore();
        x += plotSize(p).width();
    }
}

QByteArray figureBytes(const std::vector<QCustomPlot*>& plots, const QString& title, CompareExport kind) {
    const QSize size = figureSize(plots);
    const auto paint = [&plots](QCPPainter& painter) { paintRow(painter, plots); };
    if (kind == CompareExport::Svg) return svgBytes(size, title, paint);
    if (kind == CompareExport::Pdf) return pdfBytes(size, title, paint);
    constexpr double kScale = 2;  // sharp on slides
    const theme::LightForExport light;  // exports are drawn light, whatever the window shows
    QImage image(size * kScale, QImage::Format_ARGB32);
    image.fill(theme::paper());
    QCPPainter painter;
    if (!painter.begin(&image)) return {};
    painter.scale(kScale, kScale);
    paintRow(painter, plots);
    painter.end();
    return pngBytes(image);
}

}  // namespace

Result<void> exportComparison(const std::vector<QCustomPlot*>& plots, const SentenceComparison& data,
                              const QString& path, CompareExport kind) {
    if (kind == CompareExport::Csv) return writeFileAtomically(path, QByteArray::fromStdString(comparisonToCsv(data)));
    if (kind == CompareExport::Json) return writeFileAtomically(path, QByteArray::fromStdString(comparisonToJson(data)));
    const QByteArray bytes = figureBytes(plots, QFileInfo(path).completeBaseName(), kind);
    if (bytes.isEmpty()) return Error{path.toStdString(), QObject::tr("cannot draw the figure").toStdString()};
    return writeFileAtomically(path, bytes);
}

}  // namespace attnscope
