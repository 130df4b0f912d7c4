#include "ui/common/plot_font.hpp"

#include <QEvent>
#include <QFontMetricsF>
#include <QSet>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace attnscope {

namespace {

const char* const kIntendedPoints = "intendedPoints";  // a title's size before fitTitles shrank it
constexpr double kSmallestTitlePoints = 7;

QFont scaled(QFont font, double factor) {
    if (font.pointSizeF() > 0) font.setPointSizeF(font.pointSizeF() * factor);
    return font;
}

void scaleAxis(QCPAxis* axis, double factor) {
    axis->setLabelFont(scaled(axis->labelFont(), factor));
    axis->setTickLabelFont(scaled(axis->tickLabelFont(), factor));
    axis->setSelectedLabelFont(scaled(axis->selectedLabelFont(), factor));
    axis->setSelectedTickLabelFont(scaled(axis->selectedTickLabelFont(), factor));
}

// QCPLegend::setFont hands its font to every item: scaling the items too would scale them twice,
// and a zoom there and back with the curves redrawn in between (new items take the legend's font)
// left the Lab's legends a quarter of their size.
void scaleLegend(QCPLegend* legend, double factor) {
    legend->setFont(scaled(legend->font(), factor));
    legend->setSelectedFont(scaled(legend->selectedFont(), factor));
}

// Every font the plot holds, each once, times `factor`.
void scaleFonts(QCustomPlot& plot, double factor) {
    QSet<QCPAxis*> axes;
    for (QCPAxisRect* rect : plot.axisRects())
        for (QCPAxis* axis : rect->axes()) axes.insert(axis);
    for (QCPLayoutElement* element : plot.plotLayout()->elements(true)) {
        if (auto* text = qobject_cast<QCPTextElement*>(element)) {
            text->setFont(scaled(text->font(), factor));
            if (const QVariant intended = text->property(kIntendedPoints); intended.isValid())
                text->setProperty(kIntendedPoints, intended.toDouble() * factor);
            text->setSelectedFont(scaled(text->selectedFont(), factor));
        } else if (auto* scale = qobject_cast<QCPColorScale*>(element)) {
            axes.insert(scale->axis());
        }
    }
    for (QCPAxis* axis : axes) scaleAxis(axis, factor);
    if (plot.legend) scaleLegend(plot.legend, factor);
    for (int i = 0; i < plot.itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot.item(i))) text->setFont(scaled(text->font(), factor));
}

// A title wider than its plot (a long one at a large zoom) takes a smaller size, down to
// kSmallestTitlePoints, rather than be cut at both ends; it gets its intended size back when it fits.
void fitTitles(QCustomPlot& plot) {
    const double room = plot.width() - 8;
    for (QCPLayoutElement* element : plot.plotLayout()->elements(false)) {
        auto* title = qobject_cast<QCPTextElement*>(element);
        if (!title || title->text().isEmpty() || room <= 0) continue;
        if (!title->property(kIntendedPoints).isValid()) title->setProperty(kIntendedPoints, title->font().pointSizeF());
        QFont font = title->font();
        font.setPointSizeF(title->property(kIntendedPoints).toDouble());
        const auto width = [&] { return QFontMetricsF(font).boundingRect(QRectF(), 0, title->text()).width(); };
        while (width() > room && font.pointSizeF() > kSmallestTitlePoints)
            font.setPointSizeF(std::max(kSmallestTitlePoints, font.pointSizeF() - 0.5));
        if (font.pointSizeF() == title->font().pointSizeF()) continue;
        title->setFont(font);
        plot.replot(QCustomPlot::rpQueuedReplot);
    }
}

class FontFollower : public QObject {
public:
    FontFollower(QCustomPlot* plot, double laidOutFor)
        : QObject(plot), points_(plot->font().pointSizeF()), laidOutFor_(laidOutFor), baseMinimum_(plot->minimumSize()) {
        growMinimum(*plot);
        connect(plot, &QCustomPlot::afterLayout, this, [this, plot] {
            fitTitles(*plot);
            growMinimum(*plot);
        });
    }

    bool eventFilter(QObject* watched, QEvent* event) override {
        auto* plot = static_cast<QCustomPlot*>(watched);
        if (event->type() == QEvent::FontChange && points_ > 0 && plot->font().pointSizeF() > 0) {
            const double now = plot->font().pointSizeF();
            if (now != points_) {
                scaleFonts(*plot, now / points_);
                points_ = now;
                growMinimum(*plot);
                plot->replot(QCustomPlot::rpQueuedReplot);
            }
        }
        return QObject::eventFilter(watched, event);
    }

private:
    // Larger text needs taller plots (pages scroll down); smaller text keeps the size the page
    // was laid out for. The width stays: the screen's width is what a page must fit. A plot whose
    // rows are labelled (a sentence's tokens) is tall enough for a line of text per row: the
    // labels never print over each other.
    void growMinimum(QCustomPlot& plot) const {
        const double growth = std::max(1.0, plot.font().pointSizeF() / laidOutFor_);
        int height = static_cast<int>(baseMinimum_.height() * growth);
        const int rows = plot.property(kLabelledRows).toInt();
        if (rows > 0) {
            const int rectHeight = plot.axisRect()->height();
            const int aroundRect = rectHeight > 0 ? plot.height() - rectHeight : 0;
            const double line = QFontMetricsF(plot.yAxis->tickLabelFont()).height();
            height = std::max(height, aroundRect + static_cast<int>(std::ceil(rows * line)));
        }
        if (plot.minimumSize() == QSize(baseMinimum_.width(), height)) return;
        // A larger minimum resizes the plot at once, inside the replot that called us, and
        // QCustomPlot skips a replot asked for during one: without a replot queued for after it,
        // the plot keeps the layout of its old size (row labels over each other).
        plot.setMinimumSize(baseMinimum_.width(), height);
        plot.replot(QCustomPlot::rpQueuedReplot);
    }

    double points_, laidOutFor_;
    QSize baseMinimum_;
};

}  // namespace

void followWidgetFont(QCustomPlot* plot, double laidOutForPoints) {
    plot->installEventFilter(new FontFollower(plot, laidOutForPoints));
}

}  // namespace attnscope
