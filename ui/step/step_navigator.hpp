#pragma once
// The list of steps a run walks through, Previous/Next buttons and the head selector.
// It only shows and reports the position; the window decides what each step displays.
#include <QWidget>
#include <vector>

#include "core/trace/trace.hpp"

class QComboBox;
class QListWidget;
class QPushButton;

namespace attnscope {

class StepNavigator : public QWidget {
    Q_OBJECT
public:
    explicit StepNavigator(QWidget* parent = nullptr);

    // Keeps the current step when it is still in `steps`, else starts at the first. `titles`
    // (one per step) replace stepTitle, e.g. for the input of a later layer.
    void setSteps(const std::vector<Step>& steps, const std::vector<std::string>& titles = {});
    void setHeadCount(int heads);
    void setHeadEnabled(bool enabled);

    int currentIndex() const;
    Step currentStep() const;
    int currentHead() const;
    const std::vector<Step>& steps() const { return steps_; }

    void setCurrentIndex(int index);
    void setCurrentHead(int head);
    void next();
    void previous();

    QListWidget* list() const { return list_; }
    QPushButton* nextButton() const { return next_; }
    QPushButton* previousButton() const { return previous_; }
    QComboBox* headBox() const { return head_; }

signals:
    void stepChanged(int index);
    void headChanged(int head);

private:
    void updateButtons();

    std::vector<Step> steps_;
    QListWidget* list_ = nullptr;
    QPushButton* previous_ = nullptr;
    QPushButton* next_ = nullptr;
    QComboBox* head_ = nullptr;
};

}  // namespace attnscope
