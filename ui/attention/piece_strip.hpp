#pragma once
// The token strip for real models: one chip per vocabulary piece, pieces of the same word
// (Token.word) drawn touching under one bracket, special tokens ([CLS], [SEP], …) in grey with
// a dashed border. Painted by one widget (no widget per token) so 512 pieces cost one paint.
#include <QRect>
#include <QColor>
#include <QWidget>
#include <vector>

#include "core/trace/trace.hpp"

class QScrollArea;

namespace attnscope {

class PieceCanvas;

// A sibling of TokenStrip (ui/step/) with the same entry points, painted as one canvas so that
// a word's pieces can be joined: the two strips draw different things, so they stay two.
class PieceStrip : public QWidget {
    Q_OBJECT
public:
    explicit PieceStrip(QWidget* parent = nullptr);
    // wordGroups (Trace::wordGroups, one per token): the brackets join the pieces of each of
    // these words instead of the tokenizer's (Token.word): View ▸ Attention between words.
    void setTokens(const std::vector<Token>& tokens, const std::vector<int>& wordGroups = {});

    // What is drawn, for tests: texts, the word group of each chip (consecutive pieces of one
    // word share a group; every other chip is its own), special flags, chip rectangles.
    QStringList chipTexts() const;
    const std::vector<int>& groups() const { return groups_; }
    std::vector<bool> specialFlags() const;
    const std::vector<QRect>& chipRects() const { return rects_; }
    // The colours a chip is drawn in, in the current theme (ui/common/theme_colors).
    struct ChipLook {
        QColor fill, border, text;
    };
    static ChipLook chipLook(bool special);

private:
    friend class PieceCanvas;
    void layoutChips();
    void paintChips(QPainter& painter, const QRect& exposed) const;

    std::vector<Token> tokens_;
    std::vector<int> groups_;
    std::vector<QRect> rects_;
    QScrollArea* scroll_ = nullptr;
    PieceCanvas* canvas_ = nullptr;
};

}  // namespace attnscope
