#include "ui/common/plot_bytes.hpp"

#include <QBuffer>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <qcustomplot.h>

namespace attnscope {

QByteArray plotSvgBytes(QCustomPlot* plot, QSize size, const QString& title) {
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
    plot->toPainter(&painter, size.width(), size.height());
    painter.end();
    return bytes;
}

QByteArray plotPdfBytes(QCustomPlot* plot, QSize size, const QString& title) {
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
    plot->toPainter(&painter, size.width(), size.height());
    painter.end();
    return bytes;
}

}  // namespace attnscope
