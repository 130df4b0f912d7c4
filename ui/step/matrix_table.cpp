#include "ui/step/matrix_table.hpp"

#include <QHash>
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

namespace {

// The widths of cell texts, each shape measured once: texts that differ only in their digits
// ("0.1234", "−0.5678") are measured as one, with the font's widest digit in every digit's place,
// so no text is measured narrower than it is. At 4,096 tokens a step's matrix has millions of
// cells, and shaping each (HarfBuzz) was 5 of a layer switch's 7 s (perf, bench/README.md).
class TextWidths {
public:
    explicit TextWidths(const QFontMetrics& metrics) : metrics_(metrics) {
        int widest = -1;
        for (QChar digit = '0'; digit <= '9'; digit = QChar(digit.unicode() + 1))
            if (const int w = metrics.horizontalAdvance(digit); w > widest) widest = w, widestDigit_ = digit;
    }
    int of(const QString& text) {
        QString shape = text;
        for (QChar& c : shape)
            if (c >= '0' && c <= '9') c = widestDigit_;
        const auto known = widths_.constFind(shape);
        if (known != widths_.cend()) return *known;
        return *widths_.insert(shape, metrics_.horizontalAdvance(shape));
    }

private:
    const QFontMetrics& metrics_;
    QChar widestDigit_ = '0';
    QHash<QString, int> widths_;
};

}  // namespace

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
    TextWidths widths(metrics);
    for (int c = 0; c < cols; ++c) {
        int widest = headerMetrics.horizontalAdvance(m->headerData(c, Qt::Horizontal).toString()) + padding * 3 / 4;
        const QVariant candidates = m->headerData(c, Qt::Horizontal, kWidestTextsRole);
        if (candidates.isValid())
            for (const QString& text : candidates.toStringList()) widest = std::max(widest, widths.of(text) + padding);
        else
            for (int r = 0; r < rows; ++r) widest = std::max(widest, widths.of(m->index(r, c).data().toString()) + padding);
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
