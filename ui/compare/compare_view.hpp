#pragma once
// The Compare tab (issue 14 §4): a second sentence typed beside the window's, and for the shown
// layer and head three maps on the aligned tokens or words: A, B (viridis, 0–1) and A − B
// (diverging blue–white–vermillion, symmetric around 0), with a line saying how the tokens were
// aligned and what was left out. It renders a HeadComparison from core; it computes nothing.
#include <QWidget>
#include <memory>
#include <vector>

#include "core/analysis/compare.hpp"

class QLabel;
class QLineEdit;

namespace attnscope {

class MatrixPlotBuilder;

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);
    ~CompareView() override;

    QLineEdit* sentenceBox() const { return sentenceB_; }
    void showComparison(const HeadComparison& comparison, int decimals);
    void showMessage(const QString& message);  // nothing to compare yet, or why not; the maps clear

    // What is drawn, for tests: A, B and A − B, in that order.
    std::vector<const MatrixPlotBuilder*> builders() const;
    QString caption() const;

signals:
    void sentenceEntered(const QString& sentence);

private:
    QLineEdit* sentenceB_ = nullptr;
    QLabel* caption_ = nullptr;
    std::vector<std::unique_ptr<MatrixPlotBuilder>> builders_;
};

}  // namespace attnscope
