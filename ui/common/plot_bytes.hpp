#pragma once
// A QCustomPlot drawn into memory as SVG or PDF vectors (and PNG through pngBytes), so every figure
// export hands finished bytes to the one file writer (ui/common/file_write.hpp) instead of writing by name.
#include <QByteArray>
#include <QSize>
#include <QString>
#include <functional>

class QCPPainter;
class QCustomPlot;

namespace attnscope {

QByteArray plotSvgBytes(QCustomPlot* plot, QSize size, const QString& title);
// The page is the plot's size: one plot pixel per PDF pixel at 96 DPI.
QByteArray plotPdfBytes(QCustomPlot* plot, QSize size, const QString& title);
// A figure export's bytes by format: "png" (2× the size: sharp on slides), "svg" or "pdf" at
// `size`; empty for any other format (a table format the caller writes itself).
QByteArray plotFigureBytes(QCustomPlot* plot, QSize size, const QString& title, const QString& format);

// The same for any picture of `size` that `paint` draws (several plots in one figure).
QByteArray svgBytes(QSize size, const QString& title, const std::function<void(QCPPainter&)>& paint);
QByteArray pdfBytes(QSize size, const QString& title, const std::function<void(QCPPainter&)>& paint);

}  // namespace attnscope
