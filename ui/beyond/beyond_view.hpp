#pragma once
// The "Beyond weights" tab (issue 30 §2): for a model's run, the logit lens grid (LensGrid) and
// beside it the heads ranked by direct logit attribution, with the ablation ranking's numbers
// next to them once asked for (one run of the model per head). For a lesson it says why it is
// empty. It renders what the controller (app/tabs/beyond_tab_controller.hpp) hands it.
#include <QWidget>
#include <functional>
#include <optional>
#include <string>

#include "core/analysis/logit_lens.hpp"
#include "ui/beyond/lens_grid.hpp"

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QToolButton;

namespace attnscope {

class JobProgress;

enum class BeyondExport { LensPng, LensSvg, LensCsv, LensJson, AttributionCsv, AttributionJson };

class BeyondView : public QWidget {
    Q_OBJECT
public:
    using Labeler = std::function<std::string(int id)>;
    explicit BeyondView(QWidget* parent = nullptr);

    // Why nothing is shown (a lesson, no run yet, an error): the grid and the table are cleared.
    void showEmpty(const QString& why);
    // A new run: its predictions to attribute ("position 5: “shepherd”"), results cleared.
    void setPredictions(const QStringList& headings);
    void showProgress(int done, int total);  // the lens and attribution job; (0, 0): busy
    void showLens(LensTable table);
    void showCancelled(const QString& message);  // the last result stays
    void showAttribution(const LogitAttribution& a, const HeadEffects* effects, const Labeler& label);
    void showAttributionError(const QString& message);  // the lens may still be shown
    void showRankingProgress(int done, int total);
    void showRankingMessage(const QString& message);    // cancelled or failed

    int topK() const;
    int chosenPrediction() const;
    QString caption() const;
    const LensGrid* grid() const { return grid_; }
    QTableWidget* attributionTable() const { return table_; }
    QPushButton* rankButton() const { return rank_; }

signals:
    void requestChanged();   // another top-k or prediction: compute again
    void cancelRequested();
    void rankRequested();    // the ablation ranking beside the attribution
    void cancelRankingRequested();
    void exportRequested(attnscope::BeyondExport kind, const QString& path);

private:
    QWidget* buildControls();
    QToolButton* buildExportButton();
    void exportDialog(BeyondExport kind);

    QLabel* caption_ = nullptr;
    QLabel* attributionCaption_ = nullptr;
    QSpinBox* topK_ = nullptr;
    QComboBox* prediction_ = nullptr;
    JobProgress* progress_ = nullptr;
    JobProgress* rankingProgress_ = nullptr;
    QPushButton* rank_ = nullptr;
    LensGrid* grid_ = nullptr;
    QTableWidget* table_ = nullptr;
};

}  // namespace attnscope
