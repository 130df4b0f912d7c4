#include "app/presentation.hpp"

#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextEdit>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <numeric>

#include "ui/step/matrix_panel.hpp"
#include "app/user_settings.hpp"

namespace attnscope {

namespace {

const QString kZoomKey = QStringLiteral("view/zoom");
const QString kFitKey = QStringLiteral("view/fitStep");
bool remembersZoom = false;

constexpr int kStepListWidth = 250;  // at 100 %; the list widens with the zoom, up to a quarter of the window

}  // namespace

void Presentation::rememberZoom(bool on) { remembersZoom = on; }

const std::vector<int>& Presentation::zoomSteps() {
    static const std::vector<int> steps{50, 67, 80, 90, 100, 110, 125, 150, 175, 200, 250, 300};
    return steps;
}

QFont Presentation::appFont(double pointSize) {
    QFont f;
    f.setFamilies({"DejaVu Sans", "WenQuanYi Micro Hei", "Noto Sans CJK SC"});
    f.setPointSizeF(pointSize);
    return f;
}

QFont Presentation::monoFont(double pointSize) {
    QFont f;
    f.setFamilies({"DejaVu Sans Mono", "WenQuanYi Micro Hei Mono", "Noto Sans Mono"});
    f.setStyleHint(QFont::Monospace);
    f.setPointSizeF(pointSize);
    return f;
}

Presentation::Presentation(QMainWindow* window, std::function<void()> redraw, std::function<void()> next,
                           std::function<void()> previous)
    : QObject(window), window_(window), redraw_(std::move(redraw)), next_(std::move(next)),
      previous_(std::move(previous)) {
    zoomIn_ = windowAction("zoomIn", {QKeySequence(Qt::CTRL | Qt::Key_Plus), QKeySequence(Qt::CTRL | Qt::Key_Equal)},
                           [this] { zoomIn(); });
    zoomOut_ = windowAction("zoomOut", {QKeySequence(Qt::CTRL | Qt::Key_Minus)}, [this] { zoomOut(); });
    resetZoom_ = windowAction("resetZoom", {QKeySequence(Qt::CTRL | Qt::Key_0)}, [this] { setZoom(100); });
    present_ = windowAction("presentationMode", {QKeySequence(Qt::Key_F11)}, [this] { setPresenting(!presenting_); });
    present_->setCheckable(true);
    leave_ = windowAction("leavePresentation", {QKeySequence(Qt::Key_Escape)}, [this] { setPresenting(false); });
    leave_->setEnabled(false);  // Esc belongs to dialogs and editors unless the class is presenting
    fit_ = windowAction("fitStep", {QKeySequence(Qt::CTRL | Qt::Key_9)}, [this] { setFitToWindow(fit_->isChecked()); });
    fit_->setCheckable(true);
    focusRow_ = windowAction("focusRow", {QKeySequence(Qt::CTRL | Qt::Key_8)}, [this] { setFocusRow(focusRow_->isChecked()); });
    focusRow_->setCheckable(true);
    retranslate();
    if (remembersZoom) {
        zoom_ = std::clamp(UserSettings().value(kZoomKey, 100).toInt(), zoomSteps().front(), zoomSteps().back());
        fit_->setChecked(UserSettings().value(kFitKey, false).toBool());
    }
    qApp->installEventFilter(this);
}

Presentation::~Presentation() { qApp->removeEventFilter(this); }

QAction* Presentation::windowAction(const char* name, const QList<QKeySequence>& keys, std::function<void()> slot) {
    auto* action = new QAction(this);
    action->setObjectName(QString::fromLatin1(name));
    action->setShortcuts(keys);
    connect(action, &QAction::triggered, this, std::move(slot));
    window_->addAction(action);
    return action;
}

void Presentation::retranslate() {
    zoomIn_->setText(tr("Zoom &in"));
    zoomOut_->setText(tr("Zoom &out"));
    resetZoom_->setText(tr("&Reset zoom"));
    present_->setText(tr("&Presentation mode"));
    leave_->setText(tr("Leave presentation mode"));
    fit_->setText(tr("&Fit the step to the window"));
    focusRow_->setText(tr("F&ocus the chosen row, product by product"));
}

void Presentation::setStage(Stage stage) {
    stage_ = std::move(stage);
    applyFit();
}

void Presentation::setFitToWindow(bool on) {
    fit_->setChecked(on);
    if (remembersZoom) UserSettings().setValue(kFitKey, on);
    applyFit();
}

bool Presentation::fitsToWindow() const { return fit_->isChecked() || presenting_; }

void Presentation::setFocusRow(bool on) {
    focusRow_->setChecked(on);
    emit focusRowChanged(on);
}

bool Presentation::focusesRow() const { return focusRow_->isChecked(); }

void Presentation::applyFit() {
    if (stage_.matrixPanel) stage_.matrixPanel->setFitToArea(fitsToWindow());
}

void Presentation::keepHiddenForClass() {
    if (presenting_) hideForClass(true);
}

void Presentation::addToViewMenu(QMenu* view) {
    retranslate();  // the menu is rebuilt in the new language (View ▸ Language)
    view->addActions({zoomIn_, zoomOut_, resetZoom_});
    view->addSeparator();
    view->addAction(fit_);
    view->addAction(focusRow_);
    view->addAction(present_);
    view->addSeparator();
}

void Presentation::setZoom(int percent) {
    percent = std::clamp(percent, zoomSteps().front(), zoomSteps().back());
    if (remembersZoom) UserSettings().setValue(kZoomKey, percent);
    if (percent == zoom_) return applyZoom();
    zoom_ = percent;
    applyZoom();
    window_->statusBar()->showMessage(tr("Zoom %1 %").arg(zoom_), 2000);
    emit zoomChanged(zoom_);
}

// The next step up (or down) from the current zoom, which need not be a step itself.
void Presentation::zoomIn() {
    const auto& steps = zoomSteps();
    const auto up = std::upper_bound(steps.begin(), steps.end(), zoom_);
    setZoom(up == steps.end() ? steps.back() : *up);
}

void Presentation::zoomOut() {
    const auto& steps = zoomSteps();
    const auto down = std::lower_bound(steps.begin(), steps.end(), zoom_);
    setZoom(down == steps.begin() ? steps.front() : *std::prev(down));
}

// Every widget inherits the window font, so tables, token chips, step list and plots (whose
// fonts follow their widget's) scale with it; the title and explanation have their own.
void Presentation::applyZoom() {
    const double size = kBasePointSize * zoom_ / 100.0;
    window_->setFont(appFont(size));
    followZoomOutsideTheWindow(appFont(size));
    applyTitleFont();
    if (stage_.matrixPanel) stage_.matrixPanel->setExplanationFont(monoFont(size));
    widenStepList();
    redraw_();
}

// Larger than the text, except while presenting: there the step's own title says what is on
// screen, and a lesson title on two lines would take the height of two rows of the tables.
void Presentation::applyTitleFont() {
    if (!stage_.title) return;
    QFont titleFont = appFont(kBasePointSize * zoom_ / 100.0 * (presenting_ ? 1.0 : 1.35));
    titleFont.setBold(true);
    stage_.title->setFont(titleFont);
}

// Menus, tooltips and popups are windows of their own (no font from the main window): the menus
// take it here, tooltips and windows opened later (dialogs, the Lab) from the application's font.
// A combo box keeps the minimum size of the largest font it had (Qt drops only its size hint on
// a font change, both on a style change): told of a style change, it shrinks back.
// At 100 % windows opened later keep the platform's font, as before any zoom (the Lab's pages
// are laid out for it).
void Presentation::followZoomOutsideTheWindow(const QFont& font) {
    static const QFont unzoomed = QApplication::font();
    QApplication::setFont(zoom_ == 100 ? unzoomed : font);
    QToolTip::setFont(font);
    for (QMenu* menu : window_->findChildren<QMenu*>()) menu->setFont(font);
    for (QComboBox* combo : window_->findChildren<QComboBox*>()) {
        QEvent styleChange(QEvent::StyleChange);
        QApplication::sendEvent(combo, &styleChange);
        combo->updateGeometry();
    }
}

// Step titles wrap onto three lines at 200 % in the 100 % width: the list grows with the zoom.
void Presentation::widenStepList() {
    QSplitter* splitter = stage_.steps;
    if (!splitter || splitter->count() < 2) return;
    QList<int> sizes = splitter->sizes();
    const int total = std::accumulate(sizes.begin(), sizes.end(), 0);
    const int width = std::min(kStepListWidth * zoom_ / 100, std::max(kStepListWidth, window_->width() / 4));
    sizes[1] += sizes[0] - width;  // the tabs give or take the difference
    sizes[0] = width;
    if (total > 0 && sizes[1] > 0) splitter->setSizes(sizes);
}

void Presentation::setPresenting(bool on) {
    present_->setChecked(on);
    leave_->setEnabled(on);
    if (on == presenting_) return;
    presenting_ = on;
    if (on) {
        wasMaximized_ = window_->isMaximized();
        window_->showFullScreen();
    } else if (wasMaximized_) {
        window_->showMaximized();
    } else {
        window_->showNormal();
    }
    hideForClass(on);
    applyTitleFont();
    applyFit();
    emit presentingChanged(on);
}

void Presentation::hideForClass(bool hide) {
    window_->menuBar()->setVisible(!hide);
    window_->statusBar()->setVisible(!hide);
    QTabWidget* tabs = stage_.tabs;
    QWidget* editor = stage_.editor;
    if (!hide) {
        for (const QPointer<QWidget>& w : hidden_)
            if (w) w->show();
        hidden_.clear();
        // The editor's tab comes back only for a source that offers it (the tab was visible before).
        if (tabs && editor && editor->property("hiddenForClass").toBool()) tabs->setTabVisible(tabs->indexOf(editor), true);
        if (editor) editor->setProperty("hiddenForClass", false);
        return;
    }
    for (const QPointer<QWidget>& w : stage_.hiddenWhilePresenting)
        if (w && w->isVisibleTo(window_)) {
            w->hide();
            if (std::find(hidden_.begin(), hidden_.end(), w) == hidden_.end()) hidden_.emplace_back(w);
        }
    if (tabs && editor && tabs->isTabVisible(tabs->indexOf(editor))) {
        if (tabs->currentWidget() == editor) tabs->setCurrentIndex(0);
        tabs->setTabVisible(tabs->indexOf(editor), false);
        editor->setProperty("hiddenForClass", true);
    }
}

// Ctrl+wheel zooms the window, except over a plot: the heatmaps zoom themselves with the wheel.
bool Presentation::wheelZooms(const QWidget* widget, const QWheelEvent* wheel) {
    if (!widget || widget->window() != window_ || !(wheel->modifiers() & Qt::ControlModifier)) return false;
    for (const QWidget* w = widget; w; w = w->parentWidget())
        if (w->inherits("QCustomPlot")) return false;
    const int delta = wheel->angleDelta().y();
    if (delta == 0) return false;
    delta > 0 ? zoomIn() : zoomOut();
    return true;
}

bool Presentation::editsText(const QWidget* w) {
    for (; w; w = w->parentWidget()) {  // a spin box's or combo box's inner line edit counts as it
        if (auto* line = qobject_cast<const QLineEdit*>(w)) return !line->isReadOnly();
        if (qobject_cast<const QAbstractSpinBox*>(w)) return true;
        if (auto* text = qobject_cast<const QPlainTextEdit*>(w)) return !text->isReadOnly();
        if (auto* text = qobject_cast<const QTextEdit*>(w)) return !text->isReadOnly();
        // An editable table (the lesson editor): the arrows choose the cell to type into.
        if (auto* view = qobject_cast<const QAbstractItemView*>(w))
            return view->editTriggers() != QAbstractItemView::NoEditTriggers && view->model() &&
                   (view->model()->flags(view->currentIndex()) & Qt::ItemIsEditable);
    }
    return false;
}

// ←/→ and a clicker's PageUp/PageDown step through the lesson from any widget of the window,
// before the widget sees them (a list or a table would move its own cursor instead).
bool Presentation::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Wheel) return wheelZooms(qobject_cast<QWidget*>(watched), static_cast<QWheelEvent*>(event));
    if (event->type() != QEvent::KeyPress) return false;
    auto* key = static_cast<QKeyEvent*>(event);
    const auto* widget = qobject_cast<QWidget*>(watched);
    if (!widget || widget->window() != window_ || (key->modifiers() & ~Qt::KeypadModifier) != Qt::NoModifier) return false;
    const bool forward = key->key() == Qt::Key_Right || key->key() == Qt::Key_PageDown;
    const bool back = key->key() == Qt::Key_Left || key->key() == Qt::Key_PageUp;
    if ((!forward && !back) || editsText(widget)) return false;
    if (auto* combo = qobject_cast<const QComboBox*>(widget); combo && combo->view()->isVisible()) return false;
    forward ? next_() : previous_();
    return true;
}

}  // namespace attnscope
