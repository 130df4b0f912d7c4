#include "ui/step/token_strip.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>

#include "ui/common/qt_text.hpp"
#include "ui/common/theme_colors.hpp"

namespace attnscope {

namespace {

const char* kTableChipStyle =
    "QLabel { background: {chipFill}; border: 2px solid {chipBorder}; border-radius: 8px; padding: 3px 10px; }";
const char* kHashedChipStyle =
    "QLabel { background: {hashedChipFill}; border: 2px dashed {hashedChipBorder}; border-radius: 8px;"
    " padding: 3px 10px; font-style: italic; }";
// CJK fonts have no italic: Qt would shear the glyphs, so Chinese chips stay upright.
const char* kHashedCjkChipStyle =
    "QLabel { background: {hashedChipFill}; border: 2px dashed {hashedChipBorder}; border-radius: 8px; padding: 3px 10px; }";

}  // namespace

TokenStrip::TokenStrip(QWidget* parent) : QWidget(parent) {
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* inner = new QWidget(scroll);
    row_ = new QHBoxLayout(inner);
    row_->setContentsMargins(2, 2, 2, 2);
    row_->addStretch(1);
    scroll->setWidget(inner);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
}

QLabel* TokenStrip::makeChip() {
    auto* chip = new QLabel(this);
    chip->setTextFormat(Qt::PlainText);  // a token "<b>" is text, not markup
    chip->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    return chip;
}

void TokenStrip::showToken(QLabel* chip, const Token& token, int position, bool styleChanged) {
    QFont f = font();  // follows "Larger text", so set on reused chips too
    f.setPointSizeF(f.pointSizeF() * 1.15);
    if (chip->font() != f) chip->setFont(f);
    const QString text = QString::fromStdString(token.text);
    styleChanged = styleChanged || containsCjk(chip->text()) != containsCjk(text);  // italic or upright
    if (chip->text() != text) chip->setText(text);
    if (styleChanged)
        theme::setThemedStyleSheet(chip, QLatin1String(token.inTable ? kTableChipStyle : containsCjk(text) ? kHashedCjkChipStyle : kHashedChipStyle));
    chip->setToolTip(toolTip(token, text, position));
}

// A model's token also names its vocabulary piece and says when its bytes are not whole text
// (a Chinese character split over byte pieces: core/tokenizers/token_reading.hpp).
QString TokenStrip::toolTip(const Token& token, const QString& text, int position) {
    if (token.piece.empty()) {
        const QString where = token.inTable ? tr("vector from the lesson's embedding table")
                              : token.zeroVector
                                  ? tr("not in the lesson's table: this lesson gives such words zero vectors")
                                  : tr("not in the lesson's table: its vector comes from the hash rule (fnv1a32 mod 5 − 2)");
        return tr("token %1 “%2”: %3").arg(position + 1).arg(text, where);  // counted from 1, as people count
    }
    QString tip = tr("token %1 “%2”: vocabulary piece “%3”").arg(position + 1).arg(text, QString::fromStdString(token.piece));
    if (token.completedAhead > 0)
        tip += QLatin1Char('\n') + tr("Holds the first bytes of a character that token %1 shows.").arg(position + token.completedAhead);
    if (token.invalidText) tip += QLatin1Char('\n') + tr("Not valid text alone: these bytes form no whole character here.");
    return tip;
}

// Chips are reused between keystrokes: a style sheet per new label made typing stutter.
void TokenStrip::setTokens(const std::vector<Token>& tokens) {
    while (chips_.size() > tokens.size()) {
        delete chips_.back();
        chips_.pop_back();
        inTable_.pop_back();
    }
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const bool fresh = i >= chips_.size();
        if (fresh) {
            chips_.push_back(makeChip());
            inTable_.push_back(tokens[i].inTable);
            row_->insertWidget(row_->count() - 1, chips_.back());  // before the stretch
        }
        const bool styleChanged = fresh || inTable_[i] != tokens[i].inTable;
        inTable_[i] = tokens[i].inTable;
        showToken(chips_[i], tokens[i], static_cast<int>(i), styleChanged);
    }
    // Room for one row of chips plus a horizontal scroll bar for long sentences.
    const int chipHeight = chips_.empty() ? fontMetrics().height() + 14 : chips_.front()->sizeHint().height();
    setFixedHeight(chipHeight + 8);
}

QStringList TokenStrip::chipTexts() const {
    QStringList out;
    for (const QLabel* chip : chips_) out << chip->text();
    return out;
}

QStringList TokenStrip::chipToolTips() const {
    QStringList out;
    for (const QLabel* chip : chips_) out << chip->toolTip();
    return out;
}

std::vector<bool> TokenStrip::chipsInTable() const { return inTable_; }

}  // namespace attnscope
