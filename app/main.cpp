// The attnscope binary: the window by default, the command line with --print / --export-png.
#include <QApplication>

#include "app/app_identity.hpp"
#include "app/cli.hpp"
#include "app/cli_analysis.hpp"
#include "app/cli_support.hpp"
#include "app/kernel_option.hpp"
#include "app/language.hpp"
#include "app/main_window.hpp"
#include "app/presentation.hpp"
#include "app/run_window.hpp"
#include "app/theme_switcher.hpp"
#include "app/word_level_switch.hpp"
#include "core/io/run_inputs.hpp"

int main(int argc, char** argv) {
    QStringList arguments;
    for (int i = 0; i < argc; ++i) arguments << QString::fromLocal8Bit(argv[i]);
    const bool kernelInfo = attnscope::wantsKernelInfo(arguments);
    attnscope::removeTemporariesOnSignals();
    const QStringList command = attnscope::withSubcommandFirst(attnscope::withoutKernelOptions(arguments));
    const bool headless = kernelInfo || attnscope::isCommandLineRun(command);
    // Heatmap export needs a QApplication but no screen: ssh sessions and CI have none. Nor does
    // refusing a window's bad argument: without a display Qt's platform plugin would abort first.
    const bool refused = !headless && attnscope::commandLineError(command).has_value();
    if ((headless || refused) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    attnscope::refuseWritingOverRunInputs(headless);  // --output must not replace the lesson it reads
    QApplication app(argc, argv);
    attnscope::applyApplicationIdentity();  // name, version, desktop id, window icon
    attnscope::initResources();
    // The interface language before anything is printed or shown: --lang, else (the window) the
    // choice saved by View ▸ Language, else the system locale.
    std::string languageError;
    const auto language = attnscope::languageOption(QApplication::arguments(), languageError);
    if (!language) return attnscope::fail(languageError);
    attnscope::applyLanguage(!language->isEmpty() ? *language
                             : headless           ? attnscope::systemLanguage()
                                                  : attnscope::savedLanguage());
    // --kernels / ATTNSCOPE_KERNELS were applied before main() (core/kernels/startup.cpp): refuse a bad one.
    if (auto error = attnscope::kernelOptionError(QApplication::arguments())) return attnscope::fail(*error);
    if (kernelInfo) return attnscope::write(attnscope::kernelInfoText()), attnscope::finishOutput(0);
    arguments = attnscope::withSubcommandFirst(attnscope::withoutKernelOptions(QApplication::arguments()));
    if (headless) return attnscope::finishOutput(attnscope::runCommandLine(arguments));
    // The window takes the same options: a mistyped one is refused, never silently dropped.
    if (auto error = attnscope::commandLineError(arguments)) return attnscope::fail(*error);
    attnscope::Presentation::rememberZoom(true);  // View ▸ Zoom comes back next session
    attnscope::ThemeSwitcher::rememberTheme(true);  // and View ▸ Theme
    attnscope::WordLevelSwitch::rememberChoice(true);  // and View ▸ Attention between words
    return attnscope::runWindow(arguments);
}
