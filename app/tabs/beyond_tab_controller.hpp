#pragma once
// The "Beyond weights" tab (ui/beyond/beyond_view.hpp) for the open model: the logit lens and the
// direct logit attribution of the chosen prediction (core/analysis/logit_lens.hpp) on one
// LatestRequestWorker, computed while the tab is on screen (a newer run, top-k or prediction
// wins; progress and cancel), and the ablation ranking beside it on another when asked for
// (one forward per head). A lesson has no output head: the tab says so. Exports use core's
// writers, as `attnscope lens` and `attnscope dla` do, through the one atomic file writer.
#include <QObject>
#include <memory>
#include <optional>

#include "core/analysis/logit_lens.hpp"
#include "core/base/result.hpp"
#include "core/source/model_session.hpp"
#include "ui/beyond/beyond_view.hpp"

class QTabWidget;

namespace attnscope {

class LatestRequestWorker;
class ModelTraceSource;
class OnScreenRefresh;
class PredictionsView;

class BeyondTabController : public QObject {
    Q_OBJECT
public:
    BeyondTabController(QTabWidget* tabs, const ModelTraceSource* model, const PredictionsView* predictions,
                        QObject* parent = nullptr);
    ~BeyondTabController() override;

    // The window shows a new run: the model's (`modelShown`) or a lesson's.
    void showRun(bool modelShown);
    BeyondView* view() const { return view_; }
    bool busy() const;
    // Writes what the tab shows: the grid as a figure, or core's CSV/JSON of the lens or the attribution.
    Result<void> exportTo(const QString& path, BeyondExport kind) const;

private:
    void compute();
    void rank();
    void showAttribution();

    BeyondView* view_;
    const ModelTraceSource* model_;
    const PredictionsView* predictions_;
    LatestRequestWorker* worker_;
    LatestRequestWorker* ranker_;
    std::unique_ptr<OnScreenRefresh> onScreen_;
    bool modelShown_ = false;
    // What the tab shows, all of one run.
    std::shared_ptr<const OpenedModel> opened_;
    std::shared_ptr<const ModelRun> run_;
    std::optional<LogitLens> lens_;
    std::optional<LogitAttribution> attribution_;
    std::optional<HeadEffects> effects_;
};

}  // namespace attnscope
