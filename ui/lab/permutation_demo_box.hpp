#pragma once
// The permutation demo of Lab ▸ Positional encoding: the lesson's sentence run in its own order
// and shuffled (layer 1, head 1), the order, and whether A′(i, j) = A(order[i], order[j]) holds
// (core/lab/positional_lab's permutationDemo). It needs a lesson: hidden until setLesson.
#include <QWidget>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "core/lesson/lesson.hpp"

class QCheckBox;
class QLabel;
class QSpinBox;

namespace attnscope {

class MatrixPlotBuilder;

class PermutationDemoBox : public QWidget {
    Q_OBJECT
public:
    explicit PermutationDemoBox(QWidget* parent = nullptr);
    ~PermutationDemoBox() override;
    void setLesson(const Lesson& lesson, const std::string& sentence);  // shows it and runs

    QSpinBox* seedBox() const { return seed_; }
    QCheckBox* keepPositionalBox() const { return keep_; }
    const MatrixPlotBuilder& originalPlot() const { return *original_; }
    const MatrixPlotBuilder& shuffledPlot() const { return *shuffled_; }
    QString orderText() const;
    QString checkText() const;

private:
    QWidget* buildControls();
    void refresh();

    std::optional<std::pair<Lesson, std::string>> input_;  // the lesson and its sentence
    QSpinBox* seed_ = nullptr;
    QCheckBox* keep_ = nullptr;
    QLabel* order_ = nullptr;
    QLabel* check_ = nullptr;
    std::unique_ptr<MatrixPlotBuilder> original_;
    std::unique_ptr<MatrixPlotBuilder> shuffled_;
};

}  // namespace attnscope
