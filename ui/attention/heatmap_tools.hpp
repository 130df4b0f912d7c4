#pragma once
// The heatmap's second row of controls: the token range shown (rows and columns), the find-token
// box with its previous / next buttons and match count, the colour scale and "Reset zoom".
// It only holds choices and says what was asked; the HeatmapView acts on them.
#include <QWidget>
#include <array>

#include "ui/attention/heatmap_builder.hpp"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QToolButton;

namespace attnscope {

class HeatmapTools : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapTools(QWidget* parent = nullptr);

    void setTokenCount(int count);               // the range boxes' limits (1…count)
    void showRange(int first, int last);         // 0-based tokens in view, without signals
    void showMatches(int count, int current);    // "3 matches", current 0-based or −1
    QString findText() const;
    HeatmapColours colours() const;

signals:
    void rangeChosen(int first, int last);  // 0-based, both ends included
    void findChanged();
    void findStep(int delta);  // −1 previous, +1 next match
    void coloursChanged();
    void resetRequested();

private:
    QWidget* rangeBox();
    QWidget* findBox();

    // The find-token box, its arrows and what it found.
    struct FindControls {
        QLineEdit* text = nullptr;
        QToolButton* previous = nullptr;
        QToolButton* next = nullptr;
        QLabel* matches = nullptr;
    };
    std::array<QSpinBox*, 2> range_{};  // the first and last token shown, 1-based as the user reads them
    FindControls find_;
    QComboBox* colours_ = nullptr;
};

}  // namespace attnscope
