#pragma once
// An encoder–decoder lesson's stages (core/lesson/run_encoder_decoder.hpp): the teacher chooses the
// encoder, the decoder's masked self-attention or its cross-attention, and every view shows that
// stage's Trace. Beside the cross stage, teacher forcing's table (decoder input, label, p(label),
// −ln p(label) per position) and the mean loss, as core words and rounds them. Renders only.
#include <QWidget>

#include "core/lesson/run_encoder_decoder.hpp"

class QComboBox;
class QLabel;
class QTableWidget;

namespace attnscope {

class StageBar : public QWidget {
    Q_OBJECT
public:
    explicit StageBar(QWidget* parent = nullptr);

    // The run's stages with `stage` chosen; its labels beside the cross stage, `decimals` digits.
    void showRun(const EncoderDecoderRun& run, EncoderDecoderStage stage, int decimals);
    EncoderDecoderStage stage() const;
    // The teacher's choice made for them (a saved session): stageChosen follows, as from the box.
    void choose(EncoderDecoderStage stage);

    // What is drawn, for tests and screenshots.
    QComboBox* choice() const { return choice_; }
    QTableWidget* teacherForcing() const { return table_; }
    QLabel* meanLoss() const { return mean_; }

signals:
    void stageChosen(attnscope::EncoderDecoderStage stage);

private:
    void showTeacherForcing(const EncoderDecoderRun& run, int decimals);

    QComboBox* choice_ = nullptr;
    QTableWidget* table_ = nullptr;
    QLabel* mean_ = nullptr;
};

}  // namespace attnscope
