#include "ui/step/matrix_table.hpp"

#include <QHeaderView>
#include <QItemSelection>
#include <QKeyEvent>
#include <QScrollBar>
#include <algorithm>

namespace attnscope {

MatrixTable::MatrixTable(QWidget* parent) : QTableView(parent) {
    setSelectionMode(QAbstractItemView::SingleSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    horizontalHeader()->setDefaultAlignment(Qt::AlignCenter);
    verticalHeader()->setDefaultAlignment(Qt::AlignRight | Qt::AlignVCenter);
    connect(verticalHeader(), &QHeaderView::sectionClicked, this, &MatrixTable::selectWholeRow);
}

void MatrixTable::selectWholeRow(int row) {
    const QAbstractItemModel* m = model();
    if (!m || row < 0 || row >= m->rowCount() || m->columnCount() == 0) return;
    const int column = std::max(0, currentIndex().column());
    selectionModel()->setCurrentIndex(m->index(row, column), QItemSelectionModel::NoUpdate);
    selectionModel()->select(QItemSelection(m->index(row, 0), m->index(row, m->columnCount() - 1)),
                             QItemSelectionModel::ClearAndSelect);
}

// Column widths come from the font metrics of each column's widest text; asking every cell's
// delegate for a size hint (resizeColumnsToContents) cost more than the whole recompute.
void MatrixTable::fitToContents(QSize maxSize) {
    const QFontMetrics metrics(font());
    const QAbstractItemModel* m = model();
    const int rows = m ? m->rowCount() : 0;
    const int cols = m ? m->columnCount() : 0;
    const int rowHeight = metrics.height() * (compact_ ? 12 : 15) / 10;  // padding in proportion: 2× the zoom, 2× the row
    const int padding = compact_ ? 6 : 16;  // the delegate keeps 2 × 5 px beside the digits, less when compact
    // The header's minimum (from the style) would otherwise make the compact rows taller than counted.
    verticalHeader()->setMinimumSectionSize(std::min(rowHeight, metrics.height()));
    horizontalHeader()->setMinimumSectionSize(padding);
    verticalHeader()->setDefaultSectionSize(rowHeight);
    QFont headerFont = horizontalHeader()->font();
    headerFont.setBold(true);  // the current cell's column header is drawn bold
    const QFontMetrics headerMetrics(headerFont);
    for (int c = 0; c < cols; ++c) {
        int widest = headerMetrics.horizontalAdvance(m->headerData(c, Qt::Horizontal).toString()) + padding * 3 / 4;
        for (int r = 0; r < rows; ++r)
            widest = std::max(widest, metrics.horizontalAdvance(m->index(r, c).data().toString()) + padding);
        setColumnWidth(c, widest);
    }
    const int frame = 2 * frameWidth();
    const int w = verticalHeader()->sizeHint().width() + frame + 2 + horizontalHeader()->length();
    const int h = horizontalHeader()->sizeHint().height() + frame + 2 + verticalHeader()->length();
    // Leave room for the scroll bar that appears when the other direction is cut.
    const int fullW = w + (h > maxSize.height() ? verticalScrollBar()->sizeHint().width() : 0);
    const int fullH = h + (w > maxSize.width() ? horizontalScrollBar()->sizeHint().height() : 0);
    setFixedSize(std::min(fullW, maxSize.width()), std::min(fullH, maxSize.height()));
}

bool MatrixTable::event(QEvent* event) {
    if (event->type() == QEvent::ShortcutOverride) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Left || key == Qt::Key_Right || key == Qt::Key_Up || key == Qt::Key_Down) {
            event->accept();
            return true;
        }
    }
    return QTableView::event(event);
}

}  // namespace attnscope
