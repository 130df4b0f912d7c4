#include "ui/attention/attention_controls.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <algorithm>

namespace attnscope {

AttentionOptionsGroup::AttentionOptionsGroup(QWidget* parent) : QWidget(parent) {
    setObjectName("attentionOptions");
    hideSpecial_ = new QCheckBox(tr("Hide special tokens"), this);
    hideSpecial_->setObjectName("hideSpecial");
    aggregate_ = new QComboBox(this);
    aggregate_->setObjectName("aggregate");
    aggregate_->addItems({tr("Each head"), tr("Average over heads"), tr("Maximum over heads")});
    scale_ = new QComboBox(this);
    scale_->setObjectName("colourScale");
    scale_->addItems({tr("Fixed 0–1"), tr("Shared maximum"), tr("Per-head maximum")});
    renormalize_ = new QCheckBox(tr("Renormalise rows"), this);
    renormalize_->setObjectName("renormalize");
    renormalize_->setToolTip(tr("With special tokens hidden: divide each row by what is left, so it sums to 1."));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addSpacing(16);
    row->addWidget(hideSpecial_);
    row->addWidget(renormalize_);
    row->addSpacing(16);
    row->addWidget(new QLabel(tr("Heads:"), this));
    row->addWidget(aggregate_);
    row->addWidget(new QLabel(tr("Colour scale:"), this));
    row->addWidget(scale_);
    connect(hideSpecial_, &QCheckBox::toggled, this, &AttentionOptionsGroup::changed);
    connect(renormalize_, &QCheckBox::toggled, this, &AttentionOptionsGroup::changed);
    connect(aggregate_, &QComboBox::currentIndexChanged, this, &AttentionOptionsGroup::changed);
    connect(scale_, &QComboBox::currentIndexChanged, this, &AttentionOptionsGroup::changed);
}

AttentionViewOptions AttentionOptionsGroup::options() const {
    AttentionViewOptions options;
    options.hideSpecial = hideSpecial_->isChecked();
    options.renormalize = renormalize_->isChecked();
    options.aggregate = static_cast<AttentionViewOptions::Aggregate>(aggregate_->currentIndex());
    options.scale = static_cast<AttentionViewOptions::Scale>(scale_->currentIndex());
    return options;
}

AttentionControls::AttentionControls(QWidget* parent) : QWidget(parent) {
    setObjectName("modelControls");
    layer_ = new QComboBox(this);
    layer_->setObjectName("layer");
    options_ = new AttentionOptionsGroup(this);
    // Caption, control, … in a margin-less row, as the Heads panel's set row and the lab's ControlRow.
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Layer:"), this));
    row->addWidget(layer_);
    row->addWidget(options_);
    row->addStretch(1);
    connect(layer_, &QComboBox::currentIndexChanged, this, &AttentionControls::layerChanged);
    connect(options_, &AttentionOptionsGroup::changed, this, &AttentionControls::optionsChanged);
}

void AttentionControls::setLayerCount(int count) {
    if (layer_->count() == count) return;
    const QSignalBlocker blocker(layer_);
    const int kept = std::clamp(layer_->currentIndex(), 0, std::max(0, count - 1));
    layer_->clear();
    for (int layer = 1; layer <= count; ++layer) layer_->addItem(QString::number(layer));
    layer_->setCurrentIndex(kept);
}

void AttentionControls::resetLayer() {
    const QSignalBlocker blocker(layer_);
    layer_->clear();
}

void AttentionControls::setLayer(int layer) { layer_->setCurrentIndex(layer); }

void AttentionControls::showOptions(bool shown) { options_->setVisible(shown); }

int AttentionControls::layer() const { return std::max(0, layer_->currentIndex()); }

AttentionViewOptions AttentionControls::options() const { return options_->options(); }

}  // namespace attnscope
