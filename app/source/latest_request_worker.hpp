#pragma once
// One thread that only cares about the latest request: the pattern behind loading and running
// models, evaluating coreference sets, head statistics and coreference scoring. submit() cancels
// the request before it (its flag is set, RunControl and EvaluationControl check it) and drops
// whatever that request still delivers, by generation number. The work runs on the thread and
// returns what to do on the GUI thread; that delivery runs only if its request is still the
// latest, so the last good result stays in place until a newer one is ready.
#include <QObject>
#include <QThread>
#include <atomic>
#include <functional>
#include <memory>

namespace attnscope {

class LatestRequestWorker : public QObject {
    Q_OBJECT
public:
    using Delivery = std::function<void()>;  // runs on the GUI thread
    // What the work sees on the worker thread.
    struct Request {
        std::shared_ptr<std::atomic<bool>> cancel;           // set by cancel() or a newer request
        std::function<void(int done, int total)> progress;  // re-emitted as progress() while current
        // Part of the result before the rest: run on the GUI thread while the request is current.
        std::function<void(Delivery)> deliverEarly;
        std::atomic<bool>* cancelFlag() const { return cancel.get(); }
        bool cancelled() const { return cancel->load(); }
    };
    using Work = std::function<Delivery(const Request&)>;

    explicit LatestRequestWorker(const QString& threadName, QObject* parent = nullptr);
    ~LatestRequestWorker() override;  // cancels what runs and waits for the thread

    void submit(Work work);
    void cancel();  // sets the running request's flag; its (failed) result is still delivered
    void drop();    // cancels and forgets: nothing in flight delivers any more
    bool busy() const { return busy_; }  // a request is in flight (GUI thread)

signals:
    void progress(int done, int total);

private:
    void postToGui(std::function<void()> job);

    QThread thread_;
    QObject* context_ = nullptr;  // lives on thread_: jobs posted to it run there
    std::atomic<int> generation_{0};
    std::shared_ptr<std::atomic<bool>> cancel_;
    bool busy_ = false;
};

// The life of one kind of request as the GUI thread sees it: started, progress…, then finished
// or failed (`message` ready for the user; `cancelled` when cancel() or a newer request ended it).
// ModelWorker's runs and HeadAnalysisWorker's evaluations each tell theirs through one of these.
class JobSignals : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

signals:
    void started();
    void progress(int done, int total);
    void finished();
    void failed(const QString& message, bool cancelled);
};

}  // namespace attnscope
