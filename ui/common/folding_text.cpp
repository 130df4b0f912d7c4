#include "ui/common/folding_text.hpp"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace attnscope {

FoldingText::FoldingText(QWidget* parent, int foldedLines) : QWidget(parent), foldedLines_(foldedLines) {
    label_ = new QLabel(this);
    label_->setWordWrap(true);
    label_->setTextFormat(Qt::PlainText);  // a lesson's "<s>" is a token, not Qt's rich-text strike-out
    label_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    toggle_ = new QToolButton(this);
    toggle_->setAutoRaise(true);
    connect(toggle_, &QToolButton::clicked, this, [this] { setFolded(!folded_); });
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label_, 1);
    layout->addWidget(toggle_, 0, Qt::AlignBottom);
    updateFold();
}

void FoldingText::setText(const QString& text) {
    label_->setText(text);
    updateFold();
}

void FoldingText::setFolded(bool folded) {
    folded_ = folded;
    updateFold();
}

bool FoldingText::hasMore() const { return label_->heightForWidth(label_->width()) > foldedHeight(); }

int FoldingText::foldedHeight() const {
    const QMargins m = label_->contentsMargins();
    return foldedLines_ * label_->fontMetrics().lineSpacing() + m.top() + m.bottom() + 2 * label_->margin();
}

// Cut at a whole line while folded; the button only when there is more to show.
void FoldingText::updateFold() {
    const bool more = hasMore();
    label_->setMaximumHeight(folded_ && more ? foldedHeight() : QWIDGETSIZE_MAX);
    toggle_->setVisible(more || !folded_);
    toggle_->setText(folded_ ? tr("More ▾") : tr("Less ▴"));
    toggle_->setToolTip(folded_ ? tr("Show the whole text") : tr("Show only its first lines"));
}

void FoldingText::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    updateFold();
}

void FoldingText::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) updateFold();
}

}  // namespace attnscope
