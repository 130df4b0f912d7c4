#pragma once
// A lab plot made together with its builder and framed as a card (the plot over its export
// button, figure_export.hpp's plotCard): how the lab panels set up their plots. A matrix card's
// CSV export writes the matrix as it was drawn.
#include <QSize>
#include <QString>
#include <memory>

class QWidget;

namespace attnscope {

class CurvePlotBuilder;
class MatrixPlotBuilder;

QWidget* matrixCard(QWidget* parent, std::unique_ptr<MatrixPlotBuilder>& builder, const QString& name, QSize minimum);
QWidget* curveCard(QWidget* parent, std::unique_ptr<CurvePlotBuilder>& builder, const QString& name, QSize minimum);

}  // namespace attnscope
