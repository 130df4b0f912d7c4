#pragma once
// Downloads files of a Hugging Face repo into the standard hub cache (see core/model/hf_cache.hpp),
// so that Python tools find them too:
//   blobs/<hash>                  contents; <hash> is the hub's ETag (sha256 for LFS files)
//   snapshots/<commit>/<file>     relative symlink to ../../blobs/<hash>
//   refs/<revision>               the commit, written once every file has arrived
//
// Per file: a HEAD request without following redirects reads the metadata (X-Repo-Commit,
// X-Linked-Etag or ETag, X-Linked-Size), because the hub's redirect to its CDN carries it and the
// CDN's answer does not. Then a GET that follows redirects (never https → http) writes into
// blobs/<hash>.incomplete, resuming with "Range: bytes=N-" when a partial exists (206 appends, a
// 200 restarts). When the ETag is a 64-hex sha256 the bytes are verified; a mismatch deletes the
// partial and leaves the cache as it was. Only a verified blob is renamed into blobs/, and the
// snapshot symlink is created last, so a snapshot entry always points at a complete file.
//
// The first file's X-Repo-Commit pins the commit: later files are fetched at that commit, so a
// branch moving mid-download cannot mix two versions. Without X-Repo-Commit (a mirror that omits
// it) the commit is the revision itself if it is 40 hex, else what refs/<revision> already holds,
// else the revision name is used as the snapshot folder (findCachedModel still resolves it).
//
// Everything runs on Qt's asynchronous network stack: no call blocks the GUI thread except
// re-hashing a resumed partial's existing bytes (about a second per GB).
#include <QByteArray>
#include <QCryptographicHash>
#include <QFile>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <filesystem>
#include <optional>
#include <vector>

#include "core/model/hf_cache.hpp"
#include "core/base/result.hpp"

class QNetworkAccessManager;
class QNetworkReply;

namespace attnscope {

struct HubFile {
    QString name;           // path inside the repo, e.g. "config.json"
    bool optional = false;  // a 404 skips the file instead of failing the download
};

struct HubDownloadRequest {
    QString repoId;         // "openai-community/gpt2" or "bert-base-uncased"
    QString revision = QStringLiteral("main");
    std::vector<HubFile> files;
};

class HubDownloader : public QObject {
    Q_OBJECT
public:
    static inline const QString kDefaultBaseUrl = QStringLiteral("https://huggingface.co");
    static constexpr int kDefaultMaxResumes = 3;  // automatic resumes per file after a dropped connection

    explicit HubDownloader(std::filesystem::path cacheRoot, QObject* parent = nullptr);
    ~HubDownloader() override;

    void setBaseUrl(const QUrl& baseUrl) { baseUrl_ = baseUrl; }
    QUrl baseUrl() const { return baseUrl_; }
    void setMaxResumes(int count) { maxResumes_ = count; }

    // Validates the id, the revision and every file name first: an invalid one is returned here
    // and no request is made. Otherwise the download runs and ends with finished().
    Result<void> start(const HubDownloadRequest& request);
    // Stops the transfer; finished() follows with an error saying so. The partial file is kept
    // as blobs/<hash>.incomplete so that the next start() resumes it; no snapshot entry is made.
    void cancel();

    bool isRunning() const { return running_; }
    bool wasCancelled() const { return cancelled_; }
    QString snapshotPath() const;          // after success: .../snapshots/<commit>
    QString commit() const { return commit_; }
    QStringList skippedFiles() const { return skipped_; }  // optional files the hub does not have

signals:
    void fileStarted(const QString& name, int index, int count);
    void progress(qint64 bytes, qint64 total);  // of the current file; total is -1 when unknown
    void finished(attnscope::Result<void> error);

private:
    // What the HEAD request told about the current file.
    struct FileMeta {
        QString blobName;           // the normalised ETag; empty when the hub gave none usable
        QString expectedSha256;     // lowercase hex, when the ETag is a sha256
        qint64 size = -1;
    };

    void startNextFile();
    void sendHead(const QUrl& url, int redirects);
    void onHeadFinished(QNetworkReply* reply, int redirects);
    void pinCommit(const QString& reportedCommit);
    void skipOrFail(const QString& errorCode, const QString& errorMessage);
    void sendGet();
    void decideBody(QNetworkReply* reply);
    void writeBody(QNetworkReply* reply);
    void onGetFinished(QNetworkReply* reply);
    void retryOrFail(const Error& error);
    void finalizeFile();
    void linkAndContinue(const QString& blobName);
    Result<void> linkIntoSnapshot(const QString& blobName);
    void finish(Result<void> error);

    Result<void> openPartial();
    void restartPartial();
    Result<void> writeRef();

    QUrl fileUrl(const QString& file) const;
    QString repoDir() const;
    QString blobsDir() const { return repoDir() + "/blobs"; }
    QString partialPath() const;
    Error fileError(const QString& message) const;

    QNetworkAccessManager* network_;
    std::filesystem::path cacheRoot_;
    QUrl baseUrl_{kDefaultBaseUrl};
    int maxResumes_ = kDefaultMaxResumes;

    HubDownloadRequest request_;
    RepoId repo_;
    QString urlRevision_;           // the request's revision until the commit is pinned
    QString commit_;
    QStringList skipped_;
    bool running_ = false;
    bool cancelled_ = false;

    std::size_t index_ = 0;         // current file
    FileMeta meta_;
    QPointer<QNetworkReply> reply_;
    QFile partial_;
    QCryptographicHash hash_{QCryptographicHash::Sha256};
    qint64 offset_ = 0;             // bytes of the partial before this GET
    qint64 written_ = 0;            // bytes in the partial now
    bool bodyDecided_ = false;      // the current GET's final status has been looked at
    bool acceptingBody_ = false;    // ... and it allows writing its body into the partial
    bool rangeMismatch_ = false;    // a 206 started elsewhere than asked: aborted, retried from 0
    Result<void> writeError_;
    int resumes_ = 0;
};

}  // namespace attnscope
