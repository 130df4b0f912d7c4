#pragma once
// How the GUI tests reach into the real MainWindow: its widgets by object name (findChild, in
// scripts/driver/window_driver.hpp), the lesson under it and the model source. The window has no getters
// that exist only for tests.
#include <QGuiApplication>
#include <QLineEdit>
#include <QScreen>
#include <QObject>
#include <QTest>

#include "app/lesson_source.hpp"
#include "app/main_window.hpp"
#include "core/lesson/run_lesson.hpp"
#include "scripts/driver/window_driver.hpp"  // child<T>(window, name), waitForModel, waitForHeadAnalysis
#include "app/source/lesson_trace_source.hpp"
#include "app/source/model_trace_source.hpp"

namespace attnscope {

// One of the two offscreen screens of tests/gui/lecture_screens.json (1280×720, 1920×1080), by its width.
inline QScreen* screenOf(int width) {
    for (QScreen* s : QGuiApplication::screens())
        if (s->geometry().width() == width) return s;
    return nullptr;
}

// Data rows (language, lesson, screenWidth) of the encoder–decoder lesson on a projector: the
// translation lesson in English and in Chinese, and its Chinese twin (who am i → 我 是 谁) in
// Chinese, on either screen.
inline void addTranslationRows() {
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<int>("screenWidth");
    for (const int width : {1280, 1920}) {
        QTest::addRow("en, %d", width) << QString("en") << QString("translation") << width;
        QTest::addRow("zh_CN, translation, %d", width) << QString("zh_CN") << QString("translation") << width;
        QTest::addRow("zh_CN, translation-zh, %d", width) << QString("zh_CN") << QString("translation-zh") << width;
    }
}

inline const Session& sessionOf(const MainWindow& w) { return child<LessonTraceSource>(w, "lessonSource")->session(); }
inline ModelTraceSource* modelSourceOf(const MainWindow& w) { return child<ModelTraceSource>(w, "modelSource"); }
// The window shows the model (not the lesson underneath).
inline bool showsModel(MainWindow& w) { return &shownSource(w) == modelSourceOf(w); }
// The model run on screen, null while the window shows a lesson.
inline const ModelRun* shownRunOf(MainWindow& w) {
    return showsModel(w) ? modelSourceOf(w)->lastRun().get() : nullptr;
}

// A built-in lesson run on `sentence` by core here, not by the window: what a tab's numbers are checked against.
inline Trace lessonRun(const char* lesson, const std::string& sentence) {
    auto loaded = loadLesson(QString::fromLatin1(lesson));
    if (!loaded) qFatal("%s", loaded.error().text().c_str());
    auto trace = runLesson(loaded.value(), sentence);
    if (!trace) qFatal("%s", trace.error().text().c_str());
    return std::move(trace).value();
}

// Types `spec` into the "Switch heads off:" box and presses Return, as a user does.
inline void typeAblation(MainWindow& w, const QString& spec) {
    auto* edit = child<QLineEdit>(w, "ablateEdit");
    edit->selectAll();
    edit->del();
    QTest::keyClicks(edit, spec);
    QTest::keyClick(edit, Qt::Key_Return);
}

}  // namespace attnscope
