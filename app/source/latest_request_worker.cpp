#include "app/source/latest_request_worker.hpp"

#include <QMetaObject>

#include "core/kernels/vector_state.hpp"

namespace attnscope {

LatestRequestWorker::LatestRequestWorker(const QString& threadName, QObject* parent) : QObject(parent) {
    context_ = new QObject;
    context_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, context_, &QObject::deleteLater);
    thread_.setObjectName(threadName);
    thread_.start();
}

LatestRequestWorker::~LatestRequestWorker() {
    ++generation_;  // queued jobs see they are stale and return at once
    if (cancel_) cancel_->store(true);
    thread_.quit();
    thread_.wait();
}

// Queued on `this`: dropped by Qt if the worker is destroyed before it arrives.
void LatestRequestWorker::postToGui(std::function<void()> job) {
    QMetaObject::invokeMethod(this, std::move(job), Qt::QueuedConnection);
}

void LatestRequestWorker::submit(Work work) {
    if (cancel_) cancel_->store(true);
    cancel_ = std::make_shared<std::atomic<bool>>(false);  // the old flag lives on in its request
    const int generation = ++generation_;
    busy_ = true;
    Request request{cancel_,
                    [this, generation](int done, int total) {
                        postToGui([this, generation, done, total] {
                            if (generation == generation_) emit progress(done, total);
                        });
                    },
                    [this, generation](Delivery early) {
                        postToGui([this, generation, early = std::move(early)] {
                            if (generation == generation_ && early) early();
                        });
                    }};
    auto job = [this, generation, work = std::move(work), request] {
        if (generation != generation_) return;  // superseded before it started
        clearUpperVectorState();  // core's SSE2 code at full speed whatever Qt's code left behind
        Delivery delivery = work(request);
        postToGui([this, generation, delivery = std::move(delivery)] {
            if (generation != generation_) return;  // a newer request came first
            busy_ = false;
            if (delivery) delivery();
        });
    };
    QMetaObject::invokeMethod(context_, std::move(job), Qt::QueuedConnection);
}

void LatestRequestWorker::cancel() {
    if (cancel_) cancel_->store(true);
}

void LatestRequestWorker::drop() {
    ++generation_;
    cancel();
    busy_ = false;
}

}  // namespace attnscope
