#include "ui/editor/lesson_structure_bar.hpp"

#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

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
    dK_ = dimensionBox("dKBox", 4096, this);
    dV_ = dimensionBox("dVBox", 4096, this);
    auto* apply = button(tr("Apply dimensions"), "applyDimensions", this);
    apply->setToolTip(tr("Every matrix keeps the numbers that fit; new cells are zero"));

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(new QLabel(tr("Word:"), this), 0, 0);
    grid->addWidget(word_, 0, 1, 1, 3);
    grid->addWidget(add, 0, 4);
    grid->addWidget(rename, 0, 5);
    grid->addWidget(remove, 0, 6);
    int column = 0;
    for (const auto& [label, box] : {std::pair{QStringLiteral("d_model"), dModel_}, std::pair{tr("heads"), heads_},
                                     std::pair{QStringLiteral("d_k"), dK_}, std::pair{QStringLiteral("d_v"), dV_}}) {
        auto* cell = new QHBoxLayout;
        cell->addWidget(new QLabel(label, this));
        cell->addWidget(box, 1);
        grid->addLayout(cell, 1, column++);
    }
    grid->addWidget(apply, 1, 4, 1, 3);
    grid->setColumnStretch(1, 1);

    connect(add, &QPushButton::clicked, this, [this] { emit addWord(typedWord()); });
    connect(word_, &QLineEdit::returnPressed, this, [this] { emit addWord(typedWord()); });
    connect(rename, &QPushButton::clicked, this, [this] { emit renameSelected(typedWord()); });
    connect(remove, &QPushButton::clicked, this, &LessonStructureBar::deleteSelected);
    connect(apply, &QPushButton::clicked, this, [this] {
        emit dimensionsRequested({dModel_->value(), heads_->value(), dK_->value(), dV_->value()});
    });
}

void LessonStructureBar::showDimensions(const LessonDimensions& dims) {
    dModel_->setValue(dims.dModel);
    heads_->setValue(dims.numHeads);
    dK_->setValue(dims.dK);
    dV_->setValue(dims.dV);
}

QString LessonStructureBar::typedWord() const { return word_->text(); }

}  // namespace attnscope
