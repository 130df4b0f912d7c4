#pragma once
// Fetches a model from the Hugging Face hub into the shared cache: id (checked as it is typed),
// revision, the files to fetch (optional ones may be absent from the repo), progress and Cancel.
#include <QDialog>
#include <QString>
#include <filesystem>
#include <optional>
#include <vector>

#include "app/hub/hub_downloader.hpp"

class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;

namespace attnscope {

class DownloadDialog : public QDialog {
    Q_OBJECT
public:
    explicit DownloadDialog(std::filesystem::path cacheRoot, QWidget* parent = nullptr);

    // config.json and model.safetensors are required; the tokenizer files are optional because
    // each family ships a different subset (BERT: vocab.txt; GPT-2: vocab.json + merges.txt).
    static std::vector<HubFile> defaultFiles();
    // $HF_ENDPOINT (the variable the Python tools read, e.g. a mirror), else huggingface.co.
    static QUrl hubEndpoint();
    // Runs the dialog modally against the process's cache; the snapshot folder on success.
    static std::optional<QString> download(QWidget* parent);

    QString snapshotPath() const { return snapshotPath_; }
    HubDownloader& downloader() { return *downloader_; }

    void reject() override;  // cancels a running download first

private:
    void buildUi();
    void validateInput();
    std::vector<HubFile> checkedFiles() const;
    void startDownload();
    void onFileStarted(const QString& name, int index, int count);
    void onProgress(qint64 bytes, qint64 total);
    void onFinished(const Result<void>& error);
    void setRunning(bool running);

    HubDownloader* downloader_;
    QLineEdit* repoEdit_ = nullptr;
    QLabel* repoProblem_ = nullptr;
    QLineEdit* revisionEdit_ = nullptr;
    QListWidget* fileList_ = nullptr;
    QProgressBar* progressBar_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton* downloadButton_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    QString snapshotPath_;
    QString currentFile_;
};

}  // namespace attnscope
