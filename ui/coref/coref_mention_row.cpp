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
    cataphora_ = new QCheckBox(tr("Cataphora"), this);
    cataphora_->setToolTip(tr("Admit the words after the mention as candidates too"));
    cataphora_->setObjectName("corefCataphora");
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(mention_);
    row->addWidget(everyPronoun_);
    row->addSpacing(12);
    row->addWidget(cataphora_);
    row->addStretch(1);
    connect(everyPronoun_, &QPushButton::clicked, this, &CorefMentionRow::everyPronounRequested);
    connect(cataphora_, &QCheckBox::toggled, this, &CorefMentionRow::cataphoraToggled);
}

void CorefMentionRow::showMention(const std::optional<QString>& word) {
    everyPronoun_->setEnabled(word.has_value());
    if (!word) {
        mention_->setText(tr("Mention: every pronoun"));
        mention_->setToolTip(tr("Click a word in the picture to resolve it as the mention"));
        return;
    }
    mention_->setText(tr("Mention: “%1”").arg(*word));
}

bool CorefMentionRow::cataphora() const { return cataphora_->isChecked(); }

}  // namespace attnscope
