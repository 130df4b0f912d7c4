#pragma once
// Where a lesson comes from: a built-in name, a file, or JSON typed inline.
#include <QString>
#include <QStringList>

#include "core/lesson.hpp"

namespace attnscope {

struct BuiltInLesson {
    QString name;   // file name without .json, e.g. "first-hand-exercise"
    QString title;
};

QStringList builtInLessonNames();
std::vector<BuiltInLesson> builtInLessons();

// Reads a lesson from NAME (built-in), a path, or an inline JSON object ("{…}").
Result<Lesson> loadLesson(const QString& nameOrPathOrJson);
Result<Lesson> loadLessonFile(const QString& path);

// Writes the lesson atomically (temporary file, then rename): a crash never leaves half a file.
std::optional<Error> saveLessonFile(const Lesson& lesson, const QString& path);

// Writes bytes atomically to path.
std::optional<Error> writeFileAtomically(const QString& path, const QByteArray& bytes);

}  // namespace attnscope
