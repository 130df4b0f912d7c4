#pragma once
// The row under the sentence box: the layer selector (every source with several layers) and the
// attention options of the multi-head views (sources that offer them, as AttentionOptionsGroup).
// It only holds choices; the window reads layer() and options() and hands them to the tabs.
#include <QWidget>

#include "ui/attention/attention_options.hpp"

class QCheckBox;
class QComboBox;

namespace attnscope {

// Hide special tokens, renormalise rows, how heads are combined and the colour scale: the
// choices behind one AttentionViewOptions, read together.
class AttentionOptionsGroup : public QWidget {
    Q_OBJECT
public:
    explicit AttentionOptionsGroup(QWidget* parent = nullptr);
    AttentionViewOptions options() const;

signals:
    void changed();

private:
    // The widgets it owns (member lists of small widgets look alike by shape: nothing to share).
    QCheckBox* hideSpecial_ = nullptr;
    QCheckBox* renormalize_ = nullptr;
    QComboBox* aggregate_ = nullptr;
    QComboBox* scale_ = nullptr;
};

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
    // The widgets it owns (member lists of small widgets look alike by shape: nothing to share).
    QComboBox* layer_ = nullptr;
    AttentionOptionsGroup* options_ = nullptr;
};

}  // namespace attnscope
