#include "ui/editor/lesson_block_bar.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>

namespace attnscope {

namespace {

QComboBox* normBox(QWidget* parent) {
    auto* box = new QComboBox(parent);
    box->addItem(LessonBlockBar::tr("none"), static_cast<int>(BlockNorm::None));
    box->addItem(QStringLiteral("LayerNorm"), static_cast<int>(BlockNorm::LayerNorm));
    box->addItem(QStringLiteral("RMSNorm"), static_cast<int>(BlockNorm::RmsNorm));
    return box;
}

QComboBox* ffnBox(QWidget* parent) {
    auto* box = new QComboBox(parent);
    box->addItem(LessonBlockBar::tr("none"), static_cast<int>(BlockFfn::None));
    box->addItem(QStringLiteral("ReLU"), static_cast<int>(BlockFfn::Relu));
    box->addItem(QStringLiteral("GELU"), static_cast<int>(BlockFfn::Gelu));
    box->addItem(QStringLiteral("SwiGLU"), static_cast<int>(BlockFfn::SwiGlu));
    return box;
}

QComboBox* headBox(QWidget* parent) {
    auto* box = new QComboBox(parent);
    box->addItem(LessonBlockBar::tr("none"), static_cast<int>(OutputHeadChoice::None));
    box->addItem(LessonBlockBar::tr("tied to the embeddings"), static_cast<int>(OutputHeadChoice::Tied));
    box->addItem(LessonBlockBar::tr("own weights W_vocab"), static_cast<int>(OutputHeadChoice::Own));
    return box;
}

void select(QComboBox* box, int value) { box->setCurrentIndex(std::max(0, box->findData(value))); }

}  // namespace

LessonBlockBar::LessonBlockBar(QWidget* parent) : QWidget(parent) {
    residual_ = new QCheckBox(tr("Residual"), this);
    residual_->setToolTip(tr("Add X to the attention output, and the norm's output to the feed-forward output"));
    norm_ = normBox(this);
    ffn_ = ffnBox(this);
    finalNorm_ = normBox(this);
    head_ = headBox(this);
    dFf_ = new QSpinBox(this);
    dFf_->setRange(1, 4096);
    dFf_->setToolTip(tr("Width of a new feed-forward network's hidden layer"));
    auto* apply = new QPushButton(tr("Apply block"), this);
    apply->setToolTip(tr("The parts after attention; a part switched on starts with γ = 1, β = 0 and zero weights"));

    auto* first = new QHBoxLayout;
    first->addWidget(new QLabel(tr("After attention:"), this));
    first->addWidget(residual_);
    for (const auto& [label, widget] : {std::pair<QString, QWidget*>{tr("Norm"), norm_}, {tr("Feed-forward"), ffn_},
                                        {QStringLiteral("d_ff"), dFf_}})
        first->addWidget(new QLabel(label, this)), first->addWidget(widget);
    first->addStretch(1);
    auto* second = new QHBoxLayout;
    for (const auto& [label, widget] : {std::pair<QString, QWidget*>{tr("Final norm"), finalNorm_}, {tr("Output head"), head_}})
        second->addWidget(new QLabel(label, this)), second->addWidget(widget);
    second->addStretch(1);
    second->addWidget(apply);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(first);
    layout->addLayout(second);
    connect(apply, &QPushButton::clicked, this, [this] { emit blockRequested(choice()); });
}

void LessonBlockBar::showChoice(const LessonBlockChoice& choice) {
    residual_->setChecked(choice.residual);
    select(norm_, static_cast<int>(choice.norm));
    select(ffn_, static_cast<int>(choice.ffn));
    select(finalNorm_, static_cast<int>(choice.finalNorm));
    select(head_, static_cast<int>(choice.head));
    dFf_->setValue(choice.dFf);
}

LessonBlockChoice LessonBlockBar::choice() const {
    LessonBlockChoice c;
    c.residual = residual_->isChecked();
    c.norm = static_cast<BlockNorm>(norm_->currentData().toInt());
    c.ffn = static_cast<BlockFfn>(ffn_->currentData().toInt());
    c.dFf = dFf_->value();
    c.finalNorm = static_cast<BlockNorm>(finalNorm_->currentData().toInt());
    c.head = static_cast<OutputHeadChoice>(head_->currentData().toInt());
    return c;
}

}  // namespace attnscope
