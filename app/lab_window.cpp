#include "app/lab_window.hpp"

#include <QEvent>
#include <QMenu>
#include <QScreen>
#include <QScrollArea>
#include <QStyle>
#include <QTabWidget>
#include <QVBoxLayout>

#include "core/source/session.hpp"
#include "ui/lab/masks_panel.hpp"
#include "ui/lab/exercise_panel.hpp"
#include "ui/lab/positional_panel.hpp"
#include "ui/lab/scaling_panel.hpp"
#include "ui/lab/synthesizer_panel.hpp"
#include "ui/lab/multi_head_panel.hpp"

namespace attnscope {

namespace {

// Every page scrolls when larger than its room: at a projector's zoom the lab still fits the
// screen (1280×720 at 150 %), and a tall page (multi-head, ~720 px at 100 %) fits 1366×768.
QScrollArea* scrollable(QWidget* page, QWidget* parent) {
    auto* area = new QScrollArea(parent);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setWidget(page);
    return area;
}

}  // namespace

LabWindow::LabWindow(const Session& session, QWidget* owner) : QWidget(owner, Qt::Window), session_(session) {
    setWindowTitle(tr("AttnScope — Lab"));
    auto* layout = new QVBoxLayout(this);
    tabs_ = new QTabWidget(this);
    tabs_->setUsesScrollButtons(true);
    positional_ = new PositionalPanel(tabs_);
    scaling_ = new ScalingPanel(tabs_);
    synthesizer_ = new SynthesizerPanel(tabs_);
    tabs_->addTab(scrollable(positional_, tabs_), tr("Positional encoding"));
    tabs_->addTab(scrollable(scaling_, tabs_), tr("Why scale by √d_k"));
    tabs_->addTab(scrollable(synthesizer_, tabs_), tr("Synthesizer"));
    masks_ = new MasksPanel(tabs_);
    tabs_->addTab(scrollable(masks_, tabs_), tr("Masks && cross-attention"));
    multiHead_ = new MultiHeadPanel(tabs_);
    tabs_->addTab(scrollable(multiHead_, tabs_), tr("Multi-head"));
    exercises_ = new ExercisePanel(tabs_);
    tabs_->addTab(scrollable(exercises_, tabs_), tr("Exercises"));
    layout->addWidget(tabs_);
    // The default size, on the owner's screen (the projector's, while presenting) and within it.
    QScreen* on = owner ? owner->screen() : screen();
    const QRect free = on->availableGeometry();
    setScreen(on);
    setGeometry(QStyle::alignedRect(Qt::LeftToRight, Qt::AlignCenter, QSize(1400, 900).boundedTo(free.size()), free));
    refresh();
}

void LabWindow::showPage(Page page) { tabs_->setCurrentIndex(static_cast<int>(page)); }

void LabWindow::refresh() {
    if (!session_.hasLesson()) return;
    // An encoder–decoder's lab works on its encoder (the lesson's sentence), whichever stage the window shows.
    const Trace& trace = session_.encoderDecoder() ? session_.encoderDecoder()->encoder : session_.trace();
    const LabInput input{session_.lesson(), session_.sentence(), trace, session_.decimals()};
    for (LabPanel* panel : std::initializer_list<LabPanel*>{positional_, scaling_, synthesizer_, masks_,
                                                            multiHead_, exercises_})
        panel->setInput(input);
}

void LabWindow::setModel(const QString& name, std::optional<LoadedModel> model) {
    positional_->setModel(name, std::move(model));
}

bool LabWindow::event(QEvent* event) {
    // The sentence or lesson may have changed in the main window meanwhile.
    if (event->type() == QEvent::WindowActivate) refresh();
    return QWidget::event(event);
}

void addLabMenu(QMenu* menu, QWidget* owner, const Session& session) {
    const std::pair<QString, LabWindow::Page> pages[] = {
        {QObject::tr("&Positional encoding"), LabWindow::Positional},
        {QObject::tr("Why scale by √&d_k"), LabWindow::Scaling},
        {QObject::tr("&Synthesizer"), LabWindow::Synthesizer},
        {QObject::tr("&Masks && cross-attention"), LabWindow::Masks},
        {QObject::tr("&Multi-head, step by step"), LabWindow::MultiHead},
        {QObject::tr("&Exercises"), LabWindow::Exercises}};
    for (const auto& [title, page] : pages)
        QObject::connect(menu->addAction(title), &QAction::triggered, owner,
                         [owner, &session, page = page] { openLab(owner, session, page); });
}

namespace {

// What setLabModel and setLabPresenting were last told, kept on the owner for a lab window
// opened afterwards.
class LabModel : public QObject {
public:
    using QObject::QObject;
    QString name;
    std::optional<LoadedModel> model;
    bool presenting = false;
};

LabModel* labModelOf(QWidget* owner) {
    for (QObject* child : owner->children())
        if (auto* held = dynamic_cast<LabModel*>(child)) return held;
    return nullptr;
}

LabModel& heldFor(QWidget* owner) {
    LabModel* held = labModelOf(owner);
    return held ? *held : *new LabModel(owner);
}

LabWindow* labOf(QWidget* owner) { return owner->findChild<LabWindow*>(QString(), Qt::FindDirectChildrenOnly); }

// While the class is shown the main window full screen, the lab takes the whole screen it is on too.
void showAsPresenting(LabWindow* lab, bool presenting) {
    if (presenting) lab->showFullScreen();
    else if (lab->isFullScreen()) lab->showNormal();
    else lab->show();
}

}  // namespace

void setLabModel(QWidget* owner, const QString& name, std::optional<LoadedModel> model) {
    LabModel* held = &heldFor(owner);
    const bool same = held->name == name && held->model.has_value() == model.has_value() &&
                      (!model || held->model->store == model->store);
    if (same) return;  // a new run of the same model: the panel keeps the reader's settings
    held->name = name;
    held->model = model;
    if (auto* lab = labOf(owner)) lab->setModel(name, std::move(model));
}

void setLabPresenting(QWidget* owner, bool on) {
    heldFor(owner).presenting = on;
    if (LabWindow* lab = labOf(owner); lab && lab->isVisible()) showAsPresenting(lab, on);
}

LabWindow* openLab(QWidget* owner, const Session& session, LabWindow::Page page) {
    auto* lab = labOf(owner);
    const LabModel& held = heldFor(owner);
    if (!lab) {
        lab = new LabWindow(session, owner);
        lab->setModel(held.name, held.model);
    } else {
        lab->refresh();
    }
    lab->showPage(page);
    showAsPresenting(lab, held.presenting);
    lab->raise();
    lab->activateWindow();
    return lab;
}

void rebuildLab(QWidget* owner, const Session& session) {
    auto* lab = labOf(owner);
    if (!lab) return;
    const bool shown = lab->isVisible();
    const auto page = static_cast<LabWindow::Page>(lab->tabs()->currentIndex());  // tabs in Page order
    delete lab;
    if (shown) openLab(owner, session, page);
}

}  // namespace attnscope
