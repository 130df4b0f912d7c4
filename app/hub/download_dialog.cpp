#include "app/hub/download_dialog.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/theme_colors.hpp"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace attnscope {

namespace {
constexpr int kOptionalRole = Qt::UserRole + 1;
constexpr int kNameRole = Qt::UserRole + 2;
}  // namespace

DownloadDialog::DownloadDialog(std::filesystem::path cacheRoot, QWidget* parent)
    : QDialog(parent), downloader_(new HubDownloader(std::move(cacheRoot), this)) {
    downloader_->setBaseUrl(hubEndpoint());
    buildUi();
    connect(downloader_, &HubDownloader::fileStarted, this, &DownloadDialog::onFileStarted);
    connect(downloader_, &HubDownloader::progress, this, &DownloadDialog::onProgress);
    connect(downloader_, &HubDownloader::finished, this, &DownloadDialog::onFinished);
    validateInput();
}

std::vector<HubFile> DownloadDialog::defaultFiles() {
    return {{"config.json", false},          {"model.safetensors", false},    {"tokenizer.json", true},
            {"vocab.txt", true},             {"vocab.json", true},            {"merges.txt", true},
            {"tokenizer_config.json", true}, {"special_tokens_map.json", true}};
}

QUrl DownloadDialog::hubEndpoint() {
    const QString endpoint = qEnvironmentVariable("HF_ENDPOINT");
    return QUrl(endpoint.isEmpty() ? HubDownloader::kDefaultBaseUrl : endpoint);
}

std::optional<QString> DownloadDialog::download(QWidget* parent) {
    auto root = hubCacheRoot(CacheEnv::fromProcess());
    if (!root) {
        QMessageBox::warning(parent, tr("Download a model"), coreErrorText(root.error()));
        return std::nullopt;
    }
    DownloadDialog dialog(root.value(), parent);
    if (dialog.exec() != QDialog::Accepted) return std::nullopt;
    return dialog.snapshotPath();
}

void DownloadDialog::buildUi() {
    setWindowTitle(tr("Download a model from the Hugging Face hub"));
    repoEdit_ = new QLineEdit(this);
    repoEdit_->setObjectName("repoId");
    repoEdit_->setPlaceholderText("openai-community/gpt2");
    repoProblem_ = new QLabel(this);
    theme::setThemedStyleSheet(repoProblem_, QStringLiteral("color: {errorText}"));
    repoProblem_->setWordWrap(true);
    revisionEdit_ = new QLineEdit("main", this);
    revisionEdit_->setObjectName("revision");

    fileList_ = new QListWidget(this);
    for (const HubFile& file : defaultFiles()) {
        auto* item = new QListWidgetItem(file.optional ? file.name + tr("  (optional)") : file.name, fileList_);
        item->setData(kNameRole, file.name);
        item->setData(kOptionalRole, file.optional);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
        if (file.optional) item->setToolTip(tr("Skipped without an error when the repo does not have it"));
    }

    progressBar_ = new QProgressBar(this);
    progressBar_->setRange(0, 1);
    progressBar_->setValue(0);
    status_ = new QLabel(tr("Ready."), this);
    status_->setWordWrap(true);

    auto* buttons = new QDialogButtonBox(this);
    downloadButton_ = buttons->addButton(tr("Download"), QDialogButtonBox::AcceptRole);
    cancelButton_ = buttons->addButton(QDialogButtonBox::Cancel);
    connect(downloadButton_, &QPushButton::clicked, this, &DownloadDialog::startDownload);
    connect(cancelButton_, &QPushButton::clicked, this, &DownloadDialog::reject);

    auto* form = new QFormLayout;
    form->addRow(tr("Model id:"), repoEdit_);
    form->addRow(QString(), repoProblem_);
    form->addRow(tr("Revision:"), revisionEdit_);
    form->addRow(tr("Files:"), fileList_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(progressBar_);
    layout->addWidget(status_);
    layout->addWidget(buttons);

    connect(repoEdit_, &QLineEdit::textChanged, this, &DownloadDialog::validateInput);
    connect(revisionEdit_, &QLineEdit::textChanged, this, &DownloadDialog::validateInput);
    connect(fileList_, &QListWidget::itemChanged, this, &DownloadDialog::validateInput);
}

// The same rules as the downloader, shown while typing so that Download is only offered for ids
// the hub could have.
void DownloadDialog::validateInput() {
    const QString id = repoEdit_->text().trimmed();
    QString problem;
    if (!id.isEmpty()) {
        auto repo = parseRepoId(id.toStdString());
        if (!repo) problem = QString::fromStdString(coreErrorMessage(repo.error()));
    }
    if (problem.isEmpty())
        if (auto error = validateRevision(revisionEdit_->text().trimmed().toStdString()); !error.ok())
            problem = coreErrorText(error.error());
    if (problem.isEmpty() && checkedFiles().empty()) problem = tr("Tick at least one file.");
    repoProblem_->setText(problem);
    repoProblem_->setVisible(!problem.isEmpty());
    downloadButton_->setEnabled(!downloader_->isRunning() && !id.isEmpty() && problem.isEmpty());
}

std::vector<HubFile> DownloadDialog::checkedFiles() const {
    std::vector<HubFile> files;
    for (int row = 0; row < fileList_->count(); ++row) {
        const QListWidgetItem* item = fileList_->item(row);
        if (item->checkState() == Qt::Checked)
            files.push_back({item->data(kNameRole).toString(), item->data(kOptionalRole).toBool()});
    }
    return files;
}

void DownloadDialog::startDownload() {
    HubDownloadRequest request{repoEdit_->text().trimmed(), revisionEdit_->text().trimmed(), checkedFiles()};
    if (auto error = downloader_->start(request); !error.ok()) {
        status_->setText(coreErrorText(error.error()));
        return;
    }
    snapshotPath_.clear();
    setRunning(true);
    status_->setText(tr("Contacting %1…").arg(downloader_->baseUrl().host()));
}

void DownloadDialog::onFileStarted(const QString& name, int index, int count) {
    currentFile_ = name;
    status_->setText(tr("File %1 of %2: %3").arg(index + 1).arg(count).arg(name));
    progressBar_->setRange(0, 0);  // busy until the size is known
}

void DownloadDialog::onProgress(qint64 bytes, qint64 total) {
    const QLocale locale;
    // QProgressBar holds ints: show per mille of files larger than 2 GB.
    if (total > 0) {
        progressBar_->setRange(0, 1000);
        progressBar_->setValue(int(bytes * 1000 / total));
    }
    status_->setText(currentFile_ + ": " + locale.formattedDataSize(bytes) +
                     (total > 0 ? " / " + locale.formattedDataSize(total) : QString()));
}

void DownloadDialog::onFinished(const Result<void>& error) {
    setRunning(false);
    progressBar_->setRange(0, 1);
    if (!error.ok()) {
        progressBar_->setValue(0);
        status_->setText(downloader_->wasCancelled()
                             ? tr("Cancelled. The partial file is kept; downloading again resumes it.")
                             : coreErrorText(error.error()));
        return;
    }
    progressBar_->setValue(1);
    snapshotPath_ = downloader_->snapshotPath();
    accept();
}

void DownloadDialog::setRunning(bool running) {
    repoEdit_->setEnabled(!running);
    revisionEdit_->setEnabled(!running);
    fileList_->setEnabled(!running);
    validateInput();
}

void DownloadDialog::reject() {
    if (downloader_->isRunning()) {
        downloader_->cancel();  // the first Cancel stops the transfer, the dialog stays for the status
        return;
    }
    QDialog::reject();
}

}  // namespace attnscope
