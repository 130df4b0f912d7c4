#include "ui/attention/attention_controls.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <algorithm>

#include "ui/common/job_progress.hpp"

namespace attnscope {

namespace {

// A list that may narrow by a third (its longest entry shortened with "…") before the row widens
// the window past a 1280-pixel screen: at 12 points in English the row wanted 1,292.
QComboBox* optionList(QWidget* box, const char* name, const QStringList& entries) {
    auto* list = new QComboBox(box);
    list->setObjectName(name);
    list->addItems(entries);
    list->setMinimumWidth(list->sizeHint().width() * 2 / 3);
    return list;
}

}  // namespace

AttentionControls::AttentionControls(QWidget* parent) : QWidget(parent) {
    setObjectName("modelControls");
    layer_ = new QComboBox(this);
    layer_->setObjectName("layer");
    optionsBox_ = buildOptions();
    // Caption, control, … in a margin-less row, as the Heads panel's set row and the lab's ControlRow.
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Layer:"), this));
    row->addWidget(layer_);
    row->addWidget(optionsBox_);
    row->addStretch(1);
    connect(layer_, &QComboBox::currentIndexChanged, this, &AttentionControls::layerChanged);
}

QWidget* AttentionControls::buildOptions() {
    auto* box = new QWidget(this);
    box->setObjectName("attentionOptions");
    auto* hideSpecial = new QCheckBox(tr("Hide special tokens"), box);
    hideSpecial->setObjectName("hideSpecial");
    QComboBox* aggregate = optionList(box, "aggregate", {tr("Each head"), tr("Average over heads"), tr("Maximum over heads")});
    QComboBox* scale = optionList(box, "colourScale", {tr("Fixed 0–1"), tr("Shared maximum"), tr("Per-head maximum")});
    // A check box, not a labelled list: the row must still fit a 1280-pixel projector.
    weighting_ = new QCheckBox(tr("Weight × ‖value‖"), box);
    weighting_->setObjectName("weighting");
    weighting_->setToolTip(tr("Weight × ‖value‖ (Kobayashi et al. 2020): how much of each token's value vector, "
                              "through the head's part of W_O, reaches the query, as a share of the row. "
                              "Attention parked on [CLS], [SEP] or the first token often carries little."));
    // Not in the row: the window places it (the status bar, beside the run's). In the row it widened
    // the window past the screen while it ran (1,487 pixels at 1280×720), and the window kept that.
    weightingProgress_ = new JobProgress(tr("‖value‖: layer %v of %m"), "weightingProgress", "cancelWeighting", box);
    weightingProgress_->setRunning(false);
    auto* renormalize = new QCheckBox(tr("Renormalise rows"), box);
    renormalize->setObjectName("renormalize");
    renormalize->setToolTip(tr("With special tokens hidden: divide each row by what is left, so it sums to 1."));
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    row->addSpacing(16);
    row->addWidget(hideSpecial);
    row->addWidget(renormalize);
    row->addSpacing(8);
    row->addWidget(new QLabel(tr("Heads:"), box));
    row->addWidget(aggregate);
    row->addWidget(new QLabel(tr("Colour scale:"), box));
    row->addWidget(scale);
    row->addWidget(weighting_);
    // The controls start at options_'s defaults (unchecked, first entries); each change updates it.
    connect(hideSpecial, &QCheckBox::toggled, this, [this](bool on) {
        options_.hideSpecial = on;
        emit optionsChanged();
    });
    connect(renormalize, &QCheckBox::toggled, this, [this](bool on) {
        options_.renormalize = on;
        emit optionsChanged();
    });
    connect(aggregate, &QComboBox::currentIndexChanged, this, [this](int index) {
        options_.aggregate = static_cast<AttentionViewOptions::Aggregate>(index);
        emit optionsChanged();
    });
    connect(scale, &QComboBox::currentIndexChanged, this, [this](int index) {
        options_.scale = static_cast<AttentionViewOptions::Scale>(index);
        emit optionsChanged();
    });
    connect(weighting_, &QCheckBox::toggled, this, [this](bool on) {
        options_.weighting = on ? AttentionViewOptions::Norms : AttentionViewOptions::Weights;
        emit optionsChanged();
    });
    return box;
}

void AttentionControls::setWeighting(AttentionViewOptions::Weighting weighting) {
    weighting_->setChecked(weighting == AttentionViewOptions::Norms);  // → optionsChanged when it changes
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

void AttentionControls::showOptions(bool shown) { optionsBox_->setVisible(shown); }

int AttentionControls::layer() const { return std::max(0, layer_->currentIndex()); }

}  // namespace attnscope
