#pragma once
// The Compare tab (issue 14 §4): a second sentence typed beside the window's, and for the shown
// layer and head three maps on the aligned tokens or words: A, B (viridis, 0–1) and A − B
// (diverging blue–white–vermillion, symmetric around 0), with a line saying how the tokens were
// aligned and what was left out. It renders a HeadComparison from core; it computes nothing: under
// "Weight × ‖value‖" core's comparison of the norm-weighted Traces (each row's shares, 0–1 too).
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "core/analysis/compare_export.hpp"
#include "ui/compare/compare_figure.hpp"

class QLabel;
class QLineEdit;
class QToolButton;

namespace attnscope {

class MatrixPlotBuilder;

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);
    ~CompareView() override;

    QLineEdit* sentenceBox() const { return sentenceB_; }
    // The shown head: comparison.heads.front(), titled by what its matrices are (normWeighted);
    // kept for the exports. `note`: a line added to the caption (why the weights are shown though
    // weight × ‖value‖ was chosen).
    void showComparison(const SentenceComparison& comparison, int decimals, const QString& note = {});
    void showMessage(const QString& message);  // nothing to compare yet, or why not; the maps clear

    // What is drawn, for tests: A, B and A − B, in that order.
    std::vector<const MatrixPlotBuilder*> builders() const;
    QString caption() const;

    // The three maps as one figure (PNG, SVG, PDF) or the numbers (CSV, JSON), written atomically;
    // an error when nothing is compared yet.
    Result<void> exportTo(const QString& path, CompareExport kind) const;

signals:
    void sentenceEntered(const QString& sentence);

private:
    QToolButton* buildExportButton();
    void exportDialog(CompareExport kind);

    QLineEdit* sentenceB_ = nullptr;
    QToolButton* export_ = nullptr;
    std::optional<SentenceComparison> shown_;
    QLabel* caption_ = nullptr;
    std::vector<std::unique_ptr<MatrixPlotBuilder>> builders_;
};

}  // namespace attnscope
