#include "ui/editor/lesson_structure_bar.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace attnscope {

namespace {

QSpinBox* dimensionBox(const char* name, int maximum, QWidget* parent) {
    auto* box = new QSpinBox(parent);
    box->setObjectName(name);
    box->setRange(1, maximum);  // the ranges of a lesson file
    return box;
}

QPushButton* button(const QString& text, const char* name, QWidget* parent) {
    auto* b = new QPushButton(text, parent);
    b->setObjectName(name);
    return b;
}

}  // namespace

LessonStructureBar::LessonStructureBar(QWidget* parent) : QWidget(parent) {
    word_ = new QLineEdit(this);
    word_->setObjectName("wordEdit");
    word_->setPlaceholderText(tr("a word, e.g. dogs"));
    auto* add = button(tr("Add word"), "addWord", this);
    auto* rename = button(tr("Rename selected"), "renameWord", this);
    auto* remove = button(tr("Delete selected"), "deleteWord", this);
    add->setToolTip(tr("Adds the word with an embedding row of zeros"));
    dModel_ = dimensionBox("dModelBox", 4096, this);
    heads_ = dimensionBox("headsBox", 64, this);
    kvHeads_ = dimensionBox("kvHeadsBox", 64, this);
    kvHeads_->setToolTip(tr("Key/value heads: query heads share them in groups (grouped-query attention); "
                            "1 is multi-query attention, equal to heads every head has its own. Must divide heads."));
    dK_ = dimensionBox("dKBox", 4096, this);
    dV_ = dimensionBox("dVBox", 4096, this);
    auto* apply = button(tr("Apply dimensions"), "applyDimensions", this);
    apply->setToolTip(tr("Every matrix keeps the numbers that fit; new cells are zero"));

    auto* words = new QHBoxLayout;
    words->addWidget(new QLabel(tr("Word:"), this));
    words->addWidget(word_, 1);
    for (QWidget* w : {add, rename, remove}) words->addWidget(w);
    auto* dimensions = new QHBoxLayout;
    for (const auto& [label, box] : {std::pair{QStringLiteral("d_model"), dModel_}, std::pair{tr("heads"), heads_},
                                     std::pair{tr("key/value heads"), kvHeads_},
                                     std::pair{QStringLiteral("d_k"), dK_}, std::pair{QStringLiteral("d_v"), dV_}}) {
        dimensions->addWidget(new QLabel(label, this));
        dimensions->addWidget(box);
    }
    dimensions->addStretch(1);
    dimensions->addWidget(apply);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(words);
    layout->addLayout(dimensions);

    connect(add, &QPushButton::clicked, this, [this] { emit addWord(typedWord()); });
    connect(word_, &QLineEdit::returnPressed, this, [this] { emit addWord(typedWord()); });
    connect(rename, &QPushButton::clicked, this, [this] { emit renameSelected(typedWord()); });
    connect(remove, &QPushButton::clicked, this, &LessonStructureBar::deleteSelected);
    connect(dModel_, &QSpinBox::valueChanged, this, [this](int d) {
        if (projections_) return;
        dK_->setValue(d);
        dV_->setValue(d);
    });
    connect(heads_, &QSpinBox::valueChanged, this, [this](int heads) {
        if (kvHeads_->value() == shownHeads_) kvHeads_->setValue(heads);  // still one per head
        shownHeads_ = heads;
    });
    connect(apply, &QPushButton::clicked, this, [this] {
        emit dimensionsRequested({dModel_->value(), heads_->value(), dK_->value(), dV_->value(), kvHeads_->value()});
    });
}

void LessonStructureBar::showDimensions(const LessonDimensions& dims, bool projections) {
    projections_ = projections;
    dK_->setEnabled(projections);
    dV_->setEnabled(projections);
    dModel_->setValue(dims.dModel);
    heads_->setValue(dims.numHeads);
    kvHeads_->setValue(dims.numKvHeads > 0 ? dims.numKvHeads : dims.numHeads);
    shownHeads_ = dims.numHeads;
    dK_->setValue(dims.dK);
    dV_->setValue(dims.dV);
}

QString LessonStructureBar::typedWord() const { return word_->text(); }

}  // namespace attnscope
