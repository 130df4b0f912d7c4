#include "ui/attention/token_focus_bar.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QToolButton>
#include <algorithm>

namespace attnscope {

TokenFocusBar::TokenFocusBar(QWidget* parent) : QWidget(parent) {
    position_ = new QSpinBox(this);
    position_->setObjectName("focusTokenBox");
    position_->setRange(0, 0);
    position_->setSpecialValueText(tr("none"));
    position_->setToolTip(tr("Show only this token's lines (its position, from 1)"));
    find_ = new QLineEdit(this);
    find_->setObjectName("focusFind");
    find_->setPlaceholderText(tr("Find a token…"));
    find_->setClearButtonEnabled(true);
    find_->setToolTip(tr("Enter: focus the next token containing this text"));
    matches_ = new QLabel(this);
    auto* clear = new QToolButton(this);
    clear->setObjectName("focusClear");
    clear->setText(tr("Clear focus"));
    clear->setToolTip(tr("Show every token's lines again (Esc)"));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Focus token:"), this));
    row->addWidget(position_);
    row->addWidget(find_, 1);
    row->addWidget(matches_);
    row->addWidget(clear);
    connect(position_, &QSpinBox::valueChanged, this, [this](int p) {
        emit focusChosen(p >= 1 && p <= labels_.size() ? p - 1 : -1);
    });
    connect(find_, &QLineEdit::returnPressed, this, &TokenFocusBar::findNext);
    connect(find_, &QLineEdit::textChanged, this, [this] { matches_->clear(); });
    connect(clear, &QToolButton::clicked, this, [this] { emit focusChosen(-1); });
}

void TokenFocusBar::setTokens(QStringList labels, std::vector<int> shown) {
    labels_ = std::move(labels);
    shown_ = std::move(shown);
    const QSignalBlocker blocker(position_);
    position_->setRange(0, static_cast<int>(labels_.size()));
}

void TokenFocusBar::showFocus(int token) {
    focus_ = token;
    const QSignalBlocker blocker(position_);
    position_->setValue(token + 1);
}

std::vector<int> TokenFocusBar::matches(const QString& text) const {
    std::vector<int> out;
    if (text.isEmpty()) return out;
    for (const int t : shown_)
        if (labels_.value(t).contains(text, Qt::CaseInsensitive)) out.push_back(t);
    return out;
}

// The first match after the focus token (in display order), wrapping round.
void TokenFocusBar::findNext() {
    const std::vector<int> found = matches(find_->text());
    matches_->setText(tr("Matches: %1").arg(found.size()));
    if (found.empty()) return;
    const auto at = std::find(shown_.begin(), shown_.end(), focus_);
    const auto after = at == shown_.end() ? shown_.begin() : at + 1;
    auto next = std::find_if(after, shown_.end(), [&](int t) { return std::binary_search(found.begin(), found.end(), t); });
    if (next == shown_.end()) next = std::find(shown_.begin(), shown_.end(), found.front());
    emit focusChosen(*next);
}

}  // namespace attnscope
