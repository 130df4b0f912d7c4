// attnscope_screenshots: the pictures of docs/screenshots, taken by driving the real window
// (scripts/screenshots.sh runs it under a virtual display). Not installed; `attnscope` carries
// none of it.
//   attnscope_screenshots [--lang zh_CN] [--lesson NAME|FILE] [--sentence TEXT] DIR
//   attnscope_screenshots --model FOLDER|ID [--sentence TEXT] DIR
//   attnscope_screenshots --model FOLDER|ID --words --sentence TEXT DIR   (View ▸ Attention between words)
//   attnscope_screenshots [--lang zh_CN] --lecture LESSON DIR   (presentation mode on this screen)
//   attnscope_screenshots [--lang zh_CN] --model FOLDER|ID --beyond --sentence TEXT DIR   (weight × ‖value‖, Beyond weights)
//   attnscope_screenshots [--lang zh_CN] --stages LESSON DIR   (an encoder–decoder's stages on this screen)
//   attnscope_screenshots [--lang zh_CN] (--lesson L | --model M) [--sentence A] --movement B [--word W] DIR   (the X → Y tab)
// Exit 1 with the first file that could not be written and the OS's reason, or when nothing was
// written (then the window's last error, e.g. a model that did not open).
#include <QApplication>
#include <QCommandLineParser>
#include <cstdio>

#include "app/app_identity.hpp"
#include "app/cli_support.hpp"
#include "app/language.hpp"
#include "app/lesson_source.hpp"
#include "app/main_window.hpp"
#include "scripts/driver/screenshots/screenshot_tour.hpp"

namespace attnscope {
namespace {

int exitCode(const MainWindow& window, const ScreenshotTour& tour, int written, const QString& dir) {
    QString error = tour.screenshotError();
    if (error.isEmpty() && written == 0)
        error = window.lastError().isEmpty() ? dir + ": no screenshot was taken" : window.lastError();
    if (error.isEmpty()) return 0;
    std::fprintf(stderr, "attnscope_screenshots: %s\n", error.toStdString().c_str());
    return 1;
}

int takeScreenshots(const QCommandLineParser& parser, const QString& dir) {
    MainWindow window;
    ScreenshotTour tour(window);
    const QString sentence = parser.value("sentence");
    if (parser.isSet("model") && parser.isSet("beyond")) {
        window.show();
        return exitCode(window, tour, tour.saveBeyondScreenshots(dir, parser.value("model"), sentence), dir);
    }
    if (parser.isSet("movement")) {
        if (parser.isSet("model")) window.setSentence(sentence), window.openModel(parser.value("model"));
        else if (!window.openBuiltInLesson(parser.value("lesson"))) return exitCode(window, tour, 0, dir);
        if (!parser.isSet("model") && !sentence.isEmpty()) window.setSentence(sentence);
        window.show();
        return exitCode(window, tour, tour.saveMovementScreenshots(dir, parser.value("movement"), parser.value("word")), dir);
    }
    if (parser.isSet("model") && parser.isSet("words")) {
        window.show();
        return exitCode(window, tour, tour.saveWordScreenshots(dir, parser.value("model"), sentence), dir);
    }
    if (parser.isSet("model")) {
        window.show();
        return exitCode(window, tour, tour.saveModelScreenshots(dir, parser.value("model"), sentence), dir);
    }
    if (parser.isSet("stages")) {
        window.show();
        return exitCode(window, tour, tour.saveStageScreenshots(dir, parser.value("stages")), dir);
    }
    if (parser.isSet("lecture")) {
        window.show();
        return exitCode(window, tour, tour.saveLectureScreenshots(dir, parser.value("lecture")), dir);
    }
    const QString lesson = parser.isSet("lesson") ? parser.value("lesson") : QStringLiteral("first-hand-exercise");
    const bool opened = builtInLessonNames().contains(lesson) ? window.openBuiltInLesson(lesson) : window.openLessonFile(lesson);
    if (!opened) return exitCode(window, tour, 0, dir);
    if (!sentence.isEmpty()) window.setSentence(sentence);
    window.show();
    return exitCode(window, tour, tour.saveLessonScreenshots(dir), dir);
}

}  // namespace
}  // namespace attnscope

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    attnscope::applyApplicationIdentity();
    attnscope::initResources();
    QCommandLineParser parser;
    parser.addOptions({{"lang", "zh_CN or en", "language"}, {"lesson", "a built-in lesson or a file", "lesson"},
                       {"model", "a model folder or cached id", "model"}, {"sentence", "the sentence", "text"},
                       {"words", "attention between words (with --model)"},
                       {"beyond", "weight × ‖value‖ shading and the Beyond weights tab, on this screen (with --model)"},
                       {"lecture", "a built-in lesson in presentation mode on this screen", "lesson"},
                       {"stages", "a built-in encoder-decoder lesson stage by stage on this screen", "lesson"},
                       {"movement", "the X → Y tab with this sentence B, on this screen (with --lesson or --model)", "text"},
                       {"word", "with --movement: the word compared in both sentences", "word"}});
    parser.addPositionalArgument("dir", "where the PNG files go");
    parser.process(app);
    if (parser.positionalArguments().size() != 1) parser.showHelp(2);
    std::string languageError;
    const auto language = attnscope::languageOption(QApplication::arguments(), languageError);
    if (!language) return attnscope::fail(languageError);
    attnscope::applyLanguage(language->isEmpty() ? attnscope::systemLanguage() : *language);
    return attnscope::takeScreenshots(parser, parser.positionalArguments().front());
}
