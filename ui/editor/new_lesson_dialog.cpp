#include "ui/editor/new_lesson_dialog.hpp"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>

namespace attnscope {

namespace {

QSpinBox* spinBox(int low, int high, int value, QWidget* parent) {
    auto* box = new QSpinBox(parent);
    box->setRange(low, high);  // the ranges of a lesson file
    box->setValue(value);
    return box;
}

QCheckBox* checkBox(const QString& text, bool checked, QWidget* parent) {
    auto* box = new QCheckBox(text, parent);
    box->setChecked(checked);
    return box;
}

std::string utf8(const QLineEdit* edit) { return edit->text().trimmed().toUtf8().toStdString(); }

}  // namespace

NewLessonDialog::NewLessonDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("New lesson"));
    englishTitle_ = new QLineEdit(this);
    chineseTitle_ = new QLineEdit(this);
    words_ = new QLineEdit(this);
    words_->setPlaceholderText(tr("e.g. the cat sat, or 笔记本 (one token per Chinese character)"));
    features_ = new QLineEdit(this);
    features_->setPlaceholderText(tr("optional, separated by commas: noun, animate, place"));
    dModel_ = spinBox(1, 4096, 4, this);
    heads_ = spinBox(1, 64, 1, this);
    kvHeads_ = spinBox(1, 64, 1, this);
    kvHeads_->setToolTip(tr("Query heads share the key/value heads in groups (grouped-query attention); "
                            "1 is multi-query attention. Must divide the number of heads."));
    dK_ = spinBox(1, 4096, 4, this);
    decimals_ = spinBox(0, 12, 3, this);
    projections_ = checkBox(tr("Projections W_Q, W_K, W_V (without them Q = K = V = X)"), true, this);
    scaling_ = checkBox(tr("Divide the scores by √d_k"), true, this);
    causal_ = checkBox(tr("Causal mask (each token sees only itself and earlier ones)"), false, this);
    // Without projections Q = K = V = X: d_k is d_model.
    const auto followModel = [this] {
        dK_->setEnabled(projections_->isChecked());
        if (!projections_->isChecked()) dK_->setValue(dModel_->value());
    };
    connect(projections_, &QCheckBox::toggled, this, followModel);
    connect(dModel_, &QSpinBox::valueChanged, this, followModel);
    // Key/value heads follow the heads while every head has its own (the usual multi-head attention).
    connect(heads_, &QSpinBox::valueChanged, this, [this, shown = 1](int heads) mutable {
        if (kvHeads_->value() == shown) kvHeads_->setValue(heads);
        shown = heads;
    });

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Title (English):"), englishTitle_);
    form->addRow(tr("Title (Chinese):"), chineseTitle_);
    form->addRow(tr("Words or characters:"), words_);
    form->addRow(tr("Feature names:"), features_);
    form->addRow(QStringLiteral("d_model:"), dModel_);
    form->addRow(tr("Heads:"), heads_);
    form->addRow(tr("Key/value heads:"), kvHeads_);
    form->addRow(QStringLiteral("d_k:"), dK_);
    form->addRow(projections_);
    form->addRow(scaling_);
    form->addRow(causal_);
    form->addRow(tr("Decimals:"), decimals_);
    form->addRow(buttons);
}

NewLessonSpec NewLessonDialog::spec() const {
    NewLessonSpec spec;
    spec.englishTitle = utf8(englishTitle_);
    spec.chineseTitle = utf8(chineseTitle_);
    spec.words = utf8(words_);
    for (const QString& name : features_->text().split(QRegularExpression(QStringLiteral("[,，、]")), Qt::SkipEmptyParts))
        if (!name.trimmed().isEmpty()) spec.featureNames.push_back(name.trimmed().toUtf8().toStdString());
    spec.dModel = dModel_->value();
    spec.numHeads = heads_->value();
    spec.numKvHeads = kvHeads_->value();
    spec.dK = dK_->value();
    spec.projections = projections_->isChecked();
    spec.scale = scaling_->isChecked();
    spec.causalMask = causal_->isChecked();
    spec.decimals = decimals_->value();
    return spec;
}

}  // namespace attnscope
