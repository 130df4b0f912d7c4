#include "ui/lab/figure_export.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "core/export/export.hpp"
#include "core/io/npy.hpp"
#include "ui/common/file_write.hpp"
#include "ui/common/plot_bytes.hpp"
#include "ui/common/plot_font.hpp"
#include "ui/common/theme_colors.hpp"

namespace attnscope {

namespace {

QSize plotSize(QCustomPlot* plot) {
    const QSize size = plot->size();
    return size.isEmpty() ? QSize(800, 600) : size;  // a plot never shown has no size yet
}

}  // namespace

Result<void> savePlotPng(QCustomPlot* plot, const QString& path, int dpi) {
    if (dpi < 24 || dpi > 1200)
        return Error{path.toStdString(), QObject::tr("DPI must be between 24 and 1200, found %1").arg(dpi).toStdString()};
    const QSize size = plotSize(plot);
    // The plot is laid out at 96 DPI on screen; a higher DPI scales the same picture up.
    const double scale = dpi / 96.0;
    const theme::LightForExport light;  // exports are drawn light, whatever the window shows
    QImage image = plot->toPixmap(size.width(), size.height(), scale).toImage();
    const int dotsPerMetre = qRound(dpi / 0.0254);
    image.setDotsPerMeterX(dotsPerMetre);
    image.setDotsPerMeterY(dotsPerMetre);
    return writePngFile(path, image);
}

Result<void> savePlotSvg(QCustomPlot* plot, const QString& path) {
    const QByteArray svg = plotSvgBytes(plot, plotSize(plot), QFileInfo(path).completeBaseName());
    if (svg.isEmpty()) return Error{path.toStdString(), QObject::tr("cannot draw the SVG").toStdString()};
    return writeFileAtomically(path, svg);
}

Result<void> savePlotPdf(QCustomPlot* plot, const QString& path) {
    const QByteArray pdf = plotPdfBytes(plot, plotSize(plot), QFileInfo(path).completeBaseName());
    if (pdf.isEmpty()) return Error{path.toStdString(), QObject::tr("cannot draw the PDF").toStdString()};
    return writeFileAtomically(path, pdf);
}

QByteArray matrixCsv(const Mat& m) {
    QByteArray csv;
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        for (Eigen::Index c = 0; c < m.cols(); ++c) {
            if (c > 0) csv += ',';
            csv += QByteArray::number(m(r, c), 'g', 17);
        }
        csv += '\n';
    }
    return csv;
}

Result<void> saveMatrixCsv(const Mat& m, const QString& path) { return writeFileAtomically(path, matrixCsv(m)); }

Result<void> saveMatrixNpy(const Mat& m, const QString& path) {
    const std::string bytes = npyBytes(m);
    return writeFileAtomically(path, QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size())));
}

Result<void> saveMatrixJson(const Mat& m, const QString& path) {
    return writeFileAtomically(path, QByteArray::fromStdString(matrixToJson(m)));
}

void exportFigureDialog(QWidget* parent, QCustomPlot* plot, const Mat* matrix, const QString& baseName) {
    QString filters = QObject::tr("PNG image (*.png);;SVG vector image (*.svg);;PDF (*.pdf)");
    if (matrix) filters += QObject::tr(";;CSV matrix (*.csv);;JSON matrix (*.json);;NumPy matrix (*.npy)");
    const QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Export figure"),
                                                      QDir::home().filePath(baseName + ".png"), filters);
    if (path.isEmpty()) return;
    const QString suffix = QFileInfo(path).suffix().toLower();
    Result<void> error;
    if (suffix == "svg") error = savePlotSvg(plot, path);
    else if (suffix == "pdf") error = savePlotPdf(plot, path);
    else if (suffix == "csv" && matrix) error = saveMatrixCsv(*matrix, path);
    else if (suffix == "npy" && matrix) error = saveMatrixNpy(*matrix, path);
    else if (suffix == "json" && matrix) error = saveMatrixJson(*matrix, path);
    else if (suffix == "png") {
        bool ok = false;
        const int dpi = QInputDialog::getInt(parent, QObject::tr("PNG resolution"), QObject::tr("DPI:"), 300, 24, 1200, 1, &ok);
        if (!ok) return;
        error = savePlotPng(plot, path, dpi);
    } else {
        error = Error{path.toStdString(),
                      QObject::tr("unknown file type “.%1”: use .png, .svg, .pdf, .csv, .json or .npy").arg(suffix).toStdString()};
    }
    if (!error.ok()) QMessageBox::warning(parent, QObject::tr("Export failed"), errorText(error));
}

QPushButton* exportButton(QWidget* parent, QCustomPlot* plot, std::function<const Mat*()> matrix,
                          const QString& baseName) {
    auto* button = new QPushButton(QObject::tr("Export…"), parent);
    button->setToolTip(QObject::tr("PNG (chosen DPI), SVG, PDF%1").arg(matrix ? QObject::tr("; the matrix as CSV, JSON or .npy") : QString()));
    QObject::connect(button, &QPushButton::clicked, parent, [parent, plot, matrix, baseName] {
        exportFigureDialog(parent, plot, matrix ? matrix() : nullptr, baseName);
    });
    return button;
}

QWidget* plotCard(QWidget* parent, QCustomPlot* plot, const QString& baseName, QSize minimum,
                  std::function<const Mat*()> matrix) {
    auto* card = new QWidget(parent);
    auto* column = new QVBoxLayout(card);
    column->setContentsMargins(0, 0, 0, 0);
    plot->setMinimumSize(minimum);
    followWidgetFont(plot, kLabLaidOutForPoints);  // View ▸ Zoom reaches the lab through the application font
    column->addWidget(plot, 1);
    column->addWidget(exportButton(card, plot, std::move(matrix), baseName), 0, Qt::AlignRight);
    return card;
}

}  // namespace attnscope
