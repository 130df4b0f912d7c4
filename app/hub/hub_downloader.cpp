#include "app/hub/hub_downloader.hpp"

#include <QDir>
#include <QFileInfo>
#include <QNetworkAccessManager>

#include "app/hub/hub_http.hpp"

// The download as a whole and each file's HEAD request (metadata, the pinned commit); the GET
// into blobs/, its verification and the snapshot link are in hub_download_file.cpp.

namespace attnscope {

using namespace hub;

namespace {

// ETags arrive as "abc", W/"abc" or abc.
QString normalizeEtag(QString etag) {
    if (etag.startsWith(QLatin1String("W/"))) etag = etag.mid(2);
    if (etag.size() >= 2 && etag.startsWith('"') && etag.endsWith('"')) etag = etag.mid(1, etag.size() - 2);
    return etag;
}

// The ETag becomes a file name in blobs/, so it must not be able to name a path.
bool isSafeBlobName(const QString& name) {
    if (name.isEmpty() || name.size() > 128) return false;
    for (QChar c : name)
        if (!(c.isLetterOrNumber() && c.unicode() < 128) && c != '-') return false;
    return true;
}

bool isSha256Hex(const QString& text) {
    if (text.size() != 64) return false;
    for (QChar c : text)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
    return true;
}

}  // namespace

HubDownloader::HubDownloader(std::filesystem::path cacheRoot, QObject* parent)
    : QObject(parent), network_(new QNetworkAccessManager(this)), cacheRoot_(std::move(cacheRoot)) {}

HubDownloader::~HubDownloader() {
    if (reply_) {
        reply_->disconnect(this);  // no finished() from a half-destroyed object
        reply_->abort();
    }
}

Result<void> HubDownloader::start(const HubDownloadRequest& request) {
    if (running_) return Error{str(tr("download")), str(tr("another download is still running"))};
    auto repo = parseRepoId(str(request.repoId));
    if (!repo) return repo.error();
    if (auto error = validateRevision(str(request.revision)); !error.ok()) return error;
    if (request.files.empty()) return Error{str(tr("download")), str(tr("no files were requested"))};
    for (const HubFile& file : request.files)
        if (auto error = validateRepoFileName(str(file.name)); !error.ok()) return error;

    request_ = request;
    repo_ = repo.value();
    urlRevision_ = request.revision;
    commit_.clear();
    skipped_.clear();
    index_ = 0;
    cancelled_ = false;
    running_ = true;
    // Queued so that finished() never fires before start() has returned.
    QMetaObject::invokeMethod(this, &HubDownloader::startNextFile, Qt::QueuedConnection);
    return {};
}

void HubDownloader::cancel() {
    if (!running_) return;
    cancelled_ = true;
    if (reply_) reply_->abort();  // its finished handler reports the cancellation
}

QString HubDownloader::snapshotPath() const {
    return commit_.isEmpty() ? QString() : repoDir() + "/snapshots/" + commit_;
}

QString HubDownloader::repoDir() const {
    return QString::fromStdString((cacheRoot_ / repo_.cacheFolderName()).string());
}

QString HubDownloader::partialPath() const {
    if (!meta_.blobName.isEmpty()) return blobsDir() + "/" + meta_.blobName + ".incomplete";
    // No usable ETag: the name is derived from what is downloaded, so a retry finds it again.
    const QByteArray key = (QString::fromStdString(repo_.text()) + "\n" + commit_ + "\n" +
                            request_.files[index_].name).toUtf8();
    return blobsDir() + "/unverified-" + QCryptographicHash::hash(key, QCryptographicHash::Sha1).toHex() +
           ".incomplete";
}

QUrl HubDownloader::fileUrl(const QString& file) const {
    QString path = baseUrl_.path(QUrl::FullyEncoded);
    if (path.endsWith('/')) path.chop(1);
    path += "/" + QString::fromStdString(repo_.text()) + "/resolve/" +
            QString::fromLatin1(QUrl::toPercentEncoding(urlRevision_)) + "/";
    QStringList parts;
    for (const QString& part : file.split('/')) parts << QString::fromLatin1(QUrl::toPercentEncoding(part));
    QUrl url = baseUrl_;
    url.setPath(path + parts.join('/'), QUrl::TolerantMode);
    return url;
}

Error HubDownloader::fileError(const QString& message) const {
    const QString file = index_ < request_.files.size() ? request_.files[index_].name : QString();
    return Error{repo_.text() + " (" + str(request_.revision) + "): " + str(file), str(message)};
}

void HubDownloader::finish(Result<void> error) {
    if (partial_.isOpen()) partial_.close();
    const QFileInfo partial(partial_.fileName());
    if (!error.ok() && partial.exists() && partial.size() == 0) QFile::remove(partial.filePath());  // nothing to resume
    running_ = false;
    emit finished(std::move(error));
}

// ---- one file: HEAD for metadata ------------------------------------------------------------

void HubDownloader::startNextFile() {
    if (cancelled_) return finish(Error{str(tr("download")), str(tr("cancelled"))});
    if (index_ >= request_.files.size()) return finish(writeRef());
    meta_ = FileMeta{};
    resumes_ = 0;
    emit fileStarted(request_.files[index_].name, int(index_), int(request_.files.size()));
    sendHead(fileUrl(request_.files[index_].name), 0);
}

void HubDownloader::sendHead(const QUrl& url, int redirects) {
    QNetworkRequest request = makeRequest(url);
    // The hub's redirect to its CDN carries the commit and the sha256: read it, do not follow it.
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    QNetworkReply* reply = network_->head(request);
    reply_ = reply;
    connect(reply, &QNetworkReply::finished, this, [this, reply, redirects] { onHeadFinished(reply, redirects); });
}

void HubDownloader::onHeadFinished(QNetworkReply* reply, int redirects) {
    reply->deleteLater();
    reply_ = nullptr;
    if (cancelled_) return finish(Error{str(tr("download")), str(tr("cancelled"))});
    const int status = statusOf(reply);
    const bool hasEtag = reply->hasRawHeader("X-Linked-Etag") || reply->hasRawHeader("ETag");
    if (status >= 300 && status < 400 && !hasEtag) {
        // A redirect without metadata (a renamed repo): follow it, bounded, never to plain http.
        const QUrl target = reply->url().resolved(reply->attribute(QNetworkRequest::RedirectionTargetAttribute).toUrl());
        if (redirects >= kMaxRedirects) return finish(fileError(tr("too many redirects")));
        if (reply->url().scheme() == "https" && target.scheme() != "https")
            return finish(fileError(tr("refused a redirect from https to %1").arg(target.toString())));
        return sendHead(target, redirects + 1);
    }
    if (status == 404) return skipOrFail(header(reply, "X-Error-Code"), header(reply, "X-Error-Message"));
    if (status == 401 || status == 403)
        return finish(fileError(tr("the hub refused access (HTTP %1): the repo does not exist, or it is "
                                        "private or gated, which needs a login AttnScope does not support yet")
                                    .arg(status)));
    if (status == 0) return finish(fileError(tr("could not reach %1: %2").arg(reply->url().host(), reply->errorString())));
    if (status != 200 && !(status >= 300 && status < 400))
        return finish(fileError(tr("the hub answered HTTP %1 %2")
                                    .arg(status)
                                    .arg(reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString())));

    const QString etag = normalizeEtag(reply->hasRawHeader("X-Linked-Etag") ? header(reply, "X-Linked-Etag")
                                                                             : header(reply, "ETag"));
    meta_.blobName = isSafeBlobName(etag) ? etag : QString();
    meta_.expectedSha256 = isSha256Hex(etag) ? etag.toLower() : QString();
    bool sizeOk = false;
    const QString size = reply->hasRawHeader("X-Linked-Size") ? header(reply, "X-Linked-Size")
                                                              : (status == 200 ? header(reply, "Content-Length") : QString());
    meta_.size = size.toLongLong(&sizeOk);
    if (!sizeOk) meta_.size = -1;
    pinCommit(header(reply, "X-Repo-Commit"));

    // Already in blobs/ (another revision, or an earlier run): only the snapshot link is missing.
    if (!meta_.blobName.isEmpty() && QFileInfo::exists(blobsDir() + "/" + meta_.blobName))
        return linkAndContinue(meta_.blobName);
    if (auto error = openPartial(); !error.ok()) return finish(error);
    sendGet();
}

void HubDownloader::pinCommit(const QString& reportedCommit) {
    if (!commit_.isEmpty()) return;
    if (isCommitHash(str(reportedCommit))) {
        commit_ = reportedCommit.toLower();
    } else if (isCommitHash(str(request_.revision))) {
        commit_ = request_.revision.toLower();
    } else {
        // No X-Repo-Commit (a mirror): reuse what the cache already resolved, else name the
        // snapshot after the revision so that findCachedModel still finds it through the ref.
        QFile ref(repoDir() + "/refs/" + request_.revision);
        const QString known = ref.open(QIODevice::ReadOnly) ? QString::fromLatin1(ref.readAll()).trimmed() : QString();
        commit_ = isCommitHash(str(known)) ? known : QString(request_.revision).replace('/', '_');
    }
    if (isCommitHash(str(commit_))) urlRevision_ = commit_;  // every later file from the same commit
}

void HubDownloader::skipOrFail(const QString& errorCode, const QString& errorMessage) {
    // A missing repo or revision is never "an optional file that is absent".
    const bool repoMissing = errorCode == "RepoNotFound" || errorCode == "RevisionNotFound";
    const HubFile& file = request_.files[index_];
    if (file.optional && !repoMissing) {
        skipped_ << file.name;
        ++index_;
        return startNextFile();
    }
    QString message = tr("not found on the hub: %1 in %2 at revision %3")
                          .arg(file.name, QString::fromStdString(repo_.text()), request_.revision);
    if (!errorMessage.isEmpty()) message += " (" + errorMessage + ")";
    finish(Error{str(tr("hub download")), str(message)});
}

}  // namespace attnscope
