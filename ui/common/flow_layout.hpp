#pragma once
// Items left to right, onto the next line when the width runs out (as Qt's Flow Layout example
// lays them out; Qt ships no such class): a row of settings that fits a projector's zoom.
#include <QLayout>
#include <QList>

namespace attnscope {

class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget* parent, int spacing = 6);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override;
    int count() const override { return static_cast<int>(items_.size()); }
    QLayoutItem* itemAt(int index) const override { return items_.value(index); }
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override { return arrange(QRect(0, 0, width, 0), false); }
    QSize sizeHint() const override { return minimumSize(); }
    QSize minimumSize() const override;  // the widest item: every other one may go on a line of its own
    void setGeometry(const QRect& rect) override;

private:
    int arrange(const QRect& rect, bool place) const;  // the height used; places the items when asked
    QList<QLayoutItem*> items_;
    int spacing_;
};

}  // namespace attnscope
