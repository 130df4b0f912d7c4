#pragma once
// How programs outside the shipped binary (the GUI tests, the screenshot tour, the window
// benchmark) drive the real MainWindow: its parts by object name, and waits for its background
// work. The window has no getters or waits that exist only for them.
#include <QCoreApplication>
#include <QObject>
#include <QTest>

#include "app/head_analysis_worker.hpp"
#include "app/main_window.hpp"
#include "app/presentation.hpp"
#include "app/source/lesson_trace_source.hpp"
#include "app/source/model_trace_source.hpp"
#include "app/tabs/corpus_controller.hpp"
#include "app/tabs/heads_tab.hpp"

namespace attnscope {

// The child named `name`; a missing one fails loudly instead of crashing later.
template <class T>
T* child(const QObject& window, const char* name) {
    T* found = window.findChild<T*>(QString::fromLatin1(name));
    if (!found) qFatal("no child \"%s\" of the expected type", name);
    return found;
}

// What the window shows: the model when one is open over the lesson, else the lesson. Asked the
// way the window's own helpers ask (WindowActions::showsLesson).
inline const TraceSource& shownSource(MainWindow& w) {
    if (w.actions().showsLesson()) return *child<LessonTraceSource>(w, "lessonSource");
    return *child<ModelTraceSource>(w, "modelSource");
}

inline HeadsTab* headsTabOf(const MainWindow& w) { return child<HeadsTab>(w, "headsTab"); }
inline Presentation* presentationOf(const MainWindow& w) {  // the window has one
    auto* presentation = w.findChild<Presentation*>();
    if (!presentation) qFatal("the window has no Presentation");
    return presentation;
}

// Processes events until `idle` holds or `timeoutMs` passed, then delivers what the last result
// queued; whether it holds.
template <class Idle>
bool waitUntil(Idle idle, int timeoutMs) {
    const bool reached = QTest::qWaitFor(idle, timeoutMs);
    QCoreApplication::processEvents();
    return reached && idle();
}

// Until the model source is idle (opened or run).
inline bool waitForModel(const MainWindow& w, int timeoutMs = 30000) {
    const ModelTraceSource* model = child<ModelTraceSource>(w, "modelSource");
    return waitUntil([model] { return !model->running(); }, timeoutMs);
}

// Until the Heads tab's evaluation, head statistics and corpus run are idle.
inline bool waitForHeadAnalysis(const MainWindow& w, int timeoutMs = 30000) {
    const auto* worker = child<HeadAnalysisWorker>(w, "headAnalysisWorker");
    const auto* corpus = child<CorpusController>(w, "corpusController");
    return waitUntil([=] { return !worker->evaluating() && !worker->computingStatistics() && !corpus->busy(); }, timeoutMs);
}

}  // namespace attnscope
