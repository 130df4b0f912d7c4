#pragma once
// Loads and runs pretrained models off the GUI thread. Requests go to one worker thread;
// progress and results come back as queued calls and are re-emitted as signals on the GUI
// thread. A newer request supersedes the older one: the older run is cancelled (RunControl's
// atomic flag, checked before every layer) and whatever it still delivers is dropped by its
// generation number. The last good result stays available until a newer one is ready.
#include <QObject>
#include <QString>
#include <QThread>
#include <atomic>
#include <functional>
#include <memory>

#include "app/model_session.hpp"

namespace attnscope {

class ModelWorker : public QObject {
    Q_OBJECT
public:
    explicit ModelWorker(QObject* parent = nullptr);
    ~ModelWorker() override;  // cancels what runs and waits for the thread

    void openModel(const QString& pathOrId);            // → modelOpened / openFailed
    void run(const QString& sentence, int detailLayer);  // → runFinished / runFailed (needs a model)
    void showLayerInDetail(int layer);                   // → detailReady (for lastRun())
    void cancel();                                       // the running request; results stay
    void clear();                                        // forgets the model and results

    bool running() const { return opening_ || runInFlight_; }
    std::shared_ptr<const OpenedModel> model() const { return model_; }
    std::shared_ptr<const ModelRun> lastRun() const { return run_; }
    std::shared_ptr<const Trace> detailTrace() const { return detail_; }
    int detailLayer() const { return detailLayer_; }
    QString lastSentence() const { return sentence_; }

    // Tests: called on the worker thread after every layer, before progress is reported.
    void setProgressHookForTests(std::function<void(int layersDone)> hook) { progressHook_ = std::move(hook); }

signals:
    void modelOpened();
    void openFailed(const QString& message);
    void runStarted();
    void progress(int layersDone, int layerCount);
    void runFinished();
    void runFailed(const QString& message, bool cancelled);
    void detailReady();

private:
    struct RunResult;
    int startRequest();  // cancels the previous one; returns the new generation
    void postToWorker(std::function<void()> job);
    void postToGui(std::function<void()> job);
    bool isCurrent(int generation) const { return generation == generation_.load(); }
    void deliverRun(int generation, const std::shared_ptr<RunResult>& result);
    void finishRequest(int generation);

    QThread thread_;
    QObject* context_ = nullptr;  // lives on thread_: jobs posted to it run there
    std::atomic<int> generation_{0};
    std::shared_ptr<std::atomic<bool>> cancel_;
    int openGeneration_ = 0;  // GUI thread only
    bool opening_ = false;
    bool runInFlight_ = false;
    std::function<void(int)> progressHook_;

    std::shared_ptr<const OpenedModel> model_;
    std::shared_ptr<const ModelRun> run_;
    std::shared_ptr<const Trace> detail_;
    int detailLayer_ = 0;
    QString sentence_;
};

}  // namespace attnscope
