#include "app/hub/hub_downloader.hpp"

#include <QDir>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <unistd.h>

#include "ui/common/file_write.hpp"

namespace attnscope {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxRedirects = 5;
constexpr int kTransferTimeoutMs = 60'000;     // no byte for this long ends the request (then resumed)
constexpr qint64 kRehashChunkBytes = 1 << 20;
const QByteArray kUserAgent = QByteArrayLiteral("AttnScope/0.1");

int statusOf(const QNetworkReply* reply) {
    return reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
}

QString header(const QNetworkReply* reply, const char* name) {
    return QString::fromLatin1(reply->rawHeader(name)).trimmed();
}

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

// "bytes 1000-65535/65536" → 1000; -1 when absent or malformed.
qint64 contentRangeStart(const QNetworkReply* reply) {
    const QString range = header(reply, "Content-Range");
    if (!range.startsWith(QLatin1String("bytes "))) return -1;
    bool ok = false;
    const qint64 start = range.mid(6).section('-', 0, 0).toLongLong(&ok);
    return ok ? start : -1;
}

QNetworkRequest makeRequest(const QUrl& url) {
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::UserAgentHeader, kUserAgent);
    // Byte ranges only make sense on the stored bytes: no transparent decompression.
    request.setRawHeader("Accept-Encoding", "identity");
    request.setTransferTimeout(kTransferTimeoutMs);
    return request;
}

std::string str(const QString& text) { return text.toStdString(); }

// Every byte, or the OS's reason: a short write is continued, so a full disk reports ENOSPC.
Result<void> appendAll(QFile& file, const QByteArray& data) {
    for (qint64 done = 0; done < data.size();) {
        const qint64 n = file.write(data.constData() + done, data.size() - done);
        if (n <= 0) return Error{str(file.fileName()), "could not be written: " + str(file.errorString())};
        done += n;
    }
    return {};
}

// Before the partial becomes a blob: on the disk, and as long as what was received.
Result<void> syncToDisk(QFile& file, qint64 expectedSize) {
    if (!file.flush() || ::fsync(file.handle()) != 0)
        return Error{str(file.fileName()), std::string("could not be written: ") + std::strerror(errno)};
    if (file.size() != expectedSize)
        return Error{str(file.fileName()), "holds " + std::to_string(file.size()) + " bytes, " +
                                               std::to_string(expectedSize) + " were received"};
    return {};
}

}  // namespace

HubDownloader::HubDownloader(fs::path cacheRoot, QObject* parent)
    : QObject(parent), network_(new QNetworkAccessManager(this)), cacheRoot_(std::move(cacheRoot)) {}

HubDownloader::~HubDownloader() {
    if (reply_) {
        reply_->disconnect(this);  // no finished() from a half-destroyed object
        reply_->abort();
    }
}

Result<void> HubDownloader::start(const HubDownloadRequest& request) {
    if (running_) return Error{"download", "another download is still running"};
    auto repo = parseRepoId(str(request.repoId));
    if (!repo) return repo.error();
    if (auto error = validateRevision(str(request.revision)); !error.ok()) return error;
    if (request.files.empty()) return Error{"download", "no files were requested"};
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
    if (cancelled_) return finish(Error{"download", "cancelled"});
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
    if (cancelled_) return finish(Error{"download", "cancelled"});
    const int status = statusOf(reply);
    const bool hasEtag = reply->hasRawHeader("X-Linked-Etag") || reply->hasRawHeader("ETag");
    if (status >= 300 && status < 400 && !hasEtag) {
        // A redirect without metadata (a renamed repo): follow it, bounded, never to plain http.
        const QUrl target = reply->url().resolved(reply->attribute(QNetworkRequest::RedirectionTargetAttribute).toUrl());
        if (redirects >= kMaxRedirects) return finish(fileError("too many redirects"));
        if (reply->url().scheme() == "https" && target.scheme() != "https")
            return finish(fileError("refused a redirect from https to " + target.toString()));
        return sendHead(target, redirects + 1);
    }
    if (status == 404) return skipOrFail(header(reply, "X-Error-Code"), header(reply, "X-Error-Message"));
    if (status == 401 || status == 403)
        return finish(fileError(QString("the hub refused access (HTTP %1): the repo does not exist, or it is "
                                        "private or gated, which needs a login AttnScope does not support yet")
                                    .arg(status)));
    if (status == 0) return finish(fileError("could not reach " + reply->url().host() + ": " + reply->errorString()));
    if (status != 200 && !(status >= 300 && status < 400))
        return finish(fileError(QString("the hub answered HTTP %1 %2")
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
    QString message = "not found on the hub: " + file.name + " in " + QString::fromStdString(repo_.text()) +
                      " at revision " + request_.revision;
    if (!errorMessage.isEmpty()) message += " (" + errorMessage + ")";
    finish(Error{"hub download", str(message)});
}

// ---- one file: GET into blobs/<hash>.incomplete ----------------------------------------------

Result<void> HubDownloader::openPartial() {
    if (!QDir().mkpath(blobsDir())) return Error{str(blobsDir()), "could not be created"};
    partial_.setFileName(partialPath());
    // Unbuffered: every write reaches the OS at once and is checked there (a full disk is not
    // discovered later by a close whose result nobody reads).
    if (!partial_.open(QIODevice::ReadWrite | QIODevice::Unbuffered))
        return Error{str(partial_.fileName()), "could not be opened: " + str(partial_.errorString())};
    hash_.reset();
    written_ = partial_.size();
    if (meta_.size >= 0 && written_ > meta_.size) restartPartial();  // longer than the file: not ours
    // A resumed partial's bytes count towards the hash, so they are read once more.
    for (qint64 done = 0; done < written_;) {
        const QByteArray chunk = partial_.read(kRehashChunkBytes);
        if (chunk.isEmpty()) return Error{str(partial_.fileName()), "could not be read back"};
        hash_.addData(chunk);
        done += chunk.size();
    }
    partial_.seek(written_);
    return {};
}

void HubDownloader::restartPartial() {
    partial_.resize(0);
    partial_.seek(0);
    hash_.reset();
    written_ = 0;
    offset_ = 0;
}

void HubDownloader::sendGet() {
    if (meta_.size >= 0 && written_ == meta_.size) return finalizeFile();  // the partial is complete
    QNetworkRequest request = makeRequest(fileUrl(request_.files[index_].name));
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
    request.setMaximumRedirectsAllowed(kMaxRedirects);
    offset_ = written_;
    if (offset_ > 0) request.setRawHeader("Range", "bytes=" + QByteArray::number(offset_) + "-");
    bodyDecided_ = false;
    acceptingBody_ = false;
    writeError_ = {};
    QNetworkReply* reply = network_->get(request);
    reply_ = reply;
    connect(reply, &QNetworkReply::metaDataChanged, this, [this, reply] {
        if (reply == reply_) decideBody(reply);
    });
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] {
        if (reply == reply_) writeBody(reply);
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { onGetFinished(reply); });
}

// Whether this response's body continues, restarts or is not the file at all.
void HubDownloader::decideBody(QNetworkReply* reply) {
    if (bodyDecided_) return;
    const int status = statusOf(reply);
    if (status >= 300 && status < 400) return;  // the redirect's own headers: wait for the target's
    bodyDecided_ = true;
    if (status == 200) {
        if (offset_ > 0) restartPartial();  // the server ignored Range and sends the whole file
        acceptingBody_ = true;
    } else if (status == 206) {
        acceptingBody_ = contentRangeStart(reply) == offset_;
        if (!acceptingBody_) {
            restartPartial();
            rangeMismatch_ = true;
            reply->abort();  // retried from byte 0 by onGetFinished
        }
    }
}

void HubDownloader::writeBody(QNetworkReply* reply) {
    if (!bodyDecided_) decideBody(reply);
    const QByteArray data = reply->readAll();
    if (!acceptingBody_ || data.isEmpty() || !writeError_.ok()) return;
    if (auto error = appendAll(partial_, data); !error.ok()) {
        writeError_ = error;
        reply->abort();
        return;
    }
    hash_.addData(data);
    written_ += data.size();
    emit progress(written_, meta_.size);
}

void HubDownloader::onGetFinished(QNetworkReply* reply) {
    reply->deleteLater();
    reply_ = nullptr;
    if (!cancelled_ && !rangeMismatch_) writeBody(reply);  // bytes that arrived with the end
    const bool rangeMismatch = std::exchange(rangeMismatch_, false);
    if (cancelled_) return finish(Error{"download", "cancelled"});
    if (!writeError_.ok()) return finish(writeError_);
    const int status = statusOf(reply);
    if (status == 404) {
        partial_.close();
        return skipOrFail(header(reply, "X-Error-Code"), header(reply, "X-Error-Message"));
    }
    if (status == 416) {  // the partial is not a prefix the server recognises
        restartPartial();
        return retryOrFail(fileError("the server refused to resume (HTTP 416)"));
    }
    if (status >= 300)
        return finish(fileError(QString("the download answered HTTP %1 %2")
                                    .arg(status)
                                    .arg(reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString())));
    if (rangeMismatch) return retryOrFail(fileError("the server resumed at the wrong byte"));
    if (reply->error() != QNetworkReply::NoError)
        return retryOrFail(fileError(QString("the connection broke after %1 bytes: %2").arg(written_).arg(reply->errorString())));
    // A connection closed early does not always surface as an error: compare with what was announced.
    const QVariant length = reply->header(QNetworkRequest::ContentLengthHeader);
    const qint64 expectedEnd = meta_.size >= 0 ? meta_.size : (length.isValid() ? offset_ + length.toLongLong() : -1);
    if (expectedEnd >= 0 && written_ < expectedEnd)
        return retryOrFail(fileError(QString("the connection ended after %1 of %2 bytes").arg(written_).arg(expectedEnd)));
    finalizeFile();
}

void HubDownloader::retryOrFail(const Error& error) {
    if (resumes_ >= maxResumes_) {
        Error final = error;
        final.message += " (gave up after " + std::to_string(resumes_) +
                         " resumes; the partial file is kept for the next attempt)";
        return finish(final);
    }
    ++resumes_;
    sendGet();  // continues from the bytes already in the partial
}

// ---- one file: verify, move into blobs/, link ------------------------------------------------

void HubDownloader::finalizeFile() {
    const QString partialFile = partial_.fileName();
    if (auto error = syncToDisk(partial_, written_); !error.ok()) return finish(error);  // the partial is kept to resume
    partial_.close();
    if (meta_.size >= 0 && written_ != meta_.size) {
        QFile::remove(partialFile);
        return finish(fileError(QString("expected %1 bytes, received %2; the download was discarded")
                                    .arg(meta_.size)
                                    .arg(written_)));
    }
    const QString digest = QString::fromLatin1(hash_.result().toHex());
    if (!meta_.expectedSha256.isEmpty() && digest != meta_.expectedSha256) {
        QFile::remove(partialFile);
        return finish(fileError("sha256 mismatch: the hub reported " + meta_.expectedSha256 +
                                ", the downloaded bytes hash to " + digest + "; the download was discarded"));
    }
    const QString blobName = meta_.blobName.isEmpty() ? digest : meta_.blobName;
    const QString blobPath = blobsDir() + "/" + blobName;
    if (QFileInfo::exists(blobPath)) {
        QFile::remove(partialFile);  // an identical blob arrived meanwhile
    } else {
        std::error_code ec;
        fs::rename(str(partialFile), str(blobPath), ec);
        if (ec) return finish(Error{str(blobPath), "could not be created from " + str(partialFile) + ": " + ec.message()});
    }
    linkAndContinue(blobName);
}

void HubDownloader::linkAndContinue(const QString& blobName) {
    if (auto error = linkIntoSnapshot(blobName); !error.ok()) return finish(error);
    emit progress(meta_.size < 0 ? written_ : meta_.size, meta_.size);
    ++index_;
    startNextFile();
}

Result<void> HubDownloader::linkIntoSnapshot(const QString& blobName) {
    const QString file = request_.files[index_].name;
    const fs::path link = fs::path(str(repoDir())) / "snapshots" / str(commit_) / str(file);
    // snapshots/<commit>/<dirs…>/<file> → up to the repo folder, then into blobs/.
    fs::path target;
    for (int up = 0; up < file.count('/') + 2; ++up) target /= "..";
    target = target / "blobs" / str(blobName);
    // Symlinks cannot be overwritten in place: make one beside it and rename it over (atomic).
    const fs::path temporary = link.string() + ".link-tmp";
    std::error_code ec;
    fs::create_directories(link.parent_path(), ec);
    fs::remove(temporary, ec);
    fs::create_symlink(target, temporary, ec);
    if (!ec) fs::rename(temporary, link, ec);
    if (ec) return Error{link.string(), "could not be linked to " + target.string() + ": " + ec.message()};
    return {};
}

Result<void> HubDownloader::writeRef() {
    if (commit_ == request_.revision && isCommitHash(str(commit_))) return {};  // a commit needs no ref
    const QString path = repoDir() + "/refs/" + request_.revision;
    QDir().mkpath(QFileInfo(path).path());  // a failure shows as the write's "No such file or directory"
    return writeFileAtomically(path, commit_.toLatin1());  // the one writer: a reader never sees half a hash
}

}  // namespace attnscope
