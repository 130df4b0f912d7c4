#include "app/run_window.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <cstdio>

#include "app/lesson_source.hpp"
#include "app/main_window.hpp"

namespace attnscope {

namespace {

// Opens --lesson (built-in name or file) if given, else the first built-in lesson.
bool openRequestedLesson(MainWindow& window, const QCommandLineParser& parser) {
    if (!parser.isSet("lesson")) return window.openBuiltInLesson("first-hand-exercise");
    const QString lesson = parser.value("lesson");
    return builtInLessonNames().contains(lesson) ? window.openBuiltInLesson(lesson) : window.openLessonFile(lesson);
}

}  // namespace

int runWindow(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.addOptions({{"lesson", "", "lesson"}, {"sentence", "", "text"}, {"screenshots", "", "dir"}});
    parser.parse(arguments);  // the full option set was already checked by the command line
    MainWindow window;
    if (!openRequestedLesson(window, parser))
        std::fprintf(stderr, "attnscope: %s\n", window.lastError().toStdString().c_str());
    if (parser.isSet("sentence")) window.setSentence(parser.value("sentence"));
    window.show();
    if (parser.isSet("screenshots")) return window.saveScreenshots(parser.value("screenshots")) > 0 ? 0 : 1;
    return QApplication::exec();
}

}  // namespace attnscope
