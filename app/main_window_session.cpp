// File ▸ Save session / Open session (docs/session-format.md): what the window shows, gathered
// into a SavedSession and put back. The session menu (app/session_menu.cpp) writes, reads and
// checks the file; here only the window's own state is read and set.
#include <QAction>
#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTabWidget>

#include "app/main_window.hpp"
#include "app/main_window_parts.hpp"
#include "app/source/model_trace_source.hpp"
#include "app/tabs/compare_tab_controller.hpp"
#include "app/tabs/heads_tab.hpp"
#include "app/norm_scale.hpp"
#include "app/word_level_switch.hpp"
#include "core/lesson/encoder_decoder_stage.hpp"
#include "core/source/saved_session.hpp"
#include "core/trace/ablation.hpp"
#include "ui/attention/attention_controls.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/compare/compare_view.hpp"
#include "ui/heads/coref_set_row.hpp"
#include "ui/heads/heads_panel.hpp"
#include "ui/step/stage_bar.hpp"
#include "ui/step/step_navigator.hpp"

namespace attnscope {

namespace {

// The stage by its --stage name (core/lesson/encoder_decoder_stage.hpp). False: the source has
// no stages (a lesson edited since the session was saved), and shows its attention.
bool showSessionStage(const TraceSource& source, StageBar& bar, const std::string& key) {
    if (key.empty()) return true;
    if (!source.offers(TraceSource::Offer::Stages)) return false;
    if (const auto stage = stageOfKey(key)) bar.choose(*stage);
    return true;
}

}  // namespace

SavedSession MainWindow::capturedSession() const {
    SavedSession s;
    const bool model = source_ == model_ && model_->model();
    s.kind = model ? SessionSource::Model : SessionSource::Lesson;
    s.source = model ? model_->model()->name : lessonPath_.toStdString();
    s.sentence = ui_->sentence->text().toStdString();
    s.sentenceB = ui_->compare->view()->sentenceBox()->text().trimmed().toStdString();
    if (const auto trace = source_->trace()) s.ablated = ablatedHeads(*trace);
    s.layer = ui_->controls->layer();
    s.head = ui_->navigator->currentHead();
    s.step = std::max(0, ui_->navigator->currentIndex());
    s.tab = std::max(0, ui_->tabs->currentIndex());
    if (source_->offers(TraceSource::Offer::Stages)) s.stage = std::string(stageKey(ui_->stages->stage()));
    s.shading = ui_->shading->isChecked();
    s.words = words_->on();
    s.norms = norms_->on();
    const CorefSetRow* evaluation = ui_->heads->panel()->setRow();
    s.seed = static_cast<std::uint32_t>(evaluation->seedBox()->value());
    s.control = evaluation->controlBox()->isChecked();
    return s;
}

// The source opens first (a model off the GUI thread); then the sentence runs, and its first
// trace takes the session's heads, layer, head, step and tab.
void MainWindow::restoreSession(const SavedSession& session, const std::function<void()>& opened) {
    const auto apply = [this, session, opened] {
        ui_->onFirstTrace = [this, session] { applySessionView(session); };
        setSentence(qs(session.sentence));
        if (opened) opened();
    };
    if (session.kind == SessionSource::Model) {
        ui_->whenModelOpens = apply;
        openModel(qs(session.source));
    } else if (openLessonFile(qs(session.source))) {
        apply();
    }
}

void MainWindow::applySessionView(const SavedSession& s) {
    ui_->shading->setChecked(s.shading);
    words_->setOn(s.words);
    ui_->controls->setWeighting(s.norms ? AttentionViewOptions::Norms : AttentionViewOptions::Weights);
    const CorefSetRow* evaluation = ui_->heads->panel()->setRow();
    evaluation->seedBox()->setValue(static_cast<int>(s.seed));
    evaluation->controlBox()->setChecked(s.control);
    const bool staged = showSessionStage(*source_, *ui_->stages, s.stage);  // first: the heads switched off are the stage's
    ui_->ablate->setText(qs(headSpecText(s.ablated)));
    applyAblation();  // checked against the trace: heads it does not have are reported, not run
    ui_->controls->setLayer(s.layer);
    ui_->navigator->setCurrentHead(s.head);
    ui_->navigator->setCurrentIndex(s.step);
    if (s.tab < ui_->tabs->count() && ui_->tabs->isTabVisible(s.tab)) ui_->tabs->setCurrentIndex(s.tab);
    ui_->compare->view()->sentenceBox()->setText(qs(s.sentenceB));
    if (!s.sentenceB.empty()) ui_->compare->runB(qs(s.sentenceB));
    // Said last (applying the heads clears the message line), unless a head it lacks was said.
    if (!staged && ui_->error->text().isEmpty())
        setErrorText(tr("The session showed the stage “%1”, but this lesson has no stages: its attention is shown.")
                         .arg(qs(s.stage)));
}

}  // namespace attnscope
