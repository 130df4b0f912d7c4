#pragma once
// A table view for one small matrix. Arrow keys move between cells even though the window uses
// Left/Right as step shortcuts: the view claims them in ShortcutOverride.
#include <QTableView>

namespace attnscope {

class MatrixTable : public QTableView {
    Q_OBJECT
public:
    explicit MatrixTable(QWidget* parent = nullptr);
    // Grows the view to show every cell, up to `maxSize`; beyond that it scrolls.
    void fitToContents(QSize maxSize);

protected:
    bool event(QEvent* event) override;
};

}  // namespace attnscope
