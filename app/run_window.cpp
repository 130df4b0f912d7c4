#include "app/run_window.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <cstdio>

#include "app/language.hpp"
#include "app/lesson_source.hpp"
#include "app/main_window.hpp"

namespace attnscope {

namespace {

// Opens --lesson (built-in name or file) if given, else the first built-in lesson in the
// interface's language.
bool openRequestedLesson(MainWindow& window, const QCommandLineParser& parser) {
    if (!parser.isSet("lesson")) return window.openBuiltInLesson(firstLessonFor(currentLanguage()));
    const QString lesson = parser.value("lesson");
    return builtInLessonNames().contains(lesson) ? window.openBuiltInLesson(lesson) : window.openLessonFile(lesson);
}

}  // namespace

int runWindow(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.addOptions({{"lesson", "", "lesson"}, {"model", "", "model"}, {"sentence", "", "text"}});
    parser.parse(arguments);  // the full option set was already checked by the command line
    MainWindow window;
    // With --model, a lesson underneath: if the model cannot be opened, the window still shows
    // something valid (the model loads in the background and reads the sentence box once loaded).
    if (!openRequestedLesson(window, parser))
        std::fprintf(stderr, "attnscope: %s\n", window.lastError().toStdString().c_str());
    if (parser.isSet("sentence")) window.setSentence(parser.value("sentence"));
    if (parser.isSet("model")) window.openModel(parser.value("model"));
    window.show();
    return QApplication::exec();
}

}  // namespace attnscope
