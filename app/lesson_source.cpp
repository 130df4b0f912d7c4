#include "app/lesson_source.hpp"

#include <algorithm>

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include "core/io/text_file.hpp"
#include "core/text/error_messages.hpp"
#include "ui/common/qt_text.hpp"

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

QString firstLessonFor(const QString& language) {
    return language == QLatin1String("zh_CN") ? QStringLiteral("first-hand-exercise-zh") : QStringLiteral("first-hand-exercise");
}

std::vector<BuiltInLesson> builtInLessons() {
    std::vector<BuiltInLesson> lessons;
    for (const QString& name : builtInLessonNames()) {
        auto lesson = loadLessonFile(kBuiltInDir + "/" + name + ".json");
        lessons.push_back({name, lesson ? qs(lesson.value().title) : name});
    }
    // Lesson titles start with their number ("1. …"), so sorting by title gives the teaching order.
    std::sort(lessons.begin(), lessons.end(), [](const auto& a, const auto& b) { return a.title < b.title; });
    return lessons;
}

Result<std::string> readResourceOrFile(const QString& path, std::uint64_t maxBytes) {
    if (!path.startsWith(":/")) return readTextFile(path.toStdString(), maxBytes);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error{path.mid(2).toStdString(), errorText(ErrorId::CannotBeRead, file.errorString().toStdString())};
    return file.readAll().toStdString();
}

Result<Lesson> loadLessonFile(const QString& path) {
    const std::string source = path.startsWith(":/") ? path.mid(2).toStdString() : path.toStdString();
    auto bytes = readResourceOrFile(path, kMaxTextFileBytes);
    if (!bytes) return bytes.error();
    return parseLesson(bytes.value(), source);
}

namespace {

// "inline lesson: d_model" names no file: its words are worded by the catalogue like the message.
Error inlineLessonError(const Error& error) {
    const std::string inline_ = "inline lesson";
    if (error.where == inline_) return Error{ErrorId::WhereInlineLesson, error.messageForm()};
    if (error.where.rfind(inline_ + ": ", 0) != 0) return error;
    return Error{errorText(ErrorId::WhereMessage, ErrorId::WhereInlineLesson, error.where.substr(inline_.size() + 2)),
                 error.messageForm()};
}

}  // namespace

Result<Lesson> loadLesson(const QString& nameOrPathOrJson) {
    const QString text = nameOrPathOrJson.trimmed();
    if (text.startsWith('{')) {
        // Invalid UTF-8 on the command line arrives as U+FFFD; the lesson format refuses it.
        if (text.contains(QChar(0xFFFD)))
            return Error{ErrorId::WhereInlineLesson,
                         errorText(ErrorId::ExpectedFoundNote, ErrorId::Utf8Text, ErrorId::InvalidBytes, ErrorId::ShownAsFffd)};
        const QByteArray bytes = text.toUtf8();
        auto lesson = parseLesson(std::string_view(bytes.constData(), bytes.size()), "inline lesson");
        if (!lesson) return inlineLessonError(lesson.error());
        return lesson;
    }
    if (builtInLessonNames().contains(text)) return loadLessonFile(kBuiltInDir + "/" + text + ".json");
    if (!QFileInfo::exists(text))
        return Error{text.toStdString(), errorText(ErrorId::NotALesson, builtInLessonNames().join(", ").toStdString())};
    return loadLessonFile(text);
}

Result<void> saveLessonFile(const Lesson& lesson, const QString& path) {
    return writeFileAtomically(path, QByteArray::fromStdString(serializeLesson(lesson)));
}

}  // namespace attnscope
