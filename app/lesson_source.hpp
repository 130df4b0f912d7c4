#pragma once
// Where a lesson comes from: a built-in name, a file, or JSON typed inline.
#include <QString>
#include <QStringList>
#include <cstdint>
#include <string>

#include "core/lesson/lesson.hpp"
#include "ui/common/file_write.hpp"  // writeFileAtomically: the one file writer, also used by the exports

namespace attnscope {

struct BuiltInLesson {
    QString name;   // file name without .json, e.g. "first-hand-exercise"
    QString title;  // in the display language at the time of the call (lessons give several)
};

QStringList builtInLessonNames();
std::vector<BuiltInLesson> builtInLessons();
// The lesson the window opens with: the first exercise, in Chinese for the Chinese interface
// ("zh_CN"), where its characters are the lesson's own tokens.
QString firstLessonFor(const QString& language);

// Reads a lesson from NAME (built-in), a path, or an inline JSON object ("{…}").
Result<Lesson> loadLesson(const QString& nameOrPathOrJson);
Result<Lesson> loadLessonFile(const QString& path);

// The bytes of a built-in resource (":/…", read with QFile) or of a user's file, read by core's
// readTextFile: a regular file of at most `maxBytes` (a FIFO, /dev/zero or a folder is refused).
Result<std::string> readResourceOrFile(const QString& path, std::uint64_t maxBytes);

// Writes the lesson with writeFileAtomically: a full disk or a crash never leaves half a file, and
// the Error gives the OS's reason ("No space left on device").
Result<void> saveLessonFile(const Lesson& lesson, const QString& path);

}  // namespace attnscope
