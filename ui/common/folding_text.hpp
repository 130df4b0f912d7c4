#pragma once
// A wrapped text of a few lines with "More ▾" when it has more (the lesson's description, whose
// worked answer would otherwise take half the screen): the button unfolds it, "Less ▴" folds it.
#include <QWidget>

class QLabel;
class QToolButton;

namespace attnscope {

class FoldingText : public QWidget {
    Q_OBJECT
public:
    explicit FoldingText(QWidget* parent = nullptr, int foldedLines = 3);

    void setText(const QString& text);
    void setFolded(bool folded);
    bool folded() const { return folded_; }
    bool hasMore() const;  // the text takes more than the folded lines at this width
    QLabel* label() const { return label_; }
    QToolButton* toggle() const { return toggle_; }

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void updateFold();
    int foldedHeight() const;

    QLabel* label_ = nullptr;
    QToolButton* toggle_ = nullptr;
    int foldedLines_;
    bool folded_ = true;
};

}  // namespace attnscope
