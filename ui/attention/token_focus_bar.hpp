#pragma once
// The head view's focus row: a spin box for the focus token's position, a find box (Enter: the
// next token containing the text, ignoring case, as the heatmap's find box matches) and a clear
// button. It only holds choices and says what was asked; the HeadView acts on them.
#include <QStringList>
#include <QWidget>
#include <vector>

class QLabel;
class QLineEdit;
class QSpinBox;

namespace attnscope {

class TokenFocusBar : public QWidget {
    Q_OBJECT
public:
    explicit TokenFocusBar(QWidget* parent = nullptr);

    // The tokens that can be chosen: `labels[t]` for token t; `shown`: those on screen, in order.
    void setTokens(QStringList labels, std::vector<int> shown);
    void showFocus(int token);  // −1: none; without signals
    // Tokens among the shown ones whose text contains `text`, ignoring case.
    std::vector<int> matches(const QString& text) const;

signals:
    void focusChosen(int token);  // −1: cleared

private:
    void findNext();

    QStringList labels_;
    std::vector<int> shown_;
    int focus_ = -1;
    QSpinBox* position_ = nullptr;
    QLineEdit* find_ = nullptr;
    QLabel* matches_ = nullptr;
};

}  // namespace attnscope
