#pragma once
// The controller of the Heads tab: ranks every head of the open source on a coreference set
// (a path or a built-in ":/coref/…") and computes the head statistics of the trace on screen,
// both off the GUI thread (HeadAnalysisWorker); shows them in the HeadsPanel and as badges on
// the model view; exports the ranking as png, svg, pdf, csv or json, atomically.
#include <memory>

#include "app/reporting_part.hpp"
#include "core/analysis/coreference.hpp"

class QTabWidget;

namespace attnscope {

class CorpusController;
class HeadAnalysisWorker;
class HeadsPanel;
class ModelView;
class TraceSource;

class HeadsTab : public ReportingPart {
    Q_OBJECT
public:
    // Adds the panel to `tabs`; badges go to `modelView` when the source offers the model views.
    HeadsTab(QTabWidget* tabs, ModelView* modelView, QObject* parent = nullptr);

    void setSource(const TraceSource* source);  // a new lesson, model or edit: the ranking is reset
    void evaluate(const QString& setSource);
    // `norms`: the run's norm-weighted Trace once ready (null: the weights' statistics alone).
    void requestStatistics(std::shared_ptr<const Trace> trace, const QString& sentence,
                           std::shared_ptr<const Trace> norms = nullptr);
    bool exportRanking(const QString& path, const QString& format);
    HeadsPanel* panel() const { return panel_; }
    CorpusController* corpus() const { return corpus_; }

signals:  // besides ReportingPart's failed / wrote
    void useHeadsForCoreference(const std::vector<HeadRef>& heads);

private:
    void connectPanel();
    void onEvaluationFinished();
    void onStatisticsReady();
    void orderModelView();
    void exportDialog(const QString& format);

    const TraceSource* source_ = nullptr;
    HeadsPanel* panel_ = nullptr;
    HeadAnalysisWorker* worker_ = nullptr;
    CorpusController* corpus_ = nullptr;  // the "Corpus" page's runs and exports
    ModelView* modelView_ = nullptr;
    QString statisticsSentence_;
};

}  // namespace attnscope
