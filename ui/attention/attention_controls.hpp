#pragma once
// The row under the sentence box: the layer selector (every source with several layers) and the
// attention options of the multi-head views (sources that offer them). It only holds choices;
// the window reads layer() and options() and hands them to the tabs.
#include <QWidget>

#include "ui/attention/attention_options.hpp"

class QCheckBox;
class QComboBox;

namespace attnscope {

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
    AttentionViewOptions options() const;

signals:
    void layerChanged();
    void optionsChanged();

private:
    // The child widgets it reads or updates after building them (such lists look alike in every
    // panel by shape; each holds its own widgets: nothing to share).
    QComboBox* layer_ = nullptr;
    QWidget* options_ = nullptr;
    QCheckBox* hideSpecial_ = nullptr;
    QComboBox* aggregate_ = nullptr;
    QComboBox* scale_ = nullptr;
    QCheckBox* renormalize_ = nullptr;
};

}  // namespace attnscope
