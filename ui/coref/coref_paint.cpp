// The coreference view's painting (legend, arcs, words, markers, the chosen scores) and its
// exports, which paint the same scene into an image, an SVG or a PDF page.
#include <QBuffer>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <algorithm>

#include "ui/coref/coref_style.hpp"
#include "ui/common/theme_colors.hpp"
#include "ui/coref/coref_view.hpp"

namespace attnscope {

using coref::number;

namespace {

// Strong red for the argmax, viridis blue for the others, orange and green baselines (told apart
// by their labels too): each in its theme's shade (ui/common/theme_colors).
using theme::Role;
QColor kChosen() { return theme::color(Role::ArcChosen); }
QColor kMutedText() { return theme::color(Role::MutedText); }

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

// A small label on paper in a rounded box: baseline markers, mention numbers, the chosen score.
void drawTag(QPainter& painter, const QRectF& rect, const QColor& colour, const QString& text) {
    painter.setPen(QPen(colour, 1.2));
    painter.setBrush(theme::paper());
    painter.drawRoundedRect(rect, 4, 4);
    painter.drawText(rect, Qt::AlignCenter, text);
}

QColor markerColour(DrawnMarker::Kind kind) {
    return theme::color(kind == DrawnMarker::Nearest ? Role::ArcNearest : kind == DrawnMarker::Rule ? Role::ArcRule : Role::ArcChosen);
}

}  // namespace

// ---------------------------------------------------------------- painting

void CorefView::setSentenceName(const QString& name, bool second) {
    name_ = name;
    second_ = second;
    relayout();
}

QColor CorefView::chosenArcColour() const { return theme::color(second_ ? Role::ArcChosenB : Role::ArcChosen); }
QColor CorefView::otherArcColour() const { return theme::color(second_ ? Role::ArcOtherB : Role::ArcOther); }
QColor CorefView::tagColour(DrawnMarker::Kind kind) const { return markerColour(kind); }

QColor CorefView::wordFill(const DrawnWord& w) const {
    if (w.mention) return theme::color(Role::MentionFill);
    return w.candidate ? theme::color(Role::ChipFill) : theme::paper();
}

QColor CorefView::wordInk(const DrawnWord& w) const { return w.mention || w.candidate ? theme::ink() : kMutedText(); }
Qt::PenStyle CorefView::arcPenStyle() const { return second_ ? Qt::DashLine : Qt::SolidLine; }

void CorefView::paintScene(QPainter& painter, const QRectF& exposed, bool interactive) const {
    painter.fillRect(exposed, theme::paper());
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
    painter.setPen(theme::ink());
    painter.drawText(scoringRect_, Qt::TextWordWrap, legendText().section('\n', 0, 0));
    for (const LegendEntry& e : legend_) {
        const QRectF s = e.sampleRect;
        const double y = s.center().y();
        if (e.sample == LegendEntry::ChosenArc || e.sample == LegendEntry::OtherArc) {
            const bool chosen = e.sample == LegendEntry::ChosenArc;
            painter.setPen(QPen(chosen ? chosenArcColour() : withAlpha(otherArcColour(), 0.7), chosen ? 4 : 2.5,
                                arcPenStyle(), Qt::RoundCap));
            painter.drawLine(QPointF(s.left(), y), QPointF(s.right(), y));
        } else {
            const bool nearest = e.sample == LegendEntry::NearestMarker;
            painter.setFont(smallFont());
            drawTag(painter, s, markerColour(nearest ? DrawnMarker::Nearest : DrawnMarker::Rule),
                    nearest ? tr("nearest") : tr("rule"));
        }
        painter.setFont(font());
        painter.setPen(theme::ink());
        painter.drawText(e.textRect, Qt::AlignLeft | Qt::AlignVCenter, e.text);
    }
    if (!message_.isEmpty()) {
        painter.setFont(font());
        painter.setPen(kMutedText());
        painter.drawText(messageRect_, Qt::TextWordWrap, message_);
    }
}

void CorefView::paintArcs(QPainter& painter) const {
    painter.setBrush(Qt::NoBrush);
    for (const DrawnArc& arc : arcs_) paintArc(painter, arc, false);
}

// A highlighted arc gets a halo of the ink's colour under it so the one hovered or clicked stands out.
void CorefView::paintArc(QPainter& painter, const DrawnArc& arc, bool highlighted) const {
    painter.setBrush(Qt::NoBrush);
    if (highlighted) {
        QColor halo = theme::ink();  // dark on light paper, light on dark
        halo.setAlpha(90);
        painter.setPen(QPen(halo, arc.width + 5, Qt::SolidLine, Qt::RoundCap));
        painter.drawPath(arc.path);
    }
    const QColor colour = arc.chosen ? chosenArcColour() : otherArcColour();
    painter.setPen(QPen(withAlpha(colour, highlighted ? 1.0 : arc.opacity), arc.width, arcPenStyle(), Qt::RoundCap));
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
            const QColor border = w.mention ? kChosen() : chosen ? chosenArcColour() : theme::color(Role::ChipBorder);  // B: its arcs' green
            painter.setPen(QPen(border, chosen || w.mention ? 2.2 : 1.2));
            painter.setBrush(wordFill(w));
            painter.drawRoundedRect(box, 5, 5);
        } else {
            painter.fillRect(box, wordFill(w));  // arcs crossing lines pass behind the words
        }
        painter.setFont(w.mention ? bold : font());
        painter.setPen(wordInk(w));
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
        drawTag(painter, tag, chosenArcColour(), text);
    }
}

// ---------------------------------------------------------------- exports

QSize CorefView::figureSize() const { return sceneSize_; }

// Exports are drawn in the light theme whatever the window shows: a printed handout.
QImage CorefView::renderImage(double scale) const {
    const theme::LightForExport light;
    QImage image((QSizeF(sceneSize_) * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
    image.fill(theme::paper());
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.scale(scale, scale);
    paintScene(painter, QRectF(QPointF(), sceneSize_), false);
    return image;
}

QByteArray CorefView::renderSvg() const {
    const theme::LightForExport light;
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
    const theme::LightForExport light;
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
