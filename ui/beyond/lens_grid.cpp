#include "ui/beyond/lens_grid.hpp"

#include <QFontMetrics>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <qcustomplot.h>

#include "ui/common/file_write.hpp"
#include "ui/common/plot_bytes.hpp"
#include "ui/common/theme_colors.hpp"

namespace attnscope {

namespace {

constexpr int kPad = 6;

// Probability p shades the cell from paper (0) to the bar colour (1).
QColor shade(double p) {
    const QColor paper = theme::paper(), bar = theme::color(theme::Role::BarFill);
    const double t = std::clamp(p, 0.0, 1.0) * 0.6;
    return QColor::fromRgbF(static_cast<float>(paper.redF() + (bar.redF() - paper.redF()) * t),
                            static_cast<float>(paper.greenF() + (bar.greenF() - paper.greenF()) * t),
                            static_cast<float>(paper.blueF() + (bar.blueF() - paper.blueF()) * t));
}

QString lineOf(const LensCell& cell, std::size_t r) {
    return QStringLiteral("%1  %2").arg(cell.tokens[static_cast<int>(r)]).arg(cell.probabilities[r], 0, 'f', 3);
}

int rowLines(const LensTable& t) {
    std::size_t lines = 1;
    for (const auto& row : t.cells)
        for (const LensCell& c : row) lines = std::max(lines, c.probabilities.size());
    return static_cast<int>(lines);
}

}  // namespace

LensGrid::LensGrid(QWidget* parent) : QWidget(parent) {
    setObjectName("lensGrid");
    theme::follow(this, [this] { update(); });
}

void LensGrid::setTable(LensTable table) {
    table_ = std::move(table);
    updateGeometry();
    resize(sizeHint());
    update();
}

QSize LensGrid::cellSize() const {
    const QFontMetrics m(font());
    int width = m.horizontalAdvance(QStringLiteral("0000000  0.000"));
    for (const QString& c : table_.columns) width = std::max(width, m.horizontalAdvance(c));
    for (const auto& row : table_.cells)
        for (const LensCell& c : row)
            for (std::size_t r = 0; r < c.probabilities.size(); ++r) width = std::max(width, m.horizontalAdvance(lineOf(c, r)));
    return {width + 2 * kPad, rowLines(table_) * m.height() + 2 * kPad};
}

QSize LensGrid::sizeHint() const { return gridSize(false); }

QSize LensGrid::gridSize(bool titled) const {
    const QFontMetrics m(font());
    int header = 0;
    for (const QString& r : table_.rows) header = std::max(header, m.horizontalAdvance(r));
    const QSize cell = cellSize();
    const int titleHeight = titled ? m.height() + 2 * kPad : 0;
    const int grid = header + 2 * kPad + cell.width() * static_cast<int>(table_.columns.size()) + 1;
    return {titled ? std::max(grid, m.horizontalAdvance(table_.title) + 2 * kPad) : grid,
            titleHeight + m.height() + 2 * kPad + cell.height() * static_cast<int>(table_.rows.size()) + 1};
}

void LensGrid::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), theme::paper());
    paint(painter, false);  // the tab's caption above says what it is
}

void LensGrid::paint(QPainter& painter, bool titled) const {
    const QFontMetrics m(font());
    painter.setFont(font());
    const QSize cell = cellSize();
    int header = 0;
    for (const QString& r : table_.rows) header = std::max(header, m.horizontalAdvance(r));
    header += 2 * kPad;
    int y = 0;
    painter.setPen(theme::ink());
    if (titled) {
        painter.drawText(QRect(kPad, 0, gridSize(true).width() - kPad, m.height() + 2 * kPad), Qt::AlignLeft | Qt::AlignVCenter, table_.title);
        y = m.height() + 2 * kPad;
    }
    const int headerHeight = m.height() + 2 * kPad;
    for (int c = 0; c < table_.columns.size(); ++c)
        painter.drawText(QRect(header + c * cell.width(), y, cell.width(), headerHeight), Qt::AlignCenter, table_.columns[c]);
    y += headerHeight;
    for (int r = 0; r < table_.rows.size(); ++r) {
        const int top = y + r * cell.height();
        painter.setPen(theme::ink());
        painter.drawText(QRect(kPad, top, header - kPad, cell.height()), Qt::AlignLeft | Qt::AlignVCenter, table_.rows[r]);
        for (int c = 0; c < table_.columns.size(); ++c) {
            const LensCell& lens = table_.cells[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
            const QRect box(header + c * cell.width(), top, cell.width(), cell.height());
            painter.fillRect(box, shade(lens.probabilities.empty() ? 0 : lens.probabilities.front()));
            painter.setPen(theme::color(theme::Role::ChipBorder));
            painter.drawRect(box);
            painter.setPen(theme::ink());
            for (std::size_t k = 0; k < lens.probabilities.size(); ++k)
                painter.drawText(box.adjusted(kPad, kPad + static_cast<int>(k) * m.height(), -kPad, 0), Qt::AlignLeft | Qt::AlignTop,
                                 lineOf(lens, k));
        }
    }
}

QByteArray LensGrid::figureBytes(const QString& format) const {
    const theme::LightForExport light;  // exports are drawn light, whatever the window shows
    const QSize size = gridSize(true);
    if (format == QLatin1String("svg"))
        return svgBytes(size, table_.title, [this, size](QCPPainter& painter) {
            painter.fillRect(QRect(QPoint(0, 0), size), theme::paper());
            paint(painter, true);
        });
    if (format != QLatin1String("png")) return {};
    constexpr double kScale = 2;  // sharp on slides
    QImage image(size * kScale, QImage::Format_ARGB32);
    image.fill(theme::paper());
    QPainter painter;
    if (!painter.begin(&image)) return {};
    painter.scale(kScale, kScale);
    paint(painter, true);
    painter.end();
    return pngBytes(image);
}

}  // namespace attnscope
