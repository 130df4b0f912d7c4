#include "app/hub/open_model_dialog.hpp"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "app/hub/download_dialog.hpp"
#include "ui/common/core_error_text.hpp"

namespace attnscope {

namespace {

enum Column { kModel, kRevision, kContents, kSize, kColumnCount };
constexpr int kPathRole = Qt::UserRole + 1;

QString contentsText(const CachedModel& model) {
    QStringList parts;
    parts << (model.hasConfig ? QObject::tr("config") : QObject::tr("no config.json"));
    parts << (model.hasSafetensors ? QObject::tr("weights") : QObject::tr("no .safetensors"));
    return parts.join(", ");
}

QTableWidgetItem* readOnlyItem(const QString& text) {
    auto* item = new QTableWidgetItem(text);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

}  // namespace

OpenModelDialog::OpenModelDialog(CacheEnv env, QWidget* parent) : QDialog(parent), env_(std::move(env)) {
    buildUi();
    refresh();
}

std::optional<QString> OpenModelDialog::choose(QWidget* parent) {
    OpenModelDialog dialog(CacheEnv::fromProcess(), parent);
    if (dialog.exec() != QDialog::Accepted || dialog.chosenPath().isEmpty()) return std::nullopt;
    return dialog.chosenPath();
}

void OpenModelDialog::buildUi() {
    setWindowTitle(tr("Open a pretrained model"));
    resize(720, 380);
    cacheLabel_ = new QLabel(this);
    cacheLabel_->setWordWrap(true);
    cacheLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    table_ = new QTableWidget(0, kColumnCount, this);
    table_->setHorizontalHeaderLabels({tr("Model"), tr("Revision"), tr("Contents"), tr("Size")});
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(kModel, QHeaderView::Stretch);
    connect(table_, &QTableWidget::itemSelectionChanged, this, &OpenModelDialog::updateButtons);
    connect(table_, &QTableWidget::cellDoubleClicked, this, &OpenModelDialog::openSelected);

    auto* buttons = new QDialogButtonBox(this);
    openButton_ = buttons->addButton(tr("Open"), QDialogButtonBox::AcceptRole);
    auto* browse = buttons->addButton(tr("Browse folder…"), QDialogButtonBox::ActionRole);
    auto* download = buttons->addButton(tr("Download…"), QDialogButtonBox::ActionRole);
    buttons->addButton(QDialogButtonBox::Cancel);
    connect(openButton_, &QPushButton::clicked, this, &OpenModelDialog::openSelected);
    connect(browse, &QPushButton::clicked, this, &OpenModelDialog::browseFolder);
    connect(download, &QPushButton::clicked, this, &OpenModelDialog::downloadModel);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(cacheLabel_);
    layout->addWidget(table_);
    layout->addWidget(buttons);
}

void OpenModelDialog::refresh() {
    auto root = hubCacheRoot(env_);
    cacheLabel_->setText(root ? tr("Models in the Hugging Face cache (%1):").arg(QString::fromStdString(root.value().string()))
                              : coreErrorText(root.error()));
    const std::vector<CachedModel> models = listCachedModels(env_);
    table_->setRowCount(0);
    const QLocale locale;
    for (const CachedModel& model : models) {
        const int row = table_->rowCount();
        table_->insertRow(row);
        auto* name = readOnlyItem(QString::fromStdString(model.id));
        name->setData(kPathRole, QString::fromStdString(model.path.string()));
        name->setToolTip(QString::fromStdString(model.path.string()));
        table_->setItem(row, kModel, name);
        table_->setItem(row, kRevision, readOnlyItem(QString::fromStdString(model.revision)));
        table_->setItem(row, kContents, readOnlyItem(contentsText(model)));
        table_->setItem(row, kSize, readOnlyItem(locale.formattedDataSize(qint64(model.totalBytes))));
    }
    if (models.empty()) cacheLabel_->setText(cacheLabel_->text() + " " + tr("none yet — download one or browse to a folder."));
    updateButtons();
}

void OpenModelDialog::updateButtons() {
    openButton_->setEnabled(!table_->selectedItems().isEmpty());
}

void OpenModelDialog::openSelected() {
    const int row = table_->currentRow();
    if (row < 0 || table_->selectedItems().isEmpty()) return;
    chosenPath_ = table_->item(row, kModel)->data(kPathRole).toString();
    accept();
}

void OpenModelDialog::browseFolder() {
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Model folder (config.json + *.safetensors)"));
    if (folder.isEmpty()) return;
    chosenPath_ = folder;
    accept();
}

void OpenModelDialog::downloadModel() {
    auto root = hubCacheRoot(env_);
    if (!root) return;
    DownloadDialog dialog(root.value(), this);
    if (dialog.exec() != QDialog::Accepted) return;
    chosenPath_ = dialog.snapshotPath();
    accept();
}

}  // namespace attnscope
