#include "app/lesson_source.hpp"

#include <algorithm>

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace attnscope {

namespace {
const QString kBuiltInDir = QStringLiteral(":/lessons");
}

QStringList builtInLessonNames() {
    QStringList names;
    for (const QString& file : QDir(kBuiltInDir).entryList({"*.json"}, QDir::Files, QDir::Name))
        names << QFileInfo(file).completeBaseName();
    return names;
}

std::vector<BuiltInLesson> builtInLessons() {
    std::vector<BuiltInLesson> lessons;
    for (const QString& name : builtInLessonNames()) {
        auto lesson = loadLessonFile(kBuiltInDir + "/" + name + ".json");
        lessons.push_back({name, lesson ? QString::fromStdString(lesson.value().title) : name});
    }
    // Lesson titles start with their number ("1. …"), so sorting by title gives the teaching order.
    std::sort(lessons.begin(), lessons.end(), [](const auto& a, const auto& b) { return a.title < b.title; });
    return lessons;
}

Result<Lesson> loadLessonFile(const QString& path) {
    QFile file(path);
    const std::string source = path.startsWith(":/") ? path.mid(2).toStdString() : path.toStdString();
    if (!file.open(QIODevice::ReadOnly)) return Error{source, "cannot be read: " + file.errorString().toStdString()};
    const QByteArray bytes = file.readAll();
    return parseLesson(std::string_view(bytes.constData(), bytes.size()), source);
}

Result<Lesson> loadLesson(const QString& nameOrPathOrJson) {
    const QString text = nameOrPathOrJson.trimmed();
    if (text.startsWith('{')) {
        // Invalid UTF-8 on the command line arrives as U+FFFD; the lesson format refuses it.
        if (text.contains(QChar(0xFFFD)))
            return Error{"inline lesson", "expected UTF-8 text, found invalid bytes (shown as U+FFFD)"};
        const QByteArray bytes = text.toUtf8();
        return parseLesson(std::string_view(bytes.constData(), bytes.size()), "inline lesson");
    }
    if (builtInLessonNames().contains(text)) return loadLessonFile(kBuiltInDir + "/" + text + ".json");
    if (!QFileInfo::exists(text))
        return Error{text.toStdString(), "is neither a lesson file nor a built-in lesson (built-in: " +
                                             builtInLessonNames().join(", ").toStdString() + ")"};
    return loadLessonFile(text);
}

std::optional<Error> saveLessonFile(const Lesson& lesson, const QString& path) {
    return writeFileAtomically(path, QByteArray::fromStdString(serializeLesson(lesson)));
}

}  // namespace attnscope
