#include "ui/coref/coref_mention_row.hpp"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace attnscope {

CorefMentionRow::CorefMentionRow(QWidget* parent) : QWidget(parent) {
    mention_ = new QLabel(this);
    mention_->setObjectName("corefMention");
    everyPronoun_ = new QPushButton(tr("Every pronoun"), this);
    everyPronoun_->setToolTip(tr("Resolve every pronoun of the sentence again, instead of the clicked word"));
    auto* cataphora = new QCheckBox(tr("Cataphora"), this);
    cataphora->setToolTip(tr("Admit the words after the mention as candidates too"));
    cataphora->setObjectName("corefCataphora");
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(mention_);
    row->addWidget(everyPronoun_);
    row->addSpacing(12);
    row->addWidget(cataphora);
    row->addStretch(1);
    connect(everyPronoun_, &QPushButton::clicked, this, &CorefMentionRow::everyPronounRequested);
    connect(cataphora, &QCheckBox::toggled, this, [this](bool on) {
        cataphora_ = on;
        emit cataphoraToggled();
    });
}

void CorefMentionRow::showEveryPronoun() {
    everyPronoun_->setEnabled(false);
    mention_->setText(tr("Mention: every pronoun"));
    mention_->setToolTip(tr("Click a word in the picture to resolve it as the mention"));
}

void CorefMentionRow::showMention(const QString& word) {
    everyPronoun_->setEnabled(true);
    mention_->setText(tr("Mention: “%1”").arg(word));
}

}  // namespace attnscope
