#pragma once
// The one place ui/ picks a colour that is not the palette's (issue 13 §6). Views ask for a role
// (an error text, a chip's fill, an arc), never a literal: each role has a light and a dark value,
// chosen by the palette views draw with now, so View ▸ Theme changes them live.
//
// Exports always use the light palette (a printed handout): an export draws inside a
// LightForExport guard, which restyles every followed plot light for its lifetime.
#include <QColor>
#include <QPalette>
#include <QString>
#include <functional>

class QObject;
class QCustomPlot;
class QWidget;

namespace attnscope::theme {

enum class Role {
    ErrorText,        // a refused input's message
    NoticeText, NoticeFill, NoticeBorder,  // the lesson's notices box
    EmphasisText,     // "numbers rounded as the lesson writes them"
    ChipFill, ChipBorder,                  // a token in the table (step view, word pieces, coref words)
    HashedChipFill, HashedChipBorder,      // a token hashed to a row outside the table
    SpecialFill, MutedText,                // [CLS]/[SEP] chips, words that are neither mention nor candidate
    MentionFill,
    ArcChosen, ArcOther, ArcNearest, ArcRule, ArcChosenB, ArcOtherB,  // coreference arcs (A, baselines, B)
    BarFill, BarTrack,                     // the predictions' bars
    CurrentMark,                           // the current token's frame on a heatmap
    CellHighlight, PositiveTint, NegativeTint, MaskedCell, Alert,  // the step view's tables
    VerdictPending, VerdictCorrect, VerdictWrong, VerdictNotANumber, ChosenRow,  // lab tables
    PointOutline, QueryLabel, KeyLabel,    // the Queries & keys plot
    Count
};

// The palettes: light is Fusion's own; dark is the usual Fusion dark palette.
QPalette lightPalette();
QPalette darkPalette();
// The palette views draw with now: the application's, or the light one inside LightForExport.
QPalette drawingPalette();
bool isDark(const QPalette& palette);
bool isDark();  // of drawingPalette()

QColor color(Role role);  // for drawingPalette()
QColor color(Role role, bool dark);
QColor ink();    // text on paper: the palette's Text
QColor paper();  // the palette's Base: what views paint under text

// WCAG 2 relative luminance (sRGB linearised) and contrast ratio (L1 + 0.05) / (L2 + 0.05).
double relativeLuminance(const QColor& c);
double contrastRatio(const QColor& a, const QColor& b);
// Black or white, whichever reads better on `background` (numbers drawn on heatmap cells).
QColor textOn(const QColor& background);

// Calls `apply` now and whenever the theme changes (View ▸ Theme, the system's palette, an export
// guard), for as long as `owner` lives.
void follow(QObject* owner, std::function<void()> apply);
// `plot`'s background, axes, tick labels, grid, legend and titles in drawingPalette(), now and on
// every change.
void followTheme(QCustomPlot* plot);
void stylePlot(QCustomPlot* plot, const QPalette& palette);
// A style sheet whose {roleName} placeholders ({errorText}, {chipFill}, …) take the theme's
// colours, set now and again on every change.
void setThemedStyleSheet(QWidget* widget, const QString& templateSheet);
QString themedStyleSheet(QString templateSheet);
// Tells every follower that the theme changed (the app calls it after setting the palette).
void notifyChanged();

// For its lifetime, drawingPalette() is the light one and every followed plot is drawn light.
class LightForExport {
public:
    LightForExport();
    ~LightForExport();
    LightForExport(const LightForExport&) = delete;
    LightForExport& operator=(const LightForExport&) = delete;

private:
    bool outermost_;
};

}  // namespace attnscope::theme
