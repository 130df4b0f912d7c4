#pragma once
// Paints a matrix cell: a light diverging tint for its sign and size (orange positive, blue
// negative, grey for −∞) and a thick frame when the cell is highlighted as a source.
#include <QStyledItemDelegate>

namespace attnscope {

class MatrixDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void setShading(bool on) { shading_ = on; }
    bool shading() const { return shading_; }

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    static constexpr int kTextPadding = 5;  // pixels between the digits and the cell border

private:
    bool shading_ = true;
};

}  // namespace attnscope
