#include "ui/coref/coref_view.hpp"

#include <QBuffer>
#include <QEvent>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPageSize>
#include <QPainter>
#include <QPainterPathStroker>
#include <QPaintEvent>
#include <QPdfWriter>
#include <QScrollArea>
#include <QSplitter>
#include <QSvgGenerator>
#include <QTableWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>

#include "core/trace/explain.hpp"

namespace attnscope {

namespace {

constexpr int kDecimals = 3;
constexpr int kMaxHeadsInToolTip = 8;
constexpr double kMargin = 12;
constexpr double kMinArcWidth = 1.0;   // every candidate keeps a visible, hoverable arc
constexpr double kMinOpacity = 0.2;
constexpr double kMinChosenOpacity = 0.6;
constexpr double kHitWidth = 9;        // px around an arc that count as "on it"
const QColor kChosen("#c0392b");       // strong red: the argmax
const QColor kOther("#31688e");        // viridis blue, as the heatmaps
const QColor kNearest("#b35900");      // baselines: orange and green, told apart by their labels too
const QColor kRule("#1e7b4b");
const QColor kMentionFill("#fde2e0"), kCandidateFill("#e3f0fb"), kWordBorder("#2b6cb0");
const QColor kMutedText("#777777");

QString qs(const std::string& s) { return QString::fromStdString(s); }
QString number(double v) { return qs(formatNumber(v, kDecimals)); }
QString headName(const HeadRef& h) { return QStringLiteral("%1:%2").arg(h.layer + 1).arg(h.head + 1); }

// Ranks by score within one mention: 1 + the number of strictly higher scores.
int rankOf(const Resolution& r, int candidate) {
    int rank = 1;
    for (Eigen::Index c = 0; c < r.scores.cols(); ++c)
        if (r.scores(c) > r.scores(candidate)) ++rank;
    return rank;
}

QColor withAlpha(QColor colour, double alpha) {
    colour.setAlphaF(static_cast<float>(std::clamp(alpha, 0.0, 1.0)));
    return colour;
}

// The top of an arc: in the free band above a line of words, where a label hides no word (an
// arc between lines has its middle among the words in between).
QPointF highestPoint(const QPainterPath& path) {
    QPointF top = path.pointAtPercent(0.5);
    for (int i = 0; i <= 50; ++i) {
        const QPointF p = path.pointAtPercent(i / 50.0);
        if (p.y() < top.y()) top = p;
    }
    return top;
}

// A small label on white in a rounded box: baseline markers, mention numbers, the chosen score.
void drawTag(QPainter& painter, const QRectF& rect, const QColor& colour, const QString& text) {
    painter.setPen(QPen(colour, 1.2));
    painter.setBrush(Qt::white);
    painter.drawRoundedRect(rect, 4, 4);
    painter.drawText(rect, Qt::AlignCenter, text);
}

QColor markerColour(DrawnMarker::Kind kind) {
    return kind == DrawnMarker::Nearest ? kNearest : kind == DrawnMarker::Rule ? kRule : kChosen;
}

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
            QToolTip::showText(help->globalPos(), tr("Click to resolve “%1” as the mention")
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

// ---------------------------------------------------------------- layout

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

// The scoring line, the key (flowing onto more lines when narrow) and the message. Returns the
// y where the words start.
double CorefView::layoutLegend(double width) {
    const QFontMetricsF fm(font());
    QFont bold = font();
    bold.setBold(true);
    const QRectF area(kMargin, kMargin, width - 2 * kMargin, 1e6);
    const QRectF scoringBox = QFontMetricsF(bold).boundingRect(area, Qt::TextWordWrap, legendText().section('\n', 0, 0));
    scoringRect_ = QRectF(kMargin, kMargin, area.width(), scoringBox.height());
    double y = layoutKey(width, scoringRect_.bottom() + fm.height() * 0.3);
    messageRect_ = QRectF();
    if (!message_.isEmpty()) {
        const QRectF box = fm.boundingRect(area.translated(0, y - kMargin), Qt::TextWordWrap, message_);
        messageRect_ = QRectF(kMargin, y, area.width(), box.height());
        y += box.height() + fm.height() * 0.3;
    }
    y += fm.height() * 0.5;  // room for the chosen score's tag on the highest arc
    legendHeight_ = y;
    return y;
}

// The key's samples and captions, flowing onto more lines when narrow. Returns the y below it.
double CorefView::layoutKey(double width, double y) {
    const QFontMetricsF fm(font());
    const QFontMetricsF small(smallFont());
    const std::vector<std::pair<LegendEntry::Sample, QString>> key = {
        {LegendEntry::ChosenArc, tr("chosen (highest score)")},
        {LegendEntry::OtherArc, tr("other candidates: thickness and opacity = score")},
        {LegendEntry::NearestMarker, tr("nearest-mention baseline")},
        {LegendEntry::RuleMarker, tr("rule baseline (agreement + recency)")},
    };
    legend_.clear();
    double x = kMargin;
    for (const auto& [sample, text] : key) {
        const double swatch = sample == LegendEntry::NearestMarker ? small.horizontalAdvance(tr("nearest")) + 10
                              : sample == LegendEntry::RuleMarker  ? small.horizontalAdvance(tr("rule")) + 10
                                                                   : fm.height() * 2.2;
        const double itemWidth = swatch + 6 + fm.horizontalAdvance(text) + fm.height();
        if (x > kMargin && x + itemWidth > width - kMargin) {
            x = kMargin;
            y += fm.height() * 1.3;
        }
        LegendEntry entry;
        entry.sample = sample;
        entry.text = text;
        entry.sampleRect = QRectF(x, y + (fm.height() - small.height() - 4) / 2, swatch, small.height() + 4);
        entry.textRect = QRectF(x + swatch + 6, y, fm.horizontalAdvance(text) + 2, fm.height());
        legend_.push_back(entry);
        x += itemWidth;
    }
    return y + fm.height() * 1.3;
}

// Marker labels per word, so a word's slot is wide enough for what hangs under it.
static std::vector<std::vector<std::pair<DrawnMarker::Kind, int>>> markersByWord(const SentenceResolution& s) {
    std::vector<std::vector<std::pair<DrawnMarker::Kind, int>>> out(s.words.size());
    for (std::size_t m = 0; m < s.mentions.size(); ++m) {
        const Resolution& r = s.mentions[m];
        const auto add = [&](int candidate, DrawnMarker::Kind kind) {
            if (candidate >= 0) out[static_cast<std::size_t>(r.candidates[static_cast<std::size_t>(candidate)])].push_back({kind, static_cast<int>(m)});
        };
        add(r.baselines.nearest, DrawnMarker::Nearest);
        add(r.baselines.rule, DrawnMarker::Rule);
        // Several mentions: each is numbered under its word, and the baselines name the number.
        if (s.mentions.size() > 1) out[static_cast<std::size_t>(r.mention.firstWord)].push_back({DrawnMarker::MentionNumber, static_cast<int>(m)});
    }
    return out;
}

static QString markerLabel(DrawnMarker::Kind kind, int mention, const SentenceResolution& s) {
    const QString number = QStringLiteral("#%1").arg(mention + 1);
    if (kind == DrawnMarker::MentionNumber) return number;
    const QString base = kind == DrawnMarker::Nearest ? QObject::tr("nearest") : QObject::tr("rule");
    return s.mentions.size() < 2 ? base : base + " " + number;
}

void CorefView::layoutWords(double width, double top) {
    const QFontMetricsF fm(font());
    const QFontMetricsF small(smallFont());
    const double padX = fm.averageCharWidth() * 0.6, padY = fm.height() * 0.2;
    const double gap = fm.averageCharWidth() * 1.4;
    const double wordHeight = fm.height() + 2 * padY;
    const double markerHeight = small.height() + 8;
    const double lineHeight = arcBand() + wordHeight + markerHeight + fm.height() * 0.4;
    const auto markers = markersByWord(resolved_);
    std::vector<bool> mention(resolved_.words.size()), candidate(resolved_.words.size());
    for (const Resolution& r : resolved_.mentions) {
        for (int w = r.mention.firstWord; w <= r.mention.lastWord; ++w) mention[static_cast<std::size_t>(w)] = true;
        for (int c : r.candidates) candidate[static_cast<std::size_t>(c)] = true;
    }
    words_.clear();
    lines_.clear();
    slotOfWord_.assign(resolved_.words.size(), -1);
    lineWidth_ = width - 2 * kMargin;
    double x = kMargin;
    for (std::size_t i = 0; i < resolved_.words.size(); ++i) {
        const QString text = qs(resolved_.words[i].text);
        const double box = fm.horizontalAdvance(text) + 2 * padX;
        double hanging = 0;
        for (const auto& [kind, m] : markers[i]) hanging += small.horizontalAdvance(markerLabel(kind, m, resolved_)) + 14;
        const double slot = std::max(box, hanging);
        if (lines_.empty() || (x > kMargin && x + slot > width - kMargin)) {
            const double lineTop = lines_.empty() ? top : lines_.back().top + lineHeight;
            lines_.push_back({lineTop, lineTop + arcBand()});
            x = kMargin;
        }
        DrawnWord word;
        word.word = static_cast<int>(i);
        word.text = text;
        word.rect = QRectF(x + (slot - box) / 2, lines_.back().wordTop, box, wordHeight);
        word.line = static_cast<int>(lines_.size()) - 1;
        word.mention = mention[i];
        word.candidate = candidate[i];
        slotOfWord_[i] = static_cast<int>(words_.size());
        words_.push_back(word);
        x += slot + gap;
    }
}

void CorefView::layoutMarkers() {
    const QFontMetricsF small(smallFont());
    markers_.clear();
    const auto byWord = markersByWord(resolved_);
    for (std::size_t w = 0; w < byWord.size(); ++w) {
        if (byWord[w].empty()) continue;
        const QRectF box = words_[static_cast<std::size_t>(slotOfWord_[w])].rect;
        double total = 0;
        for (const auto& [kind, m] : byWord[w]) total += small.horizontalAdvance(markerLabel(kind, m, resolved_)) + 14;
        double x = box.center().x() - (total - 4) / 2;
        for (const auto& [kind, m] : byWord[w]) {
            DrawnMarker marker;
            marker.kind = kind;
            marker.mention = m;
            marker.word = static_cast<int>(w);
            marker.label = markerLabel(kind, m, resolved_);
            const double labelWidth = small.horizontalAdvance(marker.label) + 10;
            marker.rect = QRectF(x, box.bottom() + 4, labelWidth, small.height() + 4);
            markers_.push_back(marker);
            x += labelWidth + 4;
        }
    }
}

const DrawnWord* CorefView::drawnWord(int word) const {
    if (word < 0 || word >= static_cast<int>(slotOfWord_.size())) return nullptr;
    const int slot = slotOfWord_[static_cast<std::size_t>(word)];
    return slot < 0 ? nullptr : &words_[static_cast<std::size_t>(slot)];
}

QPointF CorefView::wordAnchor(int word) const {
    const DrawnWord* w = drawnWord(word);
    return w ? QPointF(w->rect.center().x(), w->rect.top()) : QPointF();
}

// The middle of a multi-word mention when it sits on one line, else its first word.
QPointF CorefView::mentionAnchor(const Resolution& r) const {
    const DrawnWord* first = drawnWord(r.mention.firstWord);
    const DrawnWord* last = drawnWord(r.mention.lastWord);
    if (!first || !last) return {};
    if (first->line != last->line) return wordAnchor(r.mention.firstWord);
    return {(first->rect.left() + last->rect.right()) / 2, first->rect.top()};
}

// Within a line the arc rises higher the farther it reaches; across lines it climbs out of the
// mention's band and drops into the candidate's (passing behind the words in between).
QPainterPath CorefView::arcPath(QPointF from, QPointF to, bool sameLine) const {
    const double band = arcBand();
    QPainterPath path(from);
    if (sameLine) {
        // Heights spread over the first few word widths, so nearby candidates' arcs stay apart.
        const double reach = std::min(1.0, std::abs(to.x() - from.x()) / (band * 6));
        const double height = band * (0.22 + 0.7 * reach);
        const double control = from.y() - height * 4 / 3;  // a cubic's apex is 3/4 of its control height
        path.cubicTo(from.x(), control, to.x(), control, to.x(), to.y());
    } else {
        path.cubicTo(from.x(), from.y() - band * 0.9, to.x(), to.y() - band * 0.9, to.x(), to.y());
    }
    return path;
}

void CorefView::layoutArcs() {
    arcs_.clear();
    const double maxWidth = QFontMetricsF(font()).height() * 0.5;
    for (std::size_t m = 0; m < resolved_.mentions.size(); ++m) {
        const Resolution& r = resolved_.mentions[m];
        const QPointF from = mentionAnchor(r);
        const int mentionLine = drawnWord(r.mention.firstWord)->line;
        for (std::size_t c = 0; c < r.candidates.size(); ++c) {
            DrawnArc arc;
            arc.mention = static_cast<int>(m);
            arc.candidate = static_cast<int>(c);
            arc.fromWord = r.mention.firstWord;
            arc.toWord = r.candidates[c];
            arc.score = r.scores(static_cast<Eigen::Index>(c));
            arc.rank = rankOf(r, static_cast<int>(c));
            arc.chosen = r.chosen == static_cast<int>(c);
            arc.width = std::max(kMinArcWidth, maxWidth * arc.score);
            arc.opacity = std::max(arc.chosen ? kMinChosenOpacity : kMinOpacity, arc.score);
            arc.path = arcPath(from, wordAnchor(arc.toWord), drawnWord(arc.toWord)->line == mentionLine);
            arcs_.push_back(std::move(arc));
        }
    }
    // Weak arcs first so strong ones lie on top; the chosen ones last of all.
    std::stable_sort(arcs_.begin(), arcs_.end(), [](const DrawnArc& a, const DrawnArc& b) {
        return std::pair(a.chosen, a.score) < std::pair(b.chosen, b.score);
    });
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
    const QString scoring = resolved_.mentions.empty() ? tr("Scores: none") : tr("Scores: %1").arg(qs(resolved_.mentions.front().scoringText));
    QStringList key;
    for (const LegendEntry& e : legend_) key << e.text;
    return scoring + "\n" + key.join(" · ");
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
                   "\n" + qs(r.scoringText);
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

// ---------------------------------------------------------------- painting

void CorefView::paintScene(QPainter& painter, const QRectF& exposed, bool interactive) const {
    painter.fillRect(exposed, Qt::white);
    paintLegend(painter);
    paintArcs(painter);
    if (interactive && selected_) paintArc(painter, arcs_[static_cast<std::size_t>(*selected_)], true);
    if (interactive && hovered_) paintArc(painter, arcs_[static_cast<std::size_t>(*hovered_)], true);
    paintWords(painter, exposed);
    paintMarkers(painter);
    paintChosenScores(painter);
}

void CorefView::paintLegend(QPainter& painter) const {
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(Qt::black);
    painter.drawText(scoringRect_, Qt::TextWordWrap, legendText().section('\n', 0, 0));
    for (const LegendEntry& e : legend_) {
        const QRectF s = e.sampleRect;
        const double y = s.center().y();
        if (e.sample == LegendEntry::ChosenArc || e.sample == LegendEntry::OtherArc) {
            const bool chosen = e.sample == LegendEntry::ChosenArc;
            painter.setPen(QPen(chosen ? kChosen : withAlpha(kOther, 0.7), chosen ? 4 : 2.5, Qt::SolidLine, Qt::RoundCap));
            painter.drawLine(QPointF(s.left(), y), QPointF(s.right(), y));
        } else {
            const bool nearest = e.sample == LegendEntry::NearestMarker;
            painter.setFont(smallFont());
            drawTag(painter, s, markerColour(nearest ? DrawnMarker::Nearest : DrawnMarker::Rule),
                    nearest ? tr("nearest") : tr("rule"));
        }
        painter.setFont(font());
        painter.setPen(Qt::black);
        painter.drawText(e.textRect, Qt::AlignLeft | Qt::AlignVCenter, e.text);
    }
    if (!message_.isEmpty()) {
        painter.setFont(font());
        painter.setPen(kMutedText);
        painter.drawText(messageRect_, Qt::TextWordWrap, message_);
    }
}

void CorefView::paintArcs(QPainter& painter) const {
    painter.setBrush(Qt::NoBrush);
    for (const DrawnArc& arc : arcs_) paintArc(painter, arc, false);
}

// A highlighted arc gets a dark halo under it so the one hovered or clicked stands out.
void CorefView::paintArc(QPainter& painter, const DrawnArc& arc, bool highlighted) const {
    painter.setBrush(Qt::NoBrush);
    if (highlighted) {
        painter.setPen(QPen(QColor(0, 0, 0, 90), arc.width + 5, Qt::SolidLine, Qt::RoundCap));
        painter.drawPath(arc.path);
    }
    const QColor colour = arc.chosen ? kChosen : kOther;
    painter.setPen(QPen(withAlpha(colour, highlighted ? 1.0 : arc.opacity), arc.width, Qt::SolidLine, Qt::RoundCap));
    painter.drawPath(arc.path);
}

void CorefView::paintWords(QPainter& painter, const QRectF& exposed) const {
    std::vector<bool> chosenWord(resolved_.words.size());
    for (const Resolution& r : resolved_.mentions)
        if (r.chosen >= 0) chosenWord[static_cast<std::size_t>(r.candidates[static_cast<std::size_t>(r.chosen)])] = true;
    QFont bold = font();
    bold.setBold(true);
    for (const DrawnWord& w : words_) {
        if (!w.rect.adjusted(-2, -2, 2, 2).intersects(exposed)) continue;  // 100+ words: the visible ones
        const QRectF box = w.rect.adjusted(0.75, 0.75, -0.75, -0.75);
        if (w.mention || w.candidate) {
            const bool chosen = chosenWord[static_cast<std::size_t>(w.word)];
            painter.setPen(QPen(w.mention || chosen ? kChosen : kWordBorder, chosen || w.mention ? 2.2 : 1.2));
            painter.setBrush(w.mention ? kMentionFill : kCandidateFill);
            painter.drawRoundedRect(box, 5, 5);
        } else {
            painter.fillRect(box, Qt::white);  // arcs crossing lines pass behind the words
        }
        painter.setFont(w.mention ? bold : font());
        painter.setPen(w.mention || w.candidate ? QColor(Qt::black) : kMutedText);
        painter.drawText(w.rect, Qt::AlignCenter, w.text);
    }
}

void CorefView::paintMarkers(QPainter& painter) const {
    painter.setFont(smallFont());
    for (const DrawnMarker& m : markers_) drawTag(painter, m.rect, markerColour(m.kind), m.label);
}

// The chosen arc's score at its middle, on a white tag so crossing arcs do not hide it.
void CorefView::paintChosenScores(QPainter& painter) const {
    QFont f = smallFont();
    f.setBold(true);
    painter.setFont(f);
    const QFontMetricsF fm(f);
    for (const DrawnArc& arc : arcs_) {
        if (!arc.chosen) continue;
        const QString text = number(arc.score);
        const QPointF mid = highestPoint(arc.path);
        const QRectF tag(mid.x() - fm.horizontalAdvance(text) / 2 - 4, mid.y() - fm.height() / 2 - 1,
                         fm.horizontalAdvance(text) + 8, fm.height() + 2);
        drawTag(painter, tag, kChosen, text);
    }
}

// ---------------------------------------------------------------- exports

QSize CorefView::figureSize() const { return sceneSize_; }

QImage CorefView::renderImage(double scale) const {
    QImage image((QSizeF(sceneSize_) * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.scale(scale, scale);
    paintScene(painter, QRectF(QPointF(), sceneSize_), false);
    return image;
}

QByteArray CorefView::renderSvg() const {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(sceneSize_);
    svg.setViewBox(QRect(QPoint(), sceneSize_));
    svg.setTitle(tr("AttnScope coreference"));
    svg.setDescription(legendText());
    QPainter painter(&svg);
    painter.setRenderHint(QPainter::Antialiasing);
    paintScene(painter, QRectF(QPointF(), sceneSize_), false);
    painter.end();
    return buffer.data();
}

// One page exactly the figure's size: at 96 dpi a painter unit is one of the view's pixels.
QByteArray CorefView::renderPdf() const {
    constexpr double kDpi = 96;
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);
    pdf.setResolution(static_cast<int>(kDpi));
    pdf.setTitle(tr("AttnScope coreference"));
    pdf.setCreator(QStringLiteral("AttnScope"));
    pdf.setPageMargins(QMarginsF());
    pdf.setPageSize(QPageSize(QSizeF(sceneSize_) * (72 / kDpi), QPageSize::Point));
    QPainter painter(&pdf);
    painter.setRenderHint(QPainter::Antialiasing);
    paintScene(painter, QRectF(QPointF(), sceneSize_), false);
    painter.end();
    return buffer.data();
}

}  // namespace attnscope
