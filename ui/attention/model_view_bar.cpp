#include "ui/attention/model_view_bar.hpp"
#include "ui/common/theme_colors.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace attnscope {

namespace {

QLineEdit* filterEdit(QWidget* parent, const char* name) {
    auto* edit = new QLineEdit(parent);
    edit->setObjectName(name);
    edit->setPlaceholderText(ModelViewBar::tr("all, or e.g. 1-3,7"));
    edit->setClearButtonEnabled(true);
    return edit;
}

}  // namespace

ModelViewBar::ModelViewBar(QWidget* parent) : QWidget(parent) {
    filters_.layers = filterEdit(this, "modelViewLayers");
    filters_.heads = filterEdit(this, "modelViewHeads");
    order_ = new QComboBox(this);
    order_->setObjectName("modelViewOrder");
    order_->addItems({tr("head number"), tr("entropy"), tr("weight on delimiters"), tr("previous-token share"),
                      tr("next-token share"), tr("self share")});
    message_ = new QLabel(this);
    message_->setObjectName("modelViewFilterMessage");
    message_->setWordWrap(true);
    theme::setThemedStyleSheet(message_, QStringLiteral("color: {errorText}"));
    message_->hide();
    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Layers:"), this));
    row->addWidget(filters_.layers, 1);
    row->addWidget(new QLabel(tr("Heads:"), this));
    row->addWidget(filters_.heads, 1);
    row->addWidget(new QLabel(tr("Order heads by:"), this));
    row->addWidget(order_);
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->addLayout(row);
    column->addWidget(message_);
    connect(filters_.layers, &QLineEdit::editingFinished, this, [this] { emit layerFilterEntered(filters_.layers->text()); });
    connect(filters_.heads, &QLineEdit::editingFinished, this, [this] { emit headFilterEntered(filters_.heads->text()); });
    connect(order_, &QComboBox::currentIndexChanged, this, &ModelViewBar::orderChosen);
}

void ModelViewBar::showMessage(const QString& text) {
    message_->setText(text);
    message_->setVisible(!text.isEmpty());
}

QString ModelViewBar::message() const { return message_->text(); }

}  // namespace attnscope
