#pragma once
// Fills the "Most important heads" box (ui/attention/head_effect_box.hpp) for the open model:
// rankHeadsByEffect on a LatestRequestWorker (one forward per head, progress per head, cancel; a
// new run or a newer request wins), and a double-clicked head is switched off through the
// window's "Switch heads off:" box.
#include <QObject>

#include "app/head_switch_menu.hpp"

namespace attnscope {

class HeadEffectBox;
class LatestRequestWorker;
class ModelTraceSource;
class PredictionsView;

class HeadEffectController : public QObject {
    Q_OBJECT
public:
    HeadEffectController(HeadEffectBox* box, const ModelTraceSource* model, const PredictionsView* predictions,
                         HeadSwitching switching, QObject* parent = nullptr);

    // The model's run changed (and the predictions view shows it): its predictions, no ranking.
    void showRun();
    bool busy() const;

private:
    void rank(int prediction);

    HeadEffectBox* box_;
    const ModelTraceSource* model_;
    const PredictionsView* predictions_;
    HeadSwitching switching_;
    LatestRequestWorker* worker_;
};

}  // namespace attnscope
