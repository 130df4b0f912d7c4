#include "app/lab_window.hpp"

#include <QEvent>
#include <QMenu>
#include <QScrollArea>
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

LabWindow::LabWindow(const Session& session, QWidget* owner) : QWidget(owner, Qt::Window), session_(session) {
    setWindowTitle(tr("AttnScope — Lab"));
    auto* layout = new QVBoxLayout(this);
    tabs_ = new QTabWidget(this);
    positional_ = new PositionalPanel(tabs_);
    scaling_ = new ScalingPanel(tabs_);
    synthesizer_ = new SynthesizerPanel(tabs_);
    tabs_->addTab(positional_, tr("Positional encoding"));
    tabs_->addTab(scaling_, tr("Why scale by √d_k"));
    tabs_->addTab(synthesizer_, tr("Synthesizer"));
    masks_ = new MasksPanel(tabs_);
    tabs_->addTab(masks_, tr("Masks && cross-attention"));
    multiHead_ = new MultiHeadPanel(tabs_);
    // The lab's tallest page (~720 px): scrollable, so the lab fits a 1366×768 screen (language_tests).
    auto* multiHeadArea = new QScrollArea(tabs_);
    multiHeadArea->setWidgetResizable(true);
    multiHeadArea->setFrameShape(QFrame::NoFrame);
    multiHeadArea->setWidget(multiHead_);
    tabs_->addTab(multiHeadArea, tr("Multi-head"));
    exercises_ = new ExercisePanel(tabs_);
    tabs_->addTab(exercises_, tr("Exercises"));
    layout->addWidget(tabs_);
    resize(1400, 900);
    refresh();
}

void LabWindow::showPage(Page page) { tabs_->setCurrentIndex(static_cast<int>(page)); }

void LabWindow::refresh() {
    if (!session_.hasLesson()) return;
    const LabInput input{session_.lesson(), session_.sentence(), session_.trace(), session_.decimals()};
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

// What setLabModel was last told, kept on the owner for a lab window opened afterwards.
class LabModel : public QObject {
public:
    using QObject::QObject;
    QString name;
    std::optional<LoadedModel> model;
};

LabModel* labModelOf(QWidget* owner) {
    for (QObject* child : owner->children())
        if (auto* held = dynamic_cast<LabModel*>(child)) return held;
    return nullptr;
}

}  // namespace

void setLabModel(QWidget* owner, const QString& name, std::optional<LoadedModel> model) {
    LabModel* held = labModelOf(owner);
    if (!held) held = new LabModel(owner);
    const bool same = held->name == name && held->model.has_value() == model.has_value() &&
                      (!model || held->model->store == model->store);
    if (same) return;  // a new run of the same model: the panel keeps the reader's settings
    held->name = name;
    held->model = model;
    if (auto* lab = owner->findChild<LabWindow*>(QString(), Qt::FindDirectChildrenOnly))
        lab->setModel(name, std::move(model));
}

LabWindow* openLab(QWidget* owner, const Session& session, LabWindow::Page page) {
    auto* lab = owner->findChild<LabWindow*>(QString(), Qt::FindDirectChildrenOnly);
    if (!lab) {
        lab = new LabWindow(session, owner);
        if (const LabModel* held = labModelOf(owner)) lab->setModel(held->name, held->model);
    } else {
        lab->refresh();
    }
    lab->showPage(page);
    lab->show();
    lab->raise();
    lab->activateWindow();
    return lab;
}

void rebuildLab(QWidget* owner, const Session& session) {
    auto* lab = owner->findChild<LabWindow*>(QString(), Qt::FindDirectChildrenOnly);
    if (!lab) return;
    const bool shown = lab->isVisible();
    const auto page = static_cast<LabWindow::Page>(lab->tabs()->currentIndex());  // tabs in Page order
    delete lab;
    if (shown) openLab(owner, session, page);
}

}  // namespace attnscope
