#pragma once
// The row under the sentence box: the layer selector (every source with several layers) and the
// attention options of the multi-head views (sources that offer them).
// It only holds choices; the window reads layer() and options() and hands them to the tabs.
#include <QWidget>

#include "ui/attention/attention_options.hpp"

class QCheckBox;
class QComboBox;

namespace attnscope {

class JobProgress;

class AttentionControls : public QWidget {
    Q_OBJECT
public:
    explicit AttentionControls(QWidget* parent = nullptr);

    // Lists layers 1…count, keeping the chosen one when it still exists (else the first).
    void setLayerCount(int count);
    void resetLayer();  // back to layer 1 (a new lesson or model)
    void setLayer(int layer);  // 0-based → layerChanged
    void showOptions(bool shown);
    int layer() const;  // 0-based, 0 when there is none
    AttentionViewOptions options() const { return options_; }
    // Shaded by the weight or by weight × ‖value‖ (a session restored, a cancelled computation).
    void setWeighting(AttentionViewOptions::Weighting weighting);
    // The progress and Cancel of computing weight × ‖value‖ (the window drives it).
    JobProgress* weightingProgress() const { return weightingProgress_; }  // for the window to place

signals:
    void layerChanged();
    void optionsChanged();

private:
    // Hide special tokens, renormalise rows, how heads are combined and the colour scale: the
    // choices behind options_, in a box shown only for sources that offer them.
    QWidget* buildOptions();

    QComboBox* layer_ = nullptr;
    QWidget* optionsBox_ = nullptr;
    QCheckBox* weighting_ = nullptr;
    JobProgress* weightingProgress_ = nullptr;
    AttentionViewOptions options_;  // as the option controls show it: each one writes its field
};

}  // namespace attnscope
