#pragma once
// The Coreference tab's second row: which mention is resolved (every pronoun, or the word last
// clicked in the picture), "Every pronoun" to go back, and the cataphora switch.
#include <QString>
#include <QWidget>

class QLabel;
class QPushButton;

namespace attnscope {

class CorefMentionRow : public QWidget {
    Q_OBJECT
public:
    explicit CorefMentionRow(QWidget* parent = nullptr);

    void showEveryPronoun();                 // no word clicked: every pronoun is resolved
    void showMention(const QString& word);  // the clicked word's text
    bool cataphora() const { return cataphora_; }

signals:
    void everyPronounRequested();
    void cataphoraToggled();

private:
    QLabel* mention_ = nullptr;
    QPushButton* everyPronoun_ = nullptr;  // enabled while a clicked word is resolved
    bool cataphora_ = false;               // as the check box "corefCataphora" shows it
};

}  // namespace attnscope
