#include "ui/lab/figure_export.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QImageWriter>
#include <QInputDialog>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTemporaryFile>
#include <qcustomplot.h>
#include <cstdio>

#include "core/export.hpp"
#include "core/npy.hpp"

namespace attnscope {

QString writeAtomically(const QString& path, const QByteArray& bytes) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return file.errorString();
    if (file.write(bytes) != bytes.size() || !file.commit()) return file.errorString();
    return {};
}

namespace {

QSize plotSize(QCustomPlot* plot) {
    const QSize size = plot->size();
    return size.isEmpty() ? QSize(800, 600) : size;  // a plot never shown has no size yet
}

}  // namespace

QString savePlotPng(QCustomPlot* plot, const QString& path, int dpi) {
    if (dpi < 24 || dpi > 1200) return QObject::tr("DPI must be between 24 and 1200, found %1").arg(dpi);
    const QSize size = plotSize(plot);
    // The plot is laid out at 96 DPI on screen; a higher DPI scales the same picture up.
    const double scale = dpi / 96.0;
    QImage image = plot->toPixmap(size.width(), size.height(), scale).toImage();
    const int dotsPerMetre = qRound(dpi / 0.0254);
    image.setDotsPerMeterX(dotsPerMetre);
    image.setDotsPerMeterY(dotsPerMetre);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return file.errorString();
    QImageWriter writer(&file, "png");
    if (!writer.write(image)) return writer.errorString();
    return file.commit() ? QString() : file.errorString();
}

QString savePlotSvg(QCustomPlot* plot, const QString& path) {
    const QSize size = plotSize(plot);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return file.errorString();
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(QFileInfo(path).completeBaseName());
    QCPPainter painter;
    if (!painter.begin(&svg)) return QObject::tr("cannot draw the SVG");
    plot->toPainter(&painter, size.width(), size.height());
    painter.end();
    return file.commit() ? QString() : file.errorString();
}

QString savePlotPdf(QCustomPlot* plot, const QString& path) {
    const QSize size = plotSize(plot);
    // savePdf writes by name: write beside the target, then rename over it in one step.
    QTemporaryFile temporary(QFileInfo(path).absolutePath() + "/.XXXXXX.pdf");
    if (!temporary.open()) return temporary.errorString();
    temporary.close();
    if (!plot->savePdf(temporary.fileName(), size.width(), size.height()))
        return QObject::tr("cannot write the PDF");
    if (std::rename(QFile::encodeName(temporary.fileName()).constData(), QFile::encodeName(path).constData()) != 0)
        return QObject::tr("cannot rename the PDF into place");
    temporary.setAutoRemove(false);  // it is the target now
    return {};
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

QString saveMatrixCsv(const Mat& m, const QString& path) { return writeAtomically(path, matrixCsv(m)); }

QString saveMatrixNpy(const Mat& m, const QString& path) {
    const std::string bytes = npyBytes(m);
    return writeAtomically(path, QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size())));
}

QString saveMatrixJson(const Mat& m, const QString& path) {
    return writeAtomically(path, QByteArray::fromStdString(matrixToJson(m)));
}

void exportFigureDialog(QWidget* parent, QCustomPlot* plot, const Mat* matrix, const QString& baseName) {
    QString filters = QObject::tr("PNG image (*.png);;SVG vector image (*.svg);;PDF (*.pdf)");
    if (matrix) filters += QObject::tr(";;CSV matrix (*.csv);;JSON matrix (*.json);;NumPy matrix (*.npy)");
    const QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Export figure"),
                                                      QDir::home().filePath(baseName + ".png"), filters);
    if (path.isEmpty()) return;
    const QString suffix = QFileInfo(path).suffix().toLower();
    QString error;
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
    } else error = QObject::tr("unknown file type “.%1”: use .png, .svg, .pdf, .csv, .json or .npy").arg(suffix);
    if (!error.isEmpty()) QMessageBox::warning(parent, QObject::tr("Export failed"), error);
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

}  // namespace attnscope
