// The coreference view's layout: the legend, the words wrapped on lines with room for the
// markers under them, and each arc's path. Painting reads what this places (coref_paint.cpp).
#include <QFontMetricsF>
#include <algorithm>

#include "ui/coref/coref_style.hpp"
#include "ui/coref/coref_view.hpp"

namespace attnscope {

using coref::kMargin;

namespace {

constexpr double kMinArcWidth = 1.0;  // every candidate keeps a visible, hoverable arc
constexpr double kMinOpacity = 0.2;
constexpr double kMinChosenOpacity = 0.6;

// Ranks by score within one mention: 1 + the number of strictly higher scores.
int rankOf(const Resolution& r, int candidate) {
    int rank = 1;
    for (Eigen::Index c = 0; c < r.scores.cols(); ++c)
        if (r.scores(c) > r.scores(candidate)) ++rank;
    return rank;
}

}  // namespace

// ---------------------------------------------------------------- layout

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

}  // namespace attnscope
