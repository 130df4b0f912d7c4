#pragma once
// The "Queries & keys" tab's view: one head's queries (●) and keys (▲) in the 2-D plane core's
// qkSpace computed (core/analysis/qk_space.hpp), coloured by position (viridis, colour-blind-safe)
// or by token kind; hover names the token; a click on a query draws a line to every key it
// attends to, width and opacity ∝ the weight. A caption gives the explained variance, the
// distance–dot-product correlation and why the normalisation changes no softmax.
// It computes nothing: the controller (app/tabs/qk_tab_controller) hands it the result.
#include <QWidget>
#include <qcustomplot.h>
#include <optional>
#include <vector>

#include "core/analysis/qk_space.hpp"

class QComboBox;
class QCustomPlot;
class QLabel;

namespace attnscope {

// One line as drawn from the selected query to a key (indices into QkSpace::points).
struct DrawnQkLine {
    int query = 0, key = 0;
    double weight = 0;
};

class QkView : public QWidget {
    Q_OBJECT
public:
    explicit QkView(QWidget* parent = nullptr);

    // Draws `space` of `head` (0-based); keeps a selected query's token when it still exists.
    void showSpace(QkSpace space, HeadRef head);
    void showMessage(const QString& text);  // nothing to draw, and why

    QkLayout layout() const;  // the "Layout" box: PCA or t-SNE

    // Selects the query point `point` (an index into points, of kind Query) or none (-1).
    void selectQuery(int point);

    // What is on screen, for tests and the screenshot tour.
    const std::optional<QkSpace>& space() const { return space_; }
    int drawnPointCount() const { return drawnPoints_; }
    const std::vector<DrawnQkLine>& drawnLines() const { return lines_; }
    QString caption() const;
    QCustomPlot* plot() const { return plot_; }
    // The point under a widget position of the plot (within a few pixels), or -1.
    int pointAt(const QPointF& position) const;

private:
    void redraw();
    void drawPoints();
    void drawLines();
    void drawLabels();
    void keepEqualScales();
    QString hoverText(int point) const;

signals:
    void layoutChanged();  // the user chose PCA or t-SNE: the controller recomputes

private:

    QComboBox* layout_ = nullptr;
    QComboBox* colourBy_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    struct Captions {  // the lines under the plot: marker legend, numbers, why no softmax changes
        QLabel* legend = nullptr;
        QLabel* summary = nullptr;
        QLabel* note = nullptr;
    } captions_;
    std::optional<QkSpace> space_;
    HeadRef head_;
    int selected_ = -1;
    int drawnPoints_ = 0;
    std::vector<DrawnQkLine> lines_;
    std::vector<QCPAbstractItem*> lineItems_;  // the lines and the ring around the clicked query
    std::pair<QCPRange, QCPRange> fitted_;  // x and y ranges that hold every point
};

}  // namespace attnscope
