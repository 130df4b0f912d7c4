#include "ui/heads/heads_panel.hpp"

#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include "ui/heads/coref_set_row.hpp"
#include "ui/heads/corpus_panel.hpp"
#include "ui/heads/head_ranking_box.hpp"
#include "ui/heads/head_stats_table.hpp"

namespace attnscope {

HeadsPanel::HeadsPanel(QWidget* parent)
    : QWidget(parent),
      setRow_(new CorefSetRow),  // the layouts and tabs below give each part its parent
      ranking_(new HeadRankingBox),
      stats_(new HeadStatsTable),
      corpus_(new CorpusPanel),
      sections_(new QTabWidget(this)) {
    // Two pages: the ranking with this sentence's table, and the corpus statistics (full height for its plots).
    sections_->setObjectName("headsSections");
    auto* vertical = new QSplitter(Qt::Vertical, sections_);
    auto* top = new QWidget(vertical);
    top_ = top;
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(setRow_);
    unavailable_ = new QLabel(top);
    unavailable_->setObjectName("evaluationUnavailable");
    unavailable_->setWordWrap(true);
    unavailable_->hide();
    topLayout->addWidget(unavailable_);
    topLayout->addWidget(ranking_, 1);
    vertical->addWidget(top);
    vertical->addWidget(stats_);
    vertical->setStretchFactor(0, 3);
    vertical->setStretchFactor(1, 2);
    corpus_->setObjectName("corpusPanel");
    sections_->addTab(vertical, tr("Ranking and sentence"));
    sections_->addTab(corpus_, tr("Corpus"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(sections_);
    connect(setRow_, &CorefSetRow::evaluateRequested, this, &HeadsPanel::evaluateRequested);
    connect(setRow_, &CorefSetRow::cancelRequested, this, &HeadsPanel::cancelRequested);
    connect(ranking_, &HeadRankingBox::headClicked, this, &HeadsPanel::selectHead);
    connect(ranking_, &HeadRankingBox::useHeadsForCoreference, this, &HeadsPanel::useHeadsForCoreference);
    connect(ranking_, &HeadRankingBox::exportRequested, this, &HeadsPanel::exportRequested);
    connect(stats_, &HeadStatsTable::headChosen, this, [this](const HeadRef& head) {
        if (selectedHead() != head) selectHead(head);
    });
    setEvaluating(false);
    clearEvaluation(tr("Choose a coreference set and press Evaluate to rank every head."));
}

HeadsPanel::~HeadsPanel() = default;

void HeadsPanel::addSetSource(const QString& label, const QString& source) { setRow_->addSource(label, source); }
void HeadsPanel::chooseSetSource(const QString& source) { setRow_->chooseSource(source); }
QString HeadsPanel::setSource() const { return setRow_->source(); }

void HeadsPanel::showEvaluation(std::shared_ptr<const CorefEvaluation> evaluation, const QString& title) {
    ranking_->showEvaluation(std::move(evaluation), title);
}

void HeadsPanel::clearEvaluation(const QString& message) { ranking_->clearEvaluation(message); }
std::shared_ptr<const CorefEvaluation> HeadsPanel::evaluation() const { return ranking_->evaluation(); }

// The heatmap, its caption and the statistics table all follow one selected head.
void HeadsPanel::selectHead(const HeadRef& head) {
    ranking_->selectHead(head);
    stats_->selectHead(head);
    if (ranking_->selectedHead() || stats_->lists(head)) emit headSelected(head);
}

std::optional<HeadRef> HeadsPanel::selectedHead() const { return ranking_->selectedHead(); }

void HeadsPanel::setEvaluating(bool running) { setRow_->setEvaluating(running); }

// An encoder–decoder's decoder stages: Evaluate off with the reason, and no ranking (its empty
// heatmap was squeezed at 1280×720): the statistics of the stage's heads take its room.
void HeadsPanel::setEvaluationUnavailable(const QString& why) {
    setRow_->setUnavailable(why);
    ranking_->setVisible(why.isEmpty());
    unavailable_->setText(why);
    unavailable_->setVisible(!why.isEmpty());
    // Without the ranking the top is the set row and the reason; the splitter gives the rest below.
    top_->setMaximumHeight(why.isEmpty() ? QWIDGETSIZE_MAX : top_->sizeHint().height());
}
void HeadsPanel::setProgress(int done, int total) { setRow_->setProgress(done, total); }
void HeadsPanel::showMessage(const QString& text) { setRow_->showMessage(text); }
QString HeadsPanel::messageText() const { return setRow_->messageText(); }

void HeadsPanel::showStatistics(std::vector<HeadStatistics> stats, const QString& caption, const QString& captionTip) {
    stats_->show(std::move(stats), caption, ranking_->selectedHead(), captionTip);
}

const HeadRankingBuilder& HeadsPanel::rankingBuilder() const { return ranking_->builder(); }

}  // namespace attnscope
