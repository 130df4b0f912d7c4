// The Heads tab: coreference ranking of every head on a set and the head statistics of the
// sentence on screen, for every source alike. The HeadAnalysisWorker computes (off the GUI
// thread); this file wires its results into the HeadsPanel and the model view's thumbnail
// badges, and writes the exports.
#include "app/tabs/heads_tab.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QSpinBox>
#include <QTabWidget>

#include "app/head_analysis_worker.hpp"
#include "app/lesson_source.hpp"
#include "app/sentence_runners.hpp"
#include "app/source/trace_source.hpp"
#include "app/tabs/corpus_controller.hpp"
#include "core/analysis/coref_export.hpp"
#include "core/text/messages.hpp"
#include "ui/heads/coref_set_row.hpp"
#include "ui/heads/head_ranking_builder.hpp"
#include "ui/heads/head_ranking_box.hpp"
#include "ui/heads/heads_panel.hpp"
#include "ui/attention/model_view.hpp"
#include "ui/attention/model_view_bar.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/common/core_error_text.hpp"

namespace attnscope {

namespace {

// The caption quotes at most this many characters of the sentence: a 512-token sentence in full
// would push the table off the tab. Its start and end stay (the whole is the caption's tooltip).
constexpr int kCaptionQuoteChars = 80;

QString elidedInTheMiddle(const QString& text, int maxChars) {
    if (text.size() <= maxChars) return text;
    const int head = maxChars / 2, tail = maxChars - head - 1;
    return text.left(head).trimmed() + QStringLiteral(" … ") + text.right(tail).trimmed();
}

// The badge on a model-view thumbnail: the pattern label, short, plus "first" (attention sink) and
// "coref" when they apply.
QString badgeText(const HeadStatistics& s) {
    static const std::pair<const char*, const char*> shortNames[] = {
        {"delimiter sink", QT_TRANSLATE_NOOP("HeadsTab", "sink")}, {"previous-token", QT_TRANSLATE_NOOP("HeadsTab", "prev")},
        {"next-token", QT_TRANSLATE_NOOP("HeadsTab", "next")},     {"self", QT_TRANSLATE_NOOP("HeadsTab", "self")},
        {"broad", QT_TRANSLATE_NOOP("HeadsTab", "broad")},         {"coreference", QT_TRANSLATE_NOOP("HeadsTab", "coref")},
        {"attention sink", QT_TRANSLATE_NOOP("HeadsTab", "first")}};
    QStringList parts;
    for (const std::string& label : s.labels)
        for (const auto& [name, shortName] : shortNames)
            if (label == name) parts << QCoreApplication::translate("HeadsTab", shortName);  // "mixed" gets no badge
    return parts.join(" · ");
}

std::vector<ThumbnailBadge> badgesOf(const std::vector<HeadStatistics>& stats) {
    std::vector<ThumbnailBadge> badges;
    for (const HeadStatistics& s : stats) {
        QStringList labels;
        for (const std::string& l : s.labels) labels << qs(l);
        badges.push_back({s.head.layer, s.head.head, badgeText(s),
                          QObject::tr("%1 · entropy %2 bits").arg(labels.join(", ")).arg(s.entropy, 0, 'f', 2)});
    }
    return badges;
}

QString joinedTexts(const std::vector<Token>& tokens) {
    QStringList texts;
    for (const Token& t : tokens) texts << qs(t.text);
    return texts.join(' ');
}

// A cross-attention stage: whose rows and whose columns the statistics are over (T_dec × T_src).
QString crossCaption(const HeadAnalysisWorker::Subject& trace) {
    return QObject::tr("Cross-attention heads: rows (queries) are the decoder's %1 tokens “%2”, columns (keys) the "
                       "source's %3 tokens “%4”; previous, next, self and first are left out (two different sentences). "
                       "Click a column to sort.")
        .arg(trace.tokenCount)
        .arg(elidedInTheMiddle(joinedTexts(trace.tokens), kCaptionQuoteChars))
        .arg(trace.keyTokens.size())
        .arg(elidedInTheMiddle(joinedTexts(trace.keyTokens), kCaptionQuoteChars));
}

QString setLabel(const QString& source) { return QFileInfo(source).fileName(); }

// The plot's title, so that an exported figure carries the baselines it is to be read against.
QString rankingTitle(const CorefEvaluation& e, const QString& description) {
    const auto percent = [](double share) { return QString::number(100 * share, 'f', 0) + "%"; };
    return QObject::tr("Antecedent accuracy per head\n%1, %2 evaluated\nbaselines: random %3, first %4, nearest %5, rule %6; rollout %7")
        .arg(description)
        .arg(e.evaluated)
        .arg(percent(e.randomAccuracy()), percent(e.firstAccuracy()), percent(e.nearestAccuracy()), percent(e.ruleAccuracy()),
             percent(e.rolloutAccuracy()));
}

// Why examples were left out (the tooltip of the baselines): the first few, then how many more.
QString skippedText(const CorefEvaluation& evaluation, const CorefSet& set) {
    constexpr int kListed = 15;
    QStringList lines;
    for (const ExampleOutcome& o : evaluation.outcomes) {
        if (o.evaluated) continue;
        if (lines.size() == kListed) {
            lines << QObject::tr("… and %1 more (attnscope heads lists them all)").arg(evaluation.skipped() - kListed);
            break;
        }
        lines << qs(exampleLabel(set, set.examples[static_cast<std::size_t>(o.index)]) + ": " + noticeText(*o.skipReason, coreLanguage()));
    }
    return lines.isEmpty() ? QString() : QObject::tr("Skipped:\n") + lines.join('\n');
}

}  // namespace

HeadsTab::HeadsTab(QTabWidget* tabs, ModelView* modelView, QObject* parent)
    : ReportingPart(parent), worker_(new HeadAnalysisWorker(this)), modelView_(modelView) {
    setObjectName("headsTab");
    panel_ = new HeadsPanel(tabs);
    panel_->setObjectName("headsPanel");
    panel_->addSetSource(tr("English (built-in, 160 sentences)"), builtInCorefSets().at(0));
    panel_->addSetSource(tr("Chinese (built-in, 56 sentences)"), builtInCorefSets().at(1));
    panel_->chooseSetSource(builtInCorefSets().at(0));
    tabs->addTab(panel_, tr("Heads"));
    worker_->setObjectName("headAnalysisWorker");
    corpus_ = new CorpusController(panel_->corpus(), this);
    corpus_->setObjectName("corpusController");
    connectPanel();
    connect(modelView_, &ModelView::headOrderRequested, this, &HeadsTab::orderModelView);
}

void HeadsTab::connectPanel() {
    connect(panel_, &HeadsPanel::evaluateRequested, this, &HeadsTab::evaluate);
    connect(panel_, &HeadsPanel::cancelRequested, worker_, &HeadAnalysisWorker::cancelEvaluation);
    connect(panel_, &HeadsPanel::exportRequested, this, &HeadsTab::exportDialog);
    connect(panel_, &HeadsPanel::useHeadsForCoreference, this, &HeadsTab::useHeadsForCoreference);
    const JobSignals* evaluations = worker_->evaluations();
    connect(evaluations, &JobSignals::started, this, [this] { panel_->setEvaluating(true); });
    connect(evaluations, &JobSignals::progress, panel_, &HeadsPanel::setProgress);
    connect(evaluations, &JobSignals::finished, this, &HeadsTab::onEvaluationFinished);
    connect(evaluations, &JobSignals::failed, this, [this](const QString& message, bool cancelled) {
        panel_->setEvaluating(false);
        panel_->showMessage(cancelled ? tr("Cancelled; the previous ranking stays shown.")
                                      : tr("The evaluation failed: %1").arg(message));
    });
    connect(worker_, &HeadAnalysisWorker::statisticsReady, this, &HeadsTab::onStatisticsReady);
}

// A new model, lesson or edit: the ranking was of other heads.
void HeadsTab::setSource(const TraceSource* source) {
    source_ = source;
    worker_->clearEvaluation();
    panel_->clearEvaluation(tr("Press Evaluate to rank the heads of %1.").arg(source_->shortName()));
    modelView_->setBadges({});
    corpus_->setSource(source);
}

// Evaluations run on the source's sentence runner (a lesson is copied, so edits made while an
// evaluation runs do not reach into it).
void HeadsTab::evaluate(const QString& setSource) {
    if (setSource.isEmpty()) return panel_->showMessage(tr("Choose a coreference set first."));
    SentenceRunner run = source_ ? source_->sentenceRunner() : SentenceRunner{};
    if (!run) return panel_->showMessage(tr("Open a lesson or a model first."));
    auto set = loadCorefSet(setSource);
    if (!set) return panel_->showMessage(tr("The set could not be read: %1").arg(coreErrorText(set.error())));
    const QString description = tr("%1 on %2").arg(source_->shortName(), setLabel(setSource));
    BootstrapSettings bootstrap;
    bootstrap.seed = static_cast<std::uint32_t>(panel_->setRow()->seedBox()->value());
    ControlRunnerFactory control;
    if (panel_->setRow()->controlBox()->isChecked()) {
        control = source_->controlRunner(bootstrap.seed);
        if (!control) return panel_->showMessage(tr("The random-weights control needs a model (a lesson has no weights to shuffle)."));
    }
    worker_->evaluate(std::make_shared<const CorefSet>(std::move(set).value()), std::move(run), description, std::move(control),
                      bootstrap);
}

void HeadsTab::onEvaluationFinished() {
    panel_->setEvaluating(false);
    const auto evaluation = worker_->evaluation();
    panel_->showEvaluation(evaluation, rankingTitle(*evaluation, worker_->evaluationDescription()));
    panel_->ranking()->showControl(worker_->control());
    panel_->showMessage(tr("Evaluated %1 of %2 sentences.").arg(evaluation->evaluated).arg(evaluation->outcomes.size()));
    panel_->ranking()->baselinesLabel()->setToolTip(skippedText(*evaluation, *worker_->evaluatedSet()));
}

void HeadsTab::requestStatistics(std::shared_ptr<const Trace> trace, const QString& sentence,
                                 std::shared_ptr<const Trace> norms) {
    statisticsSentence_ = sentence;
    worker_->computeStatistics(std::move(trace), source_ ? source_->thumbnails() : nullptr, std::move(norms));
}

void HeadsTab::onStatisticsReady() {
    const auto stats = worker_->statistics();
    const HeadAnalysisWorker::Subject* trace = worker_->statisticsSubject();
    if (!stats || !trace) return;
    if (trace->crossAttention) return panel_->showStatistics(*stats, crossCaption(*trace));  // a lesson: no badges
    const QString quoted = elidedInTheMiddle(statisticsSentence_, kCaptionQuoteChars);
    panel_->showStatistics(*stats,
                           tr("What every head does on “%1” (%2 tokens). Labels: thresholds in "
                              "docs/coreference.md; “coreference” when a head beats both baselines "
                              "on the evaluated set. Click a column to sort.")
                               .arg(quoted)
                               .arg(trace->tokenCount),
                           quoted == statisticsSentence_ ? QString() : statisticsSentence_);
    const bool badges = source_ && source_->offers(TraceSource::Offer::ModelViews);
    modelView_->setBadges(badges ? badgesOf(*stats) : std::vector<ThumbnailBadge>{});
    orderModelView();
}

// The model view's heads in the order of the statistic it asks for (core/analysis/head_order).
void HeadsTab::orderModelView() {
    const auto key = modelView_->headSortKey();
    const auto stats = worker_->statistics();
    if (!key || !stats) return modelView_->setHeadOrder({});
    modelView_->setHeadOrder(headOrderBy(*stats, *key), modelView_->bar()->orderBox()->currentText());
}

bool HeadsTab::exportRanking(const QString& path, const QString& format) {
    const auto evaluation = worker_->evaluation();
    const auto set = worker_->evaluatedSet();
    if (!evaluation || !set) {
        emit failed(tr("Nothing to export"), tr("Evaluate a coreference set first."));
        return false;
    }
    QByteArray bytes = panel_->rankingBuilder().figureBytes(format);
    const auto control = worker_->control();
    const ControlComparison* shownControl = control ? &*control : nullptr;
    if (format == "csv") bytes = QByteArray::fromStdString(evaluationToCsv(*evaluation, shownControl));
    else if (format == "json") bytes = QByteArray::fromStdString(evaluationToJson(*evaluation, *set, shownControl));
    return writeReported(path, bytes, format);
}

void HeadsTab::exportDialog(const QString& format) {
    const QString path =
        QFileDialog::getSaveFileName(panel_, tr("Export head ranking"), "head-ranking." + format, exportFilter(format));
    if (!path.isEmpty()) exportRanking(path, format);
}

}  // namespace attnscope
