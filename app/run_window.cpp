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

// --model: the window opens in model mode (the model loads in the background); with
// --screenshots it saves the model-mode screenshots instead of the lesson ones.
int runModelWindow(MainWindow& window, const QCommandLineParser& parser) {
    const QString sentence = parser.value("sentence");
    if (parser.isSet("screenshots")) {
        window.show();
        return window.saveModelScreenshots(parser.value("screenshots"), parser.value("model"), sentence) > 0 ? 0 : 1;
    }
    // A lesson underneath: if the model cannot be opened, the window still shows something valid.
    window.openBuiltInLesson("first-hand-exercise");
    if (!sentence.isEmpty()) window.setSentence(sentence);  // the model reads the box once loaded
    window.openModel(parser.value("model"));
    window.show();
    return QApplication::exec();
}

}  // namespace

int runWindow(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.addOptions({{"lesson", "", "lesson"}, {"model", "", "model"}, {"sentence", "", "text"}, {"screenshots", "", "dir"}});
    parser.parse(arguments);  // the full option set was already checked by the command line
    MainWindow window;
    if (parser.isSet("model")) return runModelWindow(window, parser);
    if (!openRequestedLesson(window, parser))
        std::fprintf(stderr, "attnscope: %s\n", window.lastError().toStdString().c_str());
    if (parser.isSet("sentence")) window.setSentence(parser.value("sentence"));
    window.show();
    if (parser.isSet("screenshots")) return window.saveScreenshots(parser.value("screenshots")) > 0 ? 0 : 1;
    return QApplication::exec();
}

}  // namespace attnscope
