#include "ui/common/plot_bytes.hpp"
#include "ui/common/theme_colors.hpp"

#include <QBuffer>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <qcustomplot.h>

#include "ui/common/file_write.hpp"

namespace attnscope {

// Every export is drawn in the light theme (a printed handout), whatever the window shows.
QByteArray svgBytes(QSize size, const QString& title, const std::function<void(QCPPainter&)>& paint) {
    const theme::LightForExport light;
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(title);
    QCPPainter painter;
    if (!painter.begin(&svg)) return {};
    paint(painter);
    painter.end();
    return bytes;
}

QByteArray pdfBytes(QSize size, const QString& title, const std::function<void(QCPPainter&)>& paint) {
    const theme::LightForExport light;
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);
    pdf.setTitle(title);
    pdf.setCreator("AttnScope");
    pdf.setResolution(96);
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    pdf.setPageSize(QPageSize(QSizeF(size) * 72.0 / 96.0, QPageSize::Point));
    QCPPainter painter;
    if (!painter.begin(&pdf)) return {};
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    paint(painter);
    painter.end();
    return bytes;
}

QByteArray plotSvgBytes(QCustomPlot* plot, QSize size, const QString& title) {
    return svgBytes(size, title, [&](QCPPainter& p) { plot->toPainter(&p, size.width(), size.height()); });
}

QByteArray plotPdfBytes(QCustomPlot* plot, QSize size, const QString& title) {
    return pdfBytes(size, title, [&](QCPPainter& p) { plot->toPainter(&p, size.width(), size.height()); });
}

QByteArray plotFigureBytes(QCustomPlot* plot, QSize size, const QString& title, const QString& format) {
    if (format == "png") {
        const theme::LightForExport light;  // exports are drawn light, whatever the window shows
        return pngBytes(plot->toPixmap(size.width(), size.height(), 2.0).toImage());  // 2×: sharp on slides
    }
    if (format == "svg") return plotSvgBytes(plot, size, title);
    if (format == "pdf") return plotPdfBytes(plot, size, title);
    return {};
}

}  // namespace attnscope
