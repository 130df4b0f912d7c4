// View ▸ Theme (issue 13 §6): light, dark or the system's; every view's text against what it is
// drawn on reaches WCAG contrast 4.5 in both themes (read from what the views record they drew,
// never from pixels), the choice survives a restart, switching changes the views at once, and
// exports stay light.
#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <cmath>
#include <memory>

#include <qcustomplot.h>

#include "app/theme_switcher.hpp"
#include "app/user_settings.hpp"
#include "ui/attention/heatmap_builder.hpp"
#include "ui/attention/heatmap_view.hpp"
#include "ui/attention/head_view.hpp"
#include "ui/attention/model_view.hpp"
#include "ui/attention/token_lines_canvas.hpp"
#include "ui/attention/piece_strip.hpp"
#include "ui/common/theme_colors.hpp"
#include "ui/coref/coref_tab.hpp"
#include "ui/coref/coref_view.hpp"
#include "ui/heads/corpus_plots.hpp"
#include "ui/lab/lab_plots.hpp"
#include "window_access.hpp"

using namespace attnscope;

namespace {

const QString kBert = QStringLiteral(ATTNSCOPE_SOURCE_DIR) + "/tests/reference/models/bert-tiny";

// WCAG 2.x, written out here from the definition (not from theme_colors): each sRGB channel
// c/255 is linearised (c ≤ 0.03928: c/12.92, else ((c+0.055)/1.055)^2.4), the luminance is
// 0.2126 R + 0.7152 G + 0.0722 B, the ratio (lighter + 0.05) / (darker + 0.05).
double channel(int value) {
    const double c = value / 255.0;
    return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}
double luminance(const QColor& c) { return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue()); }
double contrast(const QColor& a, const QColor& b) {
    const double x = luminance(a), y = luminance(b);
    return (std::max(x, y) + 0.05) / (std::min(x, y) + 0.05);
}
// `top` (maybe see-through) painted over the opaque `under`.
QColor over(const QColor& top, const QColor& under) {
    const double a = top.alphaF();
    return QColor::fromRgbF(top.redF() * a + under.redF() * (1 - a), top.greenF() * a + under.greenF() * (1 - a),
                            top.blueF() * a + under.blueF() * (1 - a));
}
// A colour named in a style sheet after `property:` (#rrggbb or rgba(r, g, b, a)).
QColor sheetColour(const QString& sheet, const QString& property) {
    const auto m = QRegularExpression(property + QStringLiteral(":\\s*(#[0-9a-fA-F]{6}|rgba\\(([^)]*)\\))")).match(sheet);
    if (!m.hasMatch()) return {};
    if (m.captured(2).isEmpty()) return QColor(m.captured(1));
    const QStringList v = m.captured(2).split(QLatin1Char(','));
    return QColor(v[0].trimmed().toInt(), v[1].trimmed().toInt(), v[2].trimmed().toInt(), v[3].trimmed().toInt());
}

#define EXPECT_LEGIBLE(ink, ground, what)                                                                         \
    QVERIFY2(contrast(ink, ground) >= 4.5, qPrintable(QStringLiteral("%1: %2 on %3, contrast %4")                \
                                                         .arg(what, QColor(ink).name(), QColor(ground).name())     \
                                                         .arg(contrast(ink, ground), 0, 'f', 2)))

}  // namespace

class ThemeTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);  // the settings file in a test folder
        UserSettings().remove(QStringLiteral("view/theme"));
        ThemeSwitcher::rememberTheme(true);  // as the app does (main.cpp)
    }
    void init();
    void cleanup();

    void contrastFormulaMatchesKnownPairs();
    void lessonViewsAreLegibleInBothThemes();
    void modelViewsAreLegibleInBothThemes();
    void labPlotIsLegibleInBothThemes();
    void corpusPlotFollowsTheTheme();
    void switchingChangesWhatIsDrawnAtOnce();
    void choiceSurvivesARestart();
    void garbageInTheSettingsFollowsTheSystem();
    void exportsStayLight();

private:
    ThemeSwitcher& switcher() { return *child<ThemeSwitcher>(*window, "themeSwitcher"); }
    void choose(ThemeChoice choice);
    void checkHeatmap(const QString& theme);
    void checkStepViewAndEditor(const QString& theme);
    void checkCoref(const QString& theme);
    std::unique_ptr<MainWindow> window;
};

void ThemeTest::init() {
    window = std::make_unique<MainWindow>();
    QVERIFY(window->openBuiltInLesson("coreference"));
    window->resize(1400, 900);
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
}

void ThemeTest::cleanup() {
    if (window) choose(ThemeChoice::Light);
    window.reset();
}

// Through the menu, as a user does.
void ThemeTest::choose(ThemeChoice choice) {
    auto* action = window->findChild<QAction*>(QStringLiteral("theme-") + ThemeSwitcher::choiceName(choice));
    QVERIFY(action);
    action->trigger();
    QApplication::processEvents();
}

void ThemeTest::contrastFormulaMatchesKnownPairs() {
    QCOMPARE(contrast(Qt::black, Qt::white), 21.0);
    QVERIFY(std::abs(contrast(QColor("#777777"), Qt::white) - 4.48) < 0.01);  // WCAG's famous near miss
    QVERIFY(std::abs(contrast(QColor("#767676"), Qt::white) - 4.54) < 0.01);
    QCOMPARE(contrast(QColor("#2a2a2a"), QColor("#2a2a2a")), 1.0);
    for (const QColor& c : {QColor("#31688e"), QColor("#fde725"), QColor("#ff8a80")})  // the app's own formula agrees
        QVERIFY(std::abs(theme::contrastRatio(c, Qt::white) - contrast(c, Qt::white)) < 0.01);
}

void ThemeTest::checkHeatmap(const QString& theme) {
    auto* tabs = child<QTabWidget>(*window, "tabs");
    auto* heatmap = child<HeatmapView>(*window, "heatmap");
    tabs->setCurrentWidget(heatmap);
    QApplication::processEvents();
    const HeatmapBuilder* builder = heatmap->builders().front();
    QCustomPlot* plot = builder->plot();
    const QColor paper = plot->axisRect()->backgroundBrush().color();
    EXPECT_LEGIBLE(plot->xAxis->tickLabelColor(), paper, theme + " heatmap key labels");
    EXPECT_LEGIBLE(plot->yAxis->tickLabelColor(), paper, theme + " heatmap query labels");
    EXPECT_LEGIBLE(plot->xAxis->labelColor(), paper, theme + " heatmap axis title");
    int numbers = 0;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot->item(i))) {
            const QPointF at = text->position->coords();
            const QColor cell = builder->cellColour(static_cast<int>(at.y()), static_cast<int>(at.x()));
            EXPECT_LEGIBLE(text->color(), cell, theme + " heatmap cell " + text->text());
            ++numbers;
        }
    QCOMPARE(numbers, builder->valueLabelCount());
    QVERIFY(numbers > 0);
}

void ThemeTest::checkStepViewAndEditor(const QString& theme) {
    const QPalette p = QApplication::palette();
    const QColor base = p.color(QPalette::Base), text = p.color(QPalette::Text);
    // The step tables' digits on their strongest tints, the masked cell and the highlighted cell.
    for (const auto role : {theme::Role::PositiveTint, theme::Role::NegativeTint}) {
        QColor tint = theme::color(role);
        tint.setAlphaF(0.45f);
        EXPECT_LEGIBLE(text, over(tint, base), theme + " shaded table cell");
    }
    EXPECT_LEGIBLE(text, theme::color(theme::Role::MaskedCell), theme + " masked table cell");
    EXPECT_LEGIBLE(text, over(theme::color(theme::Role::CellHighlight), base), theme + " highlighted table cell");
    // The token chips above the tables, as their style sheets paint them.
    const auto chips = child<QWidget>(*window, "tokens")->findChildren<QLabel*>();
    QVERIFY(!chips.isEmpty());
    for (QLabel* chip : chips)
        if (chip->isVisible() && !chip->text().isEmpty())
            EXPECT_LEGIBLE(chip->palette().color(QPalette::WindowText), sheetColour(chip->styleSheet(), "background"),
                           theme + " token chip " + chip->text());
    // The word pieces, the status labels and the editor.
    for (bool special : {false, true}) {
        const auto look = PieceStrip::chipLook(special);
        EXPECT_LEGIBLE(look.text, look.fill, theme + " word piece");
    }
    for (const char* name : {"error", "rounding", "notices"}) {
        auto* label = child<QLabel>(*window, name);
        const QColor ground = sheetColour(label->styleSheet(), "background").isValid()
                                  ? sheetColour(label->styleSheet(), "background") : p.color(QPalette::Window);
        EXPECT_LEGIBLE(sheetColour(label->styleSheet(), "color"), ground, theme + " status label " + name);
    }
    EXPECT_LEGIBLE(text, base, theme + " editor and explanation text");
}

void ThemeTest::checkCoref(const QString& theme) {
    auto* tab = child<CorefTab>(*window, "corefTab");
    child<QTabWidget>(*window, "tabs")->setCurrentWidget(tab);
    QApplication::processEvents();
    const CorefView* view = tab->view();
    QVERIFY(!view->drawnWords().empty());
    QVERIFY(!view->drawnArcs().empty());
    for (const DrawnWord& w : view->drawnWords())
        EXPECT_LEGIBLE(view->wordInk(w), view->wordFill(w), theme + " coreference word " + w.text);
    for (const auto kind : {DrawnMarker::Nearest, DrawnMarker::Rule})  // tags: their colour on paper
        EXPECT_LEGIBLE(view->tagColour(kind), theme::paper(), theme + " coreference marker");
    EXPECT_LEGIBLE(view->chosenArcColour(), theme::paper(), theme + " chosen score tag");
    EXPECT_LEGIBLE(theme::ink(), theme::paper(), theme + " coreference legend");
}

void ThemeTest::lessonViewsAreLegibleInBothThemes() {
    for (const auto& [choice, name] : {std::pair{ThemeChoice::Light, QStringLiteral("light")},
                                       std::pair{ThemeChoice::Dark, QStringLiteral("dark")}}) {
        choose(choice);
        QCOMPARE(theme::isDark(), choice == ThemeChoice::Dark);
        checkHeatmap(name);
        checkStepViewAndEditor(name);
        checkCoref(name);
    }
}

void ThemeTest::modelViewsAreLegibleInBothThemes() {
    window->openModel(kBert);
    QVERIFY(waitForModel(*window));
    window->setSentence(QStringLiteral("the cat sat on the mat"));
    QVERIFY(waitForModel(*window));
    for (const auto& [choice, name] : {std::pair{ThemeChoice::Light, QStringLiteral("light")},
                                       std::pair{ThemeChoice::Dark, QStringLiteral("dark")}}) {
        choose(choice);
        auto* modelView = child<ModelView>(*window, "modelView");
        child<QTabWidget>(*window, "tabs")->setCurrentWidget(modelView);
        QApplication::processEvents();
        QVERIFY(!modelView->headers().empty());
        const QPalette grid = modelView->canvas()->palette();  // headers: WindowText on the canvas' Window
        EXPECT_LEGIBLE(grid.color(QPalette::WindowText), grid.color(QPalette::Window), name + " model view headers");
        EXPECT_LEGIBLE(theme::textOn(grid.color(QPalette::Mid)), grid.color(QPalette::Mid), name + " \"not computed\"");
        const QPalette head = child<QWidget>(*window, "headView")->palette();  // its tokens: Text on Base
        EXPECT_LEGIBLE(head.color(QPalette::Text), head.color(QPalette::Base), name + " head view tokens");
        auto* lines = dynamic_cast<TokenLinesCanvas*>(child<HeadView>(*window, "headView")->canvas());
        QVERIFY(lines);
        EXPECT_LEGIBLE(head.color(QPalette::Text), lines->hoverFill(), name + " hovered head view token");
        // The mean/max lines are marks, not text: WCAG's 3:1 for graphics (#222222 on dark was 1.1:1).
        const QColor mean = HeadView::headColour(-1, head.color(QPalette::Base));
        QVERIFY2(contrast(mean, head.color(QPalette::Base)) >= 3.0, qPrintable(name + " mean/max lines " + mean.name()));
        checkHeatmap(name);
    }
}

void ThemeTest::labPlotIsLegibleInBothThemes() {
    QCustomPlot plot;
    CurvePlotBuilder curves(&plot);
    for (const auto& [choice, name] : {std::pair{ThemeChoice::Light, QStringLiteral("light")},
                                       std::pair{ThemeChoice::Dark, QStringLiteral("dark")}}) {
        choose(choice);
        const QColor paper = plot.axisRect()->backgroundBrush().color();
        QCOMPARE(paper, QApplication::palette().color(QPalette::Base));
        EXPECT_LEGIBLE(plot.xAxis->tickLabelColor(), paper, name + " lab plot ticks");
        EXPECT_LEGIBLE(plot.yAxis->labelColor(), paper, name + " lab plot axis title");
        EXPECT_LEGIBLE(plot.legend->textColor(), over(plot.legend->brush().color(), paper), name + " lab legend");
        QVERIFY(contrast(plot.xAxis->grid()->pen().color(), paper) > 1.2);  // the grid is seen, faintly
    }
}

// The corpus page drawn in the light theme, then switched: its uniform-entropy bars turn with the axes.
void ThemeTest::corpusPlotFollowsTheTheme() {
    CorpusStats stats;
    stats.layers = 1, stats.headsPerLayer = 2, stats.sentences = 1, stats.queries = 4;
    stats.offsetQueries.assign(2 * stats.maxOffset + 1, 4);
    for (int h = 0; h < 2; ++h) {
        CorpusHeadStats head;
        head.head = HeadRef{0, h};
        head.entropy = 0.5 + h, head.uniformEntropy = 1.5;
        head.offsets.assign(2 * stats.maxOffset + 1, 0.1);
        stats.heads.push_back(head);
    }
    QCustomPlot plot;
    CorpusPlotsBuilder corpus(&plot);
    corpus.build(stats, CorpusStatistic::First, QStringLiteral("test"));
    for (const auto& [choice, name] : {std::pair{ThemeChoice::Light, QStringLiteral("light")},
                                       std::pair{ThemeChoice::Dark, QStringLiteral("dark")}}) {
        choose(choice);
        const QColor paper = plot.axisRect()->backgroundBrush().color();
        QCOMPARE(paper, QApplication::palette().color(QPalette::Base));
        int bars = 0;
        for (int i = 0; i < plot.itemCount(); ++i)
            if (auto* line = qobject_cast<QCPItemLine*>(plot.item(i))) {
                EXPECT_LEGIBLE(line->pen().color(), paper, name + " uniform-entropy bar");
                ++bars;
            }
        QCOMPARE(bars, 1);  // one layer
        EXPECT_LEGIBLE(plot.axisRect()->axis(QCPAxis::atBottom)->tickLabelColor(), paper, name + " corpus ticks");
    }
}

void ThemeTest::switchingChangesWhatIsDrawnAtOnce() {
    auto* heatmap = child<HeatmapView>(*window, "heatmap");
    child<QTabWidget>(*window, "tabs")->setCurrentWidget(heatmap);
    QApplication::processEvents();
    QCustomPlot* plot = heatmap->firstPlot();
    auto* corefTab = child<CorefTab>(*window, "corefTab");
    child<QTabWidget>(*window, "tabs")->setCurrentWidget(corefTab);  // its words are laid out when shown
    QApplication::processEvents();
    const CorefView* coref = corefTab->view();
    QVERIFY(!coref->drawnWords().empty());
    QLabel* chip = child<QWidget>(*window, "tokens")->findChildren<QLabel*>().front();
    QCOMPARE(plot->axisRect()->backgroundBrush().color(), QColor(Qt::white));
    const QString lightChip = chip->styleSheet();
    const QColor lightWord = coref->wordFill(coref->drawnWords().front());
    choose(ThemeChoice::Dark);
    QCOMPARE(QApplication::palette().color(QPalette::Window), QColor(0x35, 0x35, 0x35));
    QCOMPARE(QApplication::style()->name().toLower(), QStringLiteral("fusion"));
    QCOMPARE(plot->axisRect()->backgroundBrush().color(), QColor(0x2a, 0x2a, 0x2a));
    QCOMPARE(plot->xAxis->tickLabelColor(), QColor(0xf0, 0xf0, 0xf0));
    QVERIFY(chip->styleSheet() != lightChip);
    QCOMPARE(sheetColour(chip->styleSheet(), "background"), QColor("#1e3a5a"));
    QVERIFY(coref->wordFill(coref->drawnWords().front()) != lightWord);
    choose(ThemeChoice::Light);
    QCOMPARE(plot->axisRect()->backgroundBrush().color(), QColor(Qt::white));
    QCOMPARE(chip->styleSheet(), lightChip);
}

void ThemeTest::choiceSurvivesARestart() {
    choose(ThemeChoice::Dark);
    // Saved to the user's file itself (app/user_settings.cpp writes its private copy back).
    QCOMPARE(QSettings(userSettingsPath(), QSettings::IniFormat).value("view/theme").toString(), QStringLiteral("dark"));
    window.reset();
    QApplication::setPalette(theme::lightPalette());  // as a fresh process starts
    window = std::make_unique<MainWindow>();
    QCOMPARE(switcher().choice(), ThemeChoice::Dark);
    QVERIFY(theme::isDark(QApplication::palette()));
    QVERIFY(window->findChild<QAction*>("theme-dark")->isChecked());
    QVERIFY(!window->findChild<QAction*>("theme-light")->isChecked());
}

void ThemeTest::garbageInTheSettingsFollowsTheSystem() {
    UserSettings settings;
    for (const QVariant& garbage : {QVariant(QStringLiteral("purple")), QVariant(42), QVariant(QStringList{"a", "b"}),
                                    QVariant(QStringLiteral("DARK ")), QVariant(QString())}) {
        settings.setValue("view/theme", garbage);
        settings.sync();
        QString problem;
        QCOMPARE(ThemeSwitcher::savedChoice(&problem), ThemeChoice::System);
        QVERIFY2(problem.contains(QStringLiteral("is not light, dark or system")), qPrintable(problem));
        auto restarted = std::make_unique<MainWindow>();
        QCOMPARE(restarted->findChild<ThemeSwitcher*>("themeSwitcher")->choice(), ThemeChoice::System);
        QVERIFY(restarted->findChild<QAction*>("theme-system")->isChecked());
    }
    settings.remove("view/theme");
}

// Exports are a printed handout: drawn light even while the window is dark.
void ThemeTest::exportsStayLight() {
    choose(ThemeChoice::Dark);
    auto* heatmap = child<HeatmapView>(*window, "heatmap");
    child<QTabWidget>(*window, "tabs")->setCurrentWidget(heatmap);
    QApplication::processEvents();
    const QImage image = heatmap->renderImage();
    QCOMPARE(image.pixelColor(2, 2), QColor(Qt::white));
    const QImage arcs = child<CorefTab>(*window, "corefTab")->view()->renderImage(1.0);
    QCOMPARE(arcs.pixelColor(2, 2), QColor(Qt::white));
    QCOMPARE(heatmap->firstPlot()->axisRect()->backgroundBrush().color(), QColor(0x2a, 0x2a, 0x2a));  // the window stays dark
    QVERIFY(theme::isDark());
}

QTEST_MAIN(ThemeTest)
#include "test_theme.moc"
