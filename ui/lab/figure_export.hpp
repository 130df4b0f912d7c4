#pragma once
// Figure and matrix export for the lab's plots: PNG at a chosen DPI, SVG and PDF vector output,
// matrices as CSV, JSON and NumPy .npy. Each is drawn into memory and written by the one atomic
// writer (ui/common/file_write.hpp): a failed write never leaves half a file and says the OS's reason.
#include <QSize>
#include <QString>

#include "core/base/matrix.hpp"
#include "core/base/result.hpp"

#include <functional>

class QCustomPlot;
class QPushButton;
class QWidget;

namespace attnscope {

// Each fails with the reason (a refused DPI, nothing drawn, the OS's reason for a failed write).
Result<void> savePlotPng(QCustomPlot* plot, const QString& path, int dpi);
Result<void> savePlotSvg(QCustomPlot* plot, const QString& path);
Result<void> savePlotPdf(QCustomPlot* plot, const QString& path);
Result<void> saveMatrixCsv(const Mat& m, const QString& path);
Result<void> saveMatrixNpy(const Mat& m, const QString& path);
Result<void> saveMatrixJson(const Mat& m, const QString& path);  // core's matrixToJson

// Full-precision CSV: one line per row, values separated by commas (17 significant digits).
QByteArray matrixCsv(const Mat& m);

// Asks for a file (and, for PNG, the DPI) and writes the plot or its matrix in the format the
// file name ends with; reports failures in a message box. `matrix` may be null (a plot of curves).
void exportFigureDialog(QWidget* parent, QCustomPlot* plot, const Mat* matrix, const QString& baseName);

// An "Export…" button that runs exportFigureDialog; `matrix` returns the matrix drawn (or null).
QPushButton* exportButton(QWidget* parent, QCustomPlot* plot, std::function<const Mat*()> matrix,
                          const QString& baseName);

// The point size the lab's plot sizes are chosen for (the main window's text at 100 %): with
// larger text (View ▸ Zoom) a plot's minimum height grows by as much.
inline constexpr double kLabLaidOutForPoints = 12;

// The lab's one plot card: the plot (at least `minimum` in size, taller with larger text) with its
// Export… button below on the right, in a new widget under `parent`. Its fonts follow the zoom.
QWidget* plotCard(QWidget* parent, QCustomPlot* plot, const QString& baseName, QSize minimum,
                  std::function<const Mat*()> matrix = {});

}  // namespace attnscope
