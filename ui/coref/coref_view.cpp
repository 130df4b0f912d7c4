#include "ui/coref/coref_view.hpp"

#include <QEvent>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPathStroker>
#include <QPaintEvent>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/common/core_language.hpp"
#include "ui/coref/coref_style.hpp"

// The view's widgets, events, hit tests and side panel; its layout is in coref_layout.cpp, its
// painting and exports in coref_paint.cpp.

namespace attnscope {

using coref::headName;
using coref::kMargin;
using coref::number;

namespace {

constexpr int kMaxHeadsInToolTip = 8;
constexpr double kHitWidth = 9;  // px around an arc that count as "on it"

}  // namespace

// ---------------------------------------------------------------- canvas

class CorefCanvas : public QWidget {
public:
    explicit CorefCanvas(CorefView* view) : QWidget(view), view_(view) { setMouseTracking(true); }

protected:
    void paintEvent(QPaintEvent* event) override {
        QPainter painter(this);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        view_->paintScene(painter, event->rect(), true);
    }
    void mouseMoveEvent(QMouseEvent* event) override {
        const QPointF p = event->position();
        const bool onWord = view_->wordAt(p).has_value();
        setCursor(onWord ? Qt::PointingHandCursor : Qt::ArrowCursor);
        view_->setHoveredArc(onWord ? std::nullopt : view_->arcAt(p));
    }
    void leaveEvent(QEvent*) override { view_->setHoveredArc(std::nullopt); }
    void mousePressEvent(QMouseEvent* event) override {
        if (event->button() != Qt::LeftButton) return;
        const QPointF p = event->position();
        if (const auto word = view_->wordAt(p)) emit view_->wordClicked(*word);
        else if (const auto arc = view_->arcAt(p)) view_->selectArc(*arc);
    }
    bool event(QEvent* event) override {
        if (event->type() != QEvent::ToolTip) return QWidget::event(event);
        const auto* help = static_cast<QHelpEvent*>(event);
        const QPointF p = help->pos();
        if (const auto word = view_->wordAt(p))
            QToolTip::showText(help->globalPos(), CorefView::tr("Click to resolve “%1” as the mention")
                                                      .arg(qs(view_->resolved_.words[static_cast<std::size_t>(*word)].text)), this);
        else if (const auto arc = view_->arcAt(p))
            QToolTip::showText(help->globalPos(), view_->arcToolTip(*arc), this);
        else
            QToolTip::hideText();
        return true;
    }

private:
    CorefView* view_;
};

// ---------------------------------------------------------------- view

CorefView::CorefView(QWidget* parent) : QWidget(parent) {
    setObjectName("corefView");
    canvas_ = new CorefCanvas(this);
    scroll_ = new QScrollArea(this);
    scroll_->setWidget(canvas_);
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // the words wrap instead
    scroll_->viewport()->installEventFilter(this);
    auto* panel = new QWidget(this);
    detail_ = new QLabel(panel);
    detail_->setObjectName("corefDetail");
    detail_->setWordWrap(true);
    detail_->setTextFormat(Qt::PlainText);
    detail_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    contributions_ = new QTableWidget(0, 2, panel);
    contributions_->setObjectName("corefContributions");
    contributions_->setHorizontalHeaderLabels({tr("Layer:head"), tr("Score")});
    contributions_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    contributions_->horizontalHeader()->setStretchLastSection(true);
    contributions_->verticalHeader()->hide();
    contributions_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto* panelLayout = new QVBoxLayout(panel);
    panelLayout->setContentsMargins(4, 0, 0, 0);
    panelLayout->addWidget(detail_);
    panelLayout->addWidget(contributions_, 1);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(scroll_);
    splitter->addWidget(panel);
    splitter->setStretchFactor(0, 1);
    splitter->setSizes({900, 300});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
    showMessage(tr("Nothing to resolve yet."));
}

CorefView::~CorefView() = default;

QWidget* CorefView::canvas() const { return canvas_; }

void CorefView::showResolution(const SentenceResolution& resolved) {
    resolved_ = resolved;
    message_ = resolved_.mentions.empty() ? tr("No pronoun in this sentence: click a word to resolve it as the mention.")
                                          : QString();
    hovered_.reset();
    selected_.reset();
    relayout();
    // The panel starts on the first mention's choice, so it is never empty when there is one.
    for (std::size_t i = 0; i < arcs_.size(); ++i)
        if (arcs_[i].chosen && arcs_[i].mention == 0) selectArc(static_cast<int>(i));
    if (!selected_) showContributions();
}

void CorefView::showMessage(const QString& message) {
    resolved_ = {};
    message_ = message;
    hovered_.reset();
    selected_.reset();
    relayout();
    showContributions();
}

QFont CorefView::smallFont() const {
    QFont f = font();
    f.setPointSizeF(font().pointSizeF() * 0.8);
    return f;
}

// Room above each line of words for the arcs; grows with the text size.
double CorefView::arcBand() const { return QFontMetricsF(font()).height() * 3.4; }

bool CorefView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == scroll_->viewport() && event->type() == QEvent::Resize) relayout();
    return QWidget::eventFilter(watched, event);
}

void CorefView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange) relayout();
    QWidget::changeEvent(event);
}

// The legend, words, markers and arcs are placed by coref_layout.cpp; the canvas takes the
// picture's size.
void CorefView::relayout() {
    const double width = std::max(320, scroll_->viewport()->width());
    const double wordsTop = layoutLegend(width);
    layoutWords(width, wordsTop);
    layoutMarkers();
    layoutArcs();
    double bottom = legendHeight_;
    for (const DrawnMarker& m : markers_) bottom = std::max(bottom, m.rect.bottom());
    for (const DrawnWord& w : words_) bottom = std::max(bottom, w.rect.bottom());
    sceneSize_ = QSize(static_cast<int>(width), static_cast<int>(bottom + kMargin));
    // On screen the white page fills the viewport; exports keep the picture's own size.
    canvas_->resize(sceneSize_.width(), std::max(sceneSize_.height(), scroll_->viewport()->height()));
    canvas_->update();
}

// ---------------------------------------------------------------- hit tests and details

std::optional<int> CorefView::wordAt(QPointF p) const {
    for (const DrawnWord& w : words_)
        if (w.rect.contains(p)) return w.word;
    return std::nullopt;
}

std::optional<int> CorefView::arcAt(QPointF p) const {
    QPainterPathStroker stroker;
    for (int i = static_cast<int>(arcs_.size()) - 1; i >= 0; --i) {  // topmost first
        const DrawnArc& arc = arcs_[static_cast<std::size_t>(i)];
        stroker.setWidth(std::max(arc.width, kHitWidth));
        if (stroker.createStroke(arc.path).contains(p)) return i;
    }
    return std::nullopt;
}

QString CorefView::legendText() const {
    const QString scoring = resolved_.mentions.empty() ? tr("Scores: none") : tr("Scores: %1").arg(qs(scoringText(resolved_.mentions.front(), coreLanguage())));
    // The attention views may be shaded by weight × ‖value‖; these scores never are: say so.
    const QString weights = tr("from the attention weights, not weight × ‖value‖");
    QStringList key;
    for (const LegendEntry& e : legend_) key << e.text;
    const QString renormalised = renormalisedText();
    const QString first = (name_.isEmpty() ? scoring : name_ + QStringLiteral(" · ") + scoring) + QStringLiteral(" · ") + weights +
                          (renormalised.isEmpty() ? QString() : QStringLiteral(" · ") + renormalised);
    return first + "\n" + key.join(" · ");
}

// The scores are shares of the attention that reached the candidates: say so, and how much that was.
QString CorefView::renormalisedText() const {
    QStringList shares;
    for (const Resolution& r : resolved_.mentions)
        if (r.rawScores.size() > 0) shares << QStringLiteral("%1 %2%").arg(qs(r.mention.text)).arg(100 * r.rawScores.sum(), 0, 'f', 1);
    if (shares.isEmpty()) return QString();
    return tr("renormalised over the candidates, which received %1 of the mention's attention (raw attention: "
              "hover an arc)")
        .arg(shares.join(", "));
}

QString CorefView::arcToolTip(int index) const {
    const DrawnArc& arc = arcs_.at(static_cast<std::size_t>(index));
    const Resolution& r = resolved_.mentions[static_cast<std::size_t>(arc.mention)];
    QStringList lines;
    const QString numbered = resolved_.mentions.size() > 1 ? QStringLiteral(" (#%1)").arg(arc.mention + 1) : QString();
    lines << QStringLiteral("%1 → %2%3").arg(qs(r.mention.text), qs(resolved_.words[static_cast<std::size_t>(arc.toWord)].text), numbered);
    lines << tr("score %1 · rank %2 of %3%4")
                 .arg(number(arc.score))
                 .arg(arc.rank)
                 .arg(r.candidates.size())
                 .arg(arc.chosen ? tr(" · chosen") : QString());
    if (arc.candidate < r.rawScores.size())
        lines << tr("raw attention %1 (the score is it renormalised over the candidates)")
                     .arg(number(r.rawScores(static_cast<Eigen::Index>(arc.candidate))));
    if (r.baselines.nearest == arc.candidate) lines << tr("the nearest-mention baseline's choice");
    if (r.baselines.rule == arc.candidate) lines << tr("the rule baseline's choice");
    const std::vector<HeadContribution> heads = contributionsTo(r, arc.candidate);
    if (heads.empty()) {
        lines << tr("attention rollout: no per-head scores");
    } else if (heads.size() == 1) {
        lines << tr("one head: %1").arg(headName(heads.front().head));
    } else {
        QStringList shown;
        for (std::size_t k = 0; k < heads.size() && k < kMaxHeadsInToolTip; ++k)
            shown << headName(heads[k].head) + " " + number(heads[k].score);
        if (heads.size() > kMaxHeadsInToolTip) shown << tr("… %1 more (click the arc)").arg(heads.size() - kMaxHeadsInToolTip);
        lines << tr("mean of %1 heads: %2").arg(heads.size()).arg(shown.join(", "));
    }
    return lines.join('\n');
}

void CorefView::selectArc(int arc) {
    if (arc < 0 || arc >= static_cast<int>(arcs_.size())) return;
    selected_ = arc;
    showContributions();
    canvas_->update();
    emit arcSelected(arc);
}

QString CorefView::detailText() const { return detail_->text(); }

// The side panel: the selected arc's numbers and every head's own score for its candidate.
void CorefView::showContributions() {
    contributions_->setRowCount(0);
    if (!selected_) {
        contributions_->hide();
        detail_->setText(resolved_.mentions.empty() ? message_ : tr("Click an arc to see each head's score."));
        return;
    }
    const DrawnArc& arc = arcs_[static_cast<std::size_t>(*selected_)];
    const Resolution& r = resolved_.mentions[static_cast<std::size_t>(arc.mention)];
    const std::vector<HeadContribution> heads = contributionsTo(r, arc.candidate);
    QString text = arcToolTip(*selected_).section('\n', 0, 0) + "\n" +
                   tr("score %1, rank %2 of %3%4").arg(number(arc.score)).arg(arc.rank).arg(r.candidates.size())
                       .arg(arc.chosen ? tr(", chosen") : QString()) +
                   "\n" + qs(scoringText(r, coreLanguage()));
    if (heads.empty()) text += "\n" + tr("Attention rollout mixes every head of every layer: there are no per-head scores.");
    else if (heads.size() > 1) text += "\n" + tr("The score is the mean of these heads' scores:");
    detail_->setText(text);
    contributions_->setVisible(!heads.empty());  // rollout: the text says why there is no table
    contributions_->setRowCount(static_cast<int>(heads.size()));
    for (std::size_t k = 0; k < heads.size(); ++k) {
        contributions_->setItem(static_cast<int>(k), 0, new QTableWidgetItem(headName(heads[k].head)));
        auto* score = new QTableWidgetItem(number(heads[k].score));
        score->setData(Qt::UserRole, heads[k].score);
        score->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        contributions_->setItem(static_cast<int>(k), 1, score);
    }
}

void CorefView::setHoveredArc(std::optional<int> arc) {
    if (arc == hovered_) return;
    hovered_ = arc;
    canvas_->update();
}

}  // namespace attnscope
