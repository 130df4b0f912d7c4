#pragma once
// What the window's helpers (the File menu, recent files, drops, example models, the lesson
// document) may ask of it, handed to them by MainWindow, the composition root: no helper
// includes the window back.
#include <QString>
#include <functional>

#include "core/base/result.hpp"
#include "core/lesson/lesson.hpp"
#include "core/source/saved_session.hpp"

namespace attnscope {

struct EncoderDecoderRun;

struct WindowActions {
    std::function<bool(const QString& path)> openLessonFile;  // false: refused, with a message
    std::function<void(const QString& pathOrId)> openModel;   // off the GUI thread
    std::function<bool(const QString& path)> saveLessonTo;    // false: not saved, with a message
    std::function<QString()> lessonPath;                      // empty or ":/…" for built-in lessons
    std::function<bool()> showsLesson;                        // false while a model is shown
    std::function<bool(const Result<Lesson>&)> openNewLesson;       // File ▸ New lesson: no file yet, the editor shown
    std::function<SavedSession()> captureSession;             // what the window shows (files not hashed)
    std::function<QString()> sourceFiles;                     // the open source's folder or file, to hash
    // Opens the session's source, then its sentence and view; `opened` runs once the source is open.
    std::function<void(const SavedSession&, const std::function<void()>& opened)> restoreSession;
    std::function<QString()> sourceName;  // the model's or lesson's short name, for figure titles
    std::function<int()> shownLayer;      // the layer on screen, 0-based in the model
    // Every stage of the encoder–decoder lesson on screen (its worksheet has them all); null otherwise.
    std::function<const EncoderDecoderRun*()> shownStages;
};

}  // namespace attnscope
