#pragma once
// A table view for one small matrix. Arrow keys move between cells even though the window uses
// Left/Right as step shortcuts: the view claims them in ShortcutOverride.
#include <QTableView>

namespace attnscope {

// A model may answer headerData(column, Qt::Horizontal, kWidestTextsRole) with the texts that can
// be the column's widest (a QStringList): fitToContents then measures those instead of every cell
// (a step's matrix at 4,096 tokens has millions).
inline constexpr int kWidestTextsRole = Qt::UserRole + 50;

class MatrixTable : public QTableView {
    Q_OBJECT
public:
    explicit MatrixTable(QWidget* parent = nullptr);
    // Grows the view to show every cell, up to `maxSize`; beyond that it scrolls.
    void fitToContents(QSize maxSize);
    // Less padding around the digits (fit mode on a projector: more digits for the same pixels).
    void setCompact(bool on) { compact_ = on; }
    // A row header's click: the whole row selected, its cell in the current column current (a
    // single-selection view of items otherwise ignores header clicks).
    void selectWholeRow(int row);

protected:
    bool event(QEvent* event) override;

private:
    bool compact_ = false;
};

}  // namespace attnscope
