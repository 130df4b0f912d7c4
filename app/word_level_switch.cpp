#include "app/word_level_switch.hpp"

#include <QAction>
#include <QMenu>

#include "app/source/latest_request_worker.hpp"
#include "app/user_settings.hpp"
#include "core/analysis/word_attention.hpp"

namespace attnscope {

namespace {

const QString kWordsKey = QStringLiteral("view/words");
bool remembersWords = false;

}  // namespace

void WordLevelSwitch::rememberChoice(bool on) { remembersWords = on; }

WordLevelSwitch::WordLevelSwitch(QObject* parent)
    : QObject(parent), worker_(new LatestRequestWorker("attnscope-words", this)) {
    setObjectName(QStringLiteral("wordLevelSwitch"));
    if (remembersWords) on_ = UserSettings().value(kWordsKey, false).toBool();
}

void WordLevelSwitch::addToViewMenu(QMenu* view) {
    action_ = view->addAction(tr("Attention between &words"), this, &WordLevelSwitch::setOn);
    action_->setObjectName(QStringLiteral("wordLevel"));
    action_->setCheckable(true);
    action_->setChecked(on_);
    action_->setToolTip(tr("Heatmap, model view, head view and Coreference between words instead of tokens: "
                           "attention to a word is the sum over its tokens, from a word the mean"));
}

void WordLevelSwitch::setOn(bool on) {
    if (remembersWords) UserSettings().setValue(kWordsKey, on);
    if (action_ && action_->isChecked() != on) action_->setChecked(on);
    if (on == on_) return;
    on_ = on;
    convert();
    emit changed();
}

void WordLevelSwitch::setTrace(std::shared_ptr<const Trace> pieces) {
    if (pieces == pieces_) return;
    pieces_ = std::move(pieces);
    words_.reset();
    worker_->drop();  // an older sentence's words must not arrive for this one
    convert();
}

// Only while on, and only a trace whose words join pieces (a lesson's tokens are words already).
void WordLevelSwitch::convert() {
    if (!on_ || !pieces_ || words_ || !hasMultiPieceWords(*pieces_)) return;
    if (pieces_->tokenCount() <= inlineTokenLimit_) {
        words_ = std::make_shared<const Trace>(wordLevelTrace(*pieces_));
        return;
    }
    worker_->submit([this, pieces = pieces_](const LatestRequestWorker::Request&) {
        auto words = std::make_shared<const Trace>(wordLevelTrace(*pieces));
        return [this, pieces, words] {
            if (pieces != pieces_) return;
            words_ = words;
            emit changed();
        };
    });
}

std::shared_ptr<const Trace> WordLevelSwitch::shown(const std::shared_ptr<const Trace>& pieces) const {
    return on_ && words_ && pieces == pieces_ ? words_ : pieces;
}

std::vector<int> WordLevelSwitch::groupsShown(const Trace& pieces) const {
    return on_ ? pieces.wordGroups : std::vector<int>{};
}

bool WordLevelSwitch::busy() const { return worker_->busy(); }

}  // namespace attnscope
