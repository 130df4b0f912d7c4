#pragma once
// One chip per token. Tokens whose vector came from the hash rule (not in the lesson's table)
// are dashed and say so in their tooltip, so nobody mistakes them for chosen numbers.
#include <QWidget>
#include <vector>

#include "core/trace/trace.hpp"

class QHBoxLayout;
class QLabel;

namespace attnscope {

// One chip widget per token; PieceStrip (ui/attention/) is its word-piece sibling.
class TokenStrip : public QWidget {
    Q_OBJECT
public:
    explicit TokenStrip(QWidget* parent = nullptr);
    void setTokens(const std::vector<Token>& tokens);

    // What is drawn, for tests.
    QStringList chipTexts() const;
    QStringList chipToolTips() const;
    std::vector<bool> chipsInTable() const;

private:
    QLabel* makeChip();
    void showToken(QLabel* chip, const Token& token, int position, bool styleChanged);
    static QString toolTip(const Token& token, const QString& text, int position);

    QHBoxLayout* row_ = nullptr;
    std::vector<QLabel*> chips_;
    std::vector<bool> inTable_;
};

}  // namespace attnscope
