#pragma once
// The Coreference tab's second row: which mention is resolved (every pronoun, or the word last
// clicked in the picture), "Every pronoun" to go back, and the cataphora switch.
#include <QString>
#include <QWidget>
#include <optional>

class QCheckBox;
class QLabel;
class QPushButton;

namespace attnscope {

class CorefMentionRow : public QWidget {
    Q_OBJECT
public:
    explicit CorefMentionRow(QWidget* parent = nullptr);

    // The clicked word's text, or nullopt while every pronoun is resolved.
    void showMention(const std::optional<QString>& word);
    bool cataphora() const;
    QCheckBox* cataphoraBox() const { return cataphora_; }

signals:
    void everyPronounRequested();
    void cataphoraToggled();

private:
    // The widgets it owns (member lists of small widgets look alike by shape: nothing to share).
    QLabel* mention_ = nullptr;
    QPushButton* everyPronoun_ = nullptr;
    QCheckBox* cataphora_ = nullptr;
};

}  // namespace attnscope
