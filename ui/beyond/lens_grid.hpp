#pragma once
// The logit lens as a grid (core/analysis/logit_lens.hpp): a row per layer (the embeddings'
// output first, the model's own prediction last), a column per position read, each cell the
// top-k tokens with their probabilities, shaded by the first one's. The same painting makes the
// exported figure (PNG or SVG). It renders what it is given; it computes nothing.
#include <QStringList>
#include <QWidget>
#include <vector>

class QPainter;

namespace attnscope {

struct LensCell {
    QStringList tokens;              // best first
    std::vector<double> probabilities;
};
struct LensTable {
    QString title;                   // what is shown: the tab's caption, and drawn above the figure
    QStringList rows, columns;       // "embeddings", "layer 1", …; the positions' tokens
    std::vector<std::vector<LensCell>> cells;  // rows × columns
};

class LensGrid : public QWidget {
    Q_OBJECT
public:
    explicit LensGrid(QWidget* parent = nullptr);

    void setTable(LensTable table);
    const LensTable& table() const { return table_; }
    QSize sizeHint() const override;  // the whole grid: it sits in a scroll area
    // The whole grid as a figure: "png" (2×, light) or "svg"; empty for another format.
    QByteArray figureBytes(const QString& format) const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void paint(QPainter& painter, bool titled) const;  // titled: the figure, with the title above
    QSize gridSize(bool titled) const;
    QSize cellSize() const;

    LensTable table_;
};

}  // namespace attnscope
