#include "ui/common/theme_colors.hpp"

#include <QApplication>
#include <QStyleFactory>
#include <QWidget>
#include <array>
#include <cmath>
#include <qcustomplot.h>

namespace attnscope::theme {

namespace {

struct RoleColours {
    const char* name;  // the {placeholder} in themed style sheets
    const char* light;
    const char* dark;
};

// Each dark value keeps the light one's meaning (hue) and reads at WCAG contrast ≥ 4.5 against
// the text drawn on it or the paper under it (tests/gui/test_theme.cpp measures them).
constexpr std::array<RoleColours, static_cast<int>(Role::Count)> kRoles{{
    {"errorText", "#9b1c1c", "#ff8a80"},
    {"noticeText", "#664d03", "#ffe08a"},
    {"noticeFill", "#fff3cd", "#3d3310"},
    {"noticeBorder", "#e0c36a", "#8a7330"},
    {"emphasisText", "#1d4e89", "#8cb8ff"},
    {"chipFill", "#e3f0fb", "#1e3a5a"},
    {"chipBorder", "#2b6cb0", "#6ea8e8"},
    {"hashedChipFill", "#fff4e0", "#4a3418"},
    {"hashedChipBorder", "#c05621", "#e8904a"},
    {"specialFill", "#eeeeee", "#3a3a3a"},
    {"mutedText", "#6b6b6b", "#b0b0b0"},
    {"mentionFill", "#fde2e0", "#5a2622"},
    {"arcChosen", "#c0392b", "#ff6b5b"},
    {"arcOther", "#31688e", "#6fb1e0"},
    {"arcNearest", "#b35900", "#ffa040"},
    {"arcRule", "#1e7b4b", "#4cc38a"},
    {"arcChosenB", "#007f5a", "#3fd0a0"},
    {"arcOtherB", "#cc79a7", "#e09cc4"},
    {"barFill", "#31688e", "#5fa8d3"},
    {"barTrack", "#e8eef4", "#3a4048"},
    {"currentMark", "#d55e00", "#ff8c3a"},
    {"cellHighlight", "#c8ffeb3b", "#dc7a6400"},
    {"positiveTint", "#e67814", "#8a4a10"},
    {"negativeTint", "#286edc", "#1f4f9a"},
    {"maskedCell", "#c8c8c8", "#505050"},
    {"alert", "#c81e1e", "#ff6b6b"},
    {"verdictPending", "#fffacd", "#4a4520"},
    {"verdictCorrect", "#c6efce", "#1f4a2a"},
    {"verdictWrong", "#ffc7ce", "#5a2028"},
    {"verdictNotANumber", "#ffdead", "#5a3f18"},
    {"chosenRow", "#fde9a8", "#5a4a10"},
    {"pointOutline", "#282828", "#d0d0d0"},
    {"queryLabel", "#282828", "#e0e0e0"},
    {"keyLabel", "#143c6e", "#9cc8ff"},
}};

int exportDepth = 0;  // > 0 inside LightForExport

// Emits changed() when the application's palette changes, whoever changed it.
class Notifier : public QObject {
    Q_OBJECT
public:
    explicit Notifier(QObject* parent) : QObject(parent) { parent->installEventFilter(this); }
signals:
    void changed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == parent() && event->type() == QEvent::ApplicationPaletteChange) emit changed();
        return false;
    }
};

Notifier* notifier() {
    static QPointer<Notifier> instance;
    if (!instance) instance = new Notifier(qApp);
    return instance;
}

QColor blend(const QColor& a, const QColor& b, double t) {
    return QColor::fromRgbF(a.redF() * (1 - t) + b.redF() * t, a.greenF() * (1 - t) + b.greenF() * t,
                            a.blueF() * (1 - t) + b.blueF() * t);
}

void styleAxis(QCPAxis* axis, const QColor& ink, const QColor& grid) {
    axis->setBasePen(QPen(ink, 1));
    axis->setTickPen(QPen(ink, 1));
    axis->setSubTickPen(QPen(ink, 1));
    axis->setTickLabelColor(ink);
    axis->setLabelColor(ink);
    axis->setSelectedTickLabelColor(ink);
    axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
    axis->grid()->setSubGridPen(QPen(grid, 1, Qt::DotLine));
    axis->grid()->setZeroLinePen(QPen(grid, 1));
}

void styleElement(QCPLayoutElement* element, const QColor& ink, const QColor& paper, const QColor& grid) {
    if (auto* text = qobject_cast<QCPTextElement*>(element)) text->setTextColor(ink);
    if (auto* scale = qobject_cast<QCPColorScale*>(element)) styleAxis(scale->axis(), ink, grid);
    if (auto* legend = qobject_cast<QCPLegend*>(element)) {
        QColor veil = paper;
        veil.setAlpha(200);  // curves stay visible behind it
        legend->setBrush(veil);
        legend->setTextColor(ink);
        legend->setBorderPen(QPen(ink, 1));
        for (int i = 0; i < legend->itemCount(); ++i) legend->item(i)->setTextColor(ink);
    }
}

}  // namespace

QPalette lightPalette() {
    static QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"));
    return fusion ? fusion->standardPalette() : QPalette(Qt::white);
}

QPalette darkPalette() {
    const QColor window(0x35, 0x35, 0x35), base(0x2a, 0x2a, 0x2a), text(0xf0, 0xf0, 0xf0);
    const QColor disabled(0x80, 0x80, 0x80), highlight(0x2a, 0x82, 0xda);
    QPalette p;
    for (auto [role, colour] : {std::pair{QPalette::Window, window}, {QPalette::WindowText, text},
                                {QPalette::Base, base}, {QPalette::AlternateBase, QColor(0x42, 0x42, 0x42)},
                                {QPalette::ToolTipBase, QColor(0x20, 0x20, 0x20)}, {QPalette::ToolTipText, text},
                                {QPalette::PlaceholderText, QColor(0xa8, 0xa8, 0xa8)}, {QPalette::Text, text},
                                {QPalette::Button, window}, {QPalette::ButtonText, text},
                                {QPalette::BrightText, QColor(0xff, 0x6b, 0x6b)}, {QPalette::Light, QColor(0x50, 0x50, 0x50)},
                                {QPalette::Midlight, QColor(0x45, 0x45, 0x45)}, {QPalette::Mid, QColor(0x2e, 0x2e, 0x2e)},
                                {QPalette::Dark, QColor(0x23, 0x23, 0x23)}, {QPalette::Shadow, QColor(0x14, 0x14, 0x14)},
                                {QPalette::Highlight, highlight}, {QPalette::HighlightedText, Qt::white},
                                {QPalette::Link, QColor(0x6e, 0xb4, 0xff)}, {QPalette::LinkVisited, QColor(0xc0, 0x9c, 0xff)}})
        p.setColor(role, colour);
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::PlaceholderText})
        p.setColor(QPalette::Disabled, role, disabled);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x50, 0x50, 0x50));
    return p;
}

QPalette drawingPalette() { return exportDepth > 0 ? lightPalette() : QGuiApplication::palette(); }
bool isDark(const QPalette& palette) { return palette.color(QPalette::Window).lightness() < 128; }
bool isDark() { return isDark(drawingPalette()); }

QColor color(Role role, bool dark) {
    const RoleColours& r = kRoles[static_cast<int>(role)];
    return QColor(QLatin1String(dark ? r.dark : r.light));
}
QColor color(Role role) { return color(role, isDark()); }
QColor ink() { return drawingPalette().color(QPalette::Text); }
QColor paper() { return drawingPalette().color(QPalette::Base); }

double relativeLuminance(const QColor& c) {
    const auto linear = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) + 0.0722 * linear(c.blueF());
}

double contrastRatio(const QColor& a, const QColor& b) {
    const double la = relativeLuminance(a), lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor textOn(const QColor& background) {
    return contrastRatio(Qt::black, background) >= contrastRatio(Qt::white, background) ? QColor(Qt::black)
                                                                                      : QColor(Qt::white);
}

void follow(QObject* owner, std::function<void()> apply) {
    apply();
    QObject::connect(notifier(), &Notifier::changed, owner, std::move(apply));
}

void notifyChanged() { emit notifier()->changed(); }

void stylePlot(QCustomPlot* plot, const QPalette& palette) {
    const QColor ink = palette.color(QPalette::Text), paper = palette.color(QPalette::Base);
    const QColor grid = blend(paper, ink, 0.3);
    plot->setBackground(paper);
    for (QCPAxisRect* rect : plot->axisRects()) {
        rect->setBackground(paper);  // the same paper; readable back (QCustomPlot has no getter for its own)
        for (QCPAxis* axis : rect->axes()) styleAxis(axis, ink, grid);
    }
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true)) styleElement(element, ink, paper, grid);
    if (plot->legend) styleElement(plot->legend, ink, paper, grid);
}

void followTheme(QCustomPlot* plot) {
    follow(plot, [plot] {
        stylePlot(plot, drawingPalette());
        plot->replot(QCustomPlot::rpQueuedReplot);
    });
}

// Style sheets take #rrggbb, or rgba() when the colour is see-through.
static QString cssColour(const QColor& c) {
    if (c.alpha() == 255) return c.name(QColor::HexRgb);
    return QStringLiteral("rgba(%1, %2, %3, %4)").arg(c.red()).arg(c.green()).arg(c.blue()).arg(c.alpha());
}

QString themedStyleSheet(QString templateSheet) {
    const bool dark = isDark();
    for (int i = 0; i < static_cast<int>(Role::Count); ++i)
        templateSheet.replace(QLatin1Char('{') + QLatin1String(kRoles[i].name) + QLatin1Char('}'),
                              cssColour(color(static_cast<Role>(i), dark)));
    return templateSheet;
}

void setThemedStyleSheet(QWidget* widget, const QString& templateSheet) {
    const bool following = widget->property("themedStyleSheet").isValid();
    widget->setProperty("themedStyleSheet", templateSheet);
    const auto apply = [widget] {
        const QString sheet = themedStyleSheet(widget->property("themedStyleSheet").toString());
        if (sheet != widget->styleSheet()) widget->setStyleSheet(sheet);  // no restyle when nothing changed
    };
    if (following) apply();
    else follow(widget, apply);
}

LightForExport::LightForExport() : outermost_(exportDepth++ == 0) {
    if (outermost_ && isDark(QGuiApplication::palette())) notifyChanged();
}

LightForExport::~LightForExport() {
    --exportDepth;
    if (outermost_ && isDark(QGuiApplication::palette())) notifyChanged();
}

}  // namespace attnscope::theme

#include "theme_colors.moc"
