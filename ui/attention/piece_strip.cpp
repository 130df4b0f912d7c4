#include "ui/attention/piece_strip.hpp"
#include "ui/common/theme_colors.hpp"

#include <QHBoxLayout>
#include <QPainter>
#include <QPaintEvent>
#include <QScrollArea>
#include <QScrollBar>

namespace attnscope {

namespace {

constexpr int kPadding = 8;    // inside a chip, left and right
constexpr int kWordGap = 10;   // between words
constexpr int kBracket = 6;    // room under the chips for the word bracket

}  // namespace

class PieceCanvas : public QWidget {
public:
    explicit PieceCanvas(PieceStrip* strip) : QWidget(strip), strip_(strip) {}

protected:
    void paintEvent(QPaintEvent* event) override {
        QPainter painter(this);
        painter.setRenderHint(QPainter::Antialiasing);
        strip_->paintChips(painter, event->rect());
    }

private:
    PieceStrip* strip_;
};

PieceStrip::PieceStrip(QWidget* parent) : QWidget(parent) {
    canvas_ = new PieceCanvas(this);
    scroll_ = new QScrollArea(this);
    scroll_->setFrameShape(QFrame::NoFrame);
    scroll_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll_->setWidget(canvas_);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll_);
    setTokens({});
}

void PieceStrip::setTokens(const std::vector<Token>& tokens, const std::vector<int>& wordGroups) {
    tokens_ = tokens;
    groups_.clear();
    const bool byGroups = wordGroups.size() == tokens_.size();
    const auto wordOf = [&](std::size_t i) { return byGroups ? wordGroups[i] : tokens_[i].word; };
    int group = -1;
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
        const Token& t = tokens_[i];
        const bool sameWord = i > 0 && !t.special && !tokens_[i - 1].special && wordOf(i) >= 0 &&
                              wordOf(i) == wordOf(i - 1);
        groups_.push_back(sameWord ? group : ++group);
    }
    layoutChips();
}

void PieceStrip::layoutChips() {
    const QFontMetrics metrics(font());
    const int chipHeight = metrics.height() + 8;
    rects_.clear();
    int x = 2;
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
        if (i > 0) x += groups_[i] == groups_[i - 1] ? 0 : kWordGap;
        const int width = metrics.horizontalAdvance(QString::fromStdString(tokens_[i].text)) + 2 * kPadding;
        rects_.emplace_back(x, 2, width, chipHeight);
        x += width;
    }
    canvas_->resize(std::max(x + 2, 10), chipHeight + kBracket + 4);
    const int scrollBar = scroll_->horizontalScrollBar() ? scroll_->horizontalScrollBar()->sizeHint().height() : 12;
    setFixedHeight(canvas_->height() + scrollBar);
    canvas_->update();
}

PieceStrip::ChipLook PieceStrip::chipLook(bool special) {
    using theme::Role;
    if (special) return {theme::color(Role::SpecialFill), theme::color(Role::MutedText), theme::color(Role::MutedText)};
    return {theme::color(Role::ChipFill), theme::color(Role::ChipBorder), theme::ink()};
}

void PieceStrip::paintChips(QPainter& painter, const QRect& exposed) const {
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
        const QRect& r = rects_[i];
        if (!r.adjusted(0, 0, 0, kBracket).intersects(exposed)) continue;  // 512 chips: paint the visible ones
        const bool special = tokens_[i].special;
        const ChipLook look = chipLook(special);
        painter.setPen(QPen(look.border, 1.5, special ? Qt::DashLine : Qt::SolidLine));
        painter.setBrush(look.fill);
        painter.drawRoundedRect(QRectF(r).adjusted(0.75, 0.75, -0.75, -0.75), 5, 5);
        painter.setPen(look.text);
        painter.drawText(r, Qt::AlignCenter, QString::fromStdString(tokens_[i].text));
        const bool continues = i + 1 < tokens_.size() && groups_[i + 1] == groups_[i];
        const bool continued = i > 0 && groups_[i - 1] == groups_[i];
        if (continues || continued) {  // the word bracket under a multi-piece word
            painter.setPen(QPen(theme::color(theme::Role::ChipBorder), 2));
            const int y = r.bottom() + kBracket / 2 + 1;
            painter.drawLine(r.left() + (continued ? 0 : 3), y, r.right() - (continues ? -1 : 3), y);
        }
    }
}

QStringList PieceStrip::chipTexts() const {
    QStringList out;
    for (const Token& t : tokens_) out << QString::fromStdString(t.text);
    return out;
}

std::vector<bool> PieceStrip::specialFlags() const {
    std::vector<bool> out;
    for (const Token& t : tokens_) out.push_back(t.special);
    return out;
}

}  // namespace attnscope
