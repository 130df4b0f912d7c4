#include "ui/matrix_table.hpp"

#include <QHeaderView>
#include <QKeyEvent>
#include <QScrollBar>

namespace attnscope {

MatrixTable::MatrixTable(QWidget* parent) : QTableView(parent) {
    setSelectionMode(QAbstractItemView::SingleSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    horizontalHeader()->setDefaultAlignment(Qt::AlignCenter);
    verticalHeader()->setDefaultAlignment(Qt::AlignRight | Qt::AlignVCenter);
}

void MatrixTable::fitToContents(QSize maxSize) {
    resizeColumnsToContents();
    resizeRowsToContents();
    // Air around the digits, and room for the highlight frame.
    for (int c = 0; c < horizontalHeader()->count(); ++c) setColumnWidth(c, columnWidth(c) + 6);
    const int frame = 2 * frameWidth();
    int w = verticalHeader()->sizeHint().width() + frame + 2;
    for (int c = 0; c < horizontalHeader()->count(); ++c) w += columnWidth(c);
    int h = horizontalHeader()->sizeHint().height() + frame + 2;
    for (int r = 0; r < verticalHeader()->count(); ++r) h += rowHeight(r);
    // Leave room for the scroll bar that appears when the other direction is cut.
    if (h > maxSize.height()) w += verticalScrollBar()->sizeHint().width();
    if (w > maxSize.width()) h += horizontalScrollBar()->sizeHint().height();
    setFixedSize(std::min(w, maxSize.width()), std::min(h, maxSize.height()));
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
