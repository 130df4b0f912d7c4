// The hub downloader's GET of one file into blobs/<hash>.incomplete (resumed, verified), its
// move into blobs/, the snapshot link and, at the end, the ref (see hub_downloader.hpp).
#include "app/hub/hub_downloader.hpp"

#include <QDir>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <unistd.h>

#include "app/hub/hub_http.hpp"
#include "core/text/error_messages.hpp"
#include "ui/common/file_write.hpp"

namespace attnscope {

namespace fs = std::filesystem;
using namespace hub;

namespace {

constexpr qint64 kRehashChunkBytes = 1 << 20;

// "bytes 1000-65535/65536" → 1000; -1 when absent or malformed.
qint64 contentRangeStart(const QNetworkReply* reply) {
    const QString range = header(reply, "Content-Range");
    if (!range.startsWith(QLatin1String("bytes "))) return -1;
    bool ok = false;
    const qint64 start = range.mid(6).section('-', 0, 0).toLongLong(&ok);
    return ok ? start : -1;
}

// Every byte, or the OS's reason: a short write is continued, so a full disk reports ENOSPC.
Result<void> appendAll(QFile& file, const QByteArray& data) {
    for (qint64 done = 0; done < data.size();) {
        const qint64 n = file.write(data.constData() + done, data.size() - done);
        if (n <= 0) return Error{str(file.fileName()), errorText(ErrorId::CouldNotBeWritten, str(file.errorString()))};
        done += n;
    }
    return {};
}

// Before the partial becomes a blob: on the disk, and as long as what was received.
Result<void> syncToDisk(QFile& file, qint64 expectedSize) {
    if (!file.flush() || ::fsync(file.handle()) != 0)
        return Error{str(file.fileName()), errorText(ErrorId::CouldNotBeWritten, std::strerror(errno))};
    if (file.size() != expectedSize)
        return Error{str(file.fileName()),
                     str(HubDownloader::tr("holds %1 bytes, %2 were received").arg(file.size()).arg(expectedSize))};
    return {};
}

}  // namespace

// ---- one file: GET into blobs/<hash>.incomplete ----------------------------------------------

Result<void> HubDownloader::openPartial() {
    if (!QDir().mkpath(blobsDir())) return Error{str(blobsDir()), str(tr("could not be created"))};
    partial_.setFileName(partialPath());
    // Unbuffered: every write reaches the OS at once and is checked there (a full disk is not
    // discovered later by a close whose result nobody reads).
    if (!partial_.open(QIODevice::ReadWrite | QIODevice::Unbuffered))
        return Error{str(partial_.fileName()), str(tr("could not be opened: %1").arg(partial_.errorString()))};
    hash_.reset();
    written_ = partial_.size();
    if (meta_.size >= 0 && written_ > meta_.size) restartPartial();  // longer than the file: not ours
    // A resumed partial's bytes count towards the hash, so they are read once more.
    for (qint64 done = 0; done < written_;) {
        const QByteArray chunk = partial_.read(kRehashChunkBytes);
        if (chunk.isEmpty()) return Error{str(partial_.fileName()), str(tr("could not be read back"))};
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
    if (cancelled_) return finish(Error{str(tr("download")), str(tr("cancelled"))});
    if (!writeError_.ok()) return finish(writeError_);
    const int status = statusOf(reply);
    if (status == 404) {
        partial_.close();
        return skipOrFail(header(reply, "X-Error-Code"), header(reply, "X-Error-Message"));
    }
    if (status == 416) {  // the partial is not a prefix the server recognises
        restartPartial();
        return retryOrFail(fileError(tr("the server refused to resume (HTTP 416)")));
    }
    if (status >= 300)
        return finish(fileError(tr("the download answered HTTP %1 %2")
                                    .arg(status)
                                    .arg(reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString())));
    if (rangeMismatch) return retryOrFail(fileError(tr("the server resumed at the wrong byte")));
    if (reply->error() != QNetworkReply::NoError)
        return retryOrFail(fileError(tr("the connection broke after %1 bytes: %2").arg(written_).arg(reply->errorString())));
    // A connection closed early does not always surface as an error: compare with what was announced.
    const QVariant length = reply->header(QNetworkRequest::ContentLengthHeader);
    const qint64 expectedEnd = meta_.size >= 0 ? meta_.size : (length.isValid() ? offset_ + length.toLongLong() : -1);
    if (expectedEnd >= 0 && written_ < expectedEnd)
        return retryOrFail(fileError(tr("the connection ended after %1 of %2 bytes").arg(written_).arg(expectedEnd)));
    finalizeFile();
}

void HubDownloader::retryOrFail(const Error& error) {
    if (resumes_ >= maxResumes_) {
        Error final = error;
        final.message += str(tr(" (gave up after %1 resumes; the partial file is kept for the next attempt)").arg(resumes_));
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
        return finish(fileError(tr("expected %1 bytes, received %2; the download was discarded")
                                    .arg(meta_.size)
                                    .arg(written_)));
    }
    const QString digest = QString::fromLatin1(hash_.result().toHex());
    if (!meta_.expectedSha256.isEmpty() && digest != meta_.expectedSha256) {
        QFile::remove(partialFile);
        return finish(fileError(tr("sha256 mismatch: the hub reported %1, the downloaded bytes hash to %2; the download was discarded")
                                    .arg(meta_.expectedSha256, digest)));
    }
    const QString blobName = meta_.blobName.isEmpty() ? digest : meta_.blobName;
    const QString blobPath = blobsDir() + "/" + blobName;
    if (QFileInfo::exists(blobPath)) {
        QFile::remove(partialFile);  // an identical blob arrived meanwhile
    } else {
        std::error_code ec;
        fs::rename(str(partialFile), str(blobPath), ec);
        if (ec)
            return finish(Error{str(blobPath), str(tr("could not be created from %1: %2").arg(partialFile, QString::fromStdString(ec.message())))});
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
    if (ec)
        return Error{link.string(), str(tr("could not be linked to %1: %2")
                                            .arg(QString::fromStdString(target.string()), QString::fromStdString(ec.message())))};
    return {};
}

Result<void> HubDownloader::writeRef() {
    if (commit_ == request_.revision && isCommitHash(str(commit_))) return {};  // a commit needs no ref
    const QString path = repoDir() + "/refs/" + request_.revision;
    QDir().mkpath(QFileInfo(path).path());  // a failure shows as the write's "No such file or directory"
    return writeFileAtomically(path, commit_.toLatin1());  // the one writer: a reader never sees half a hash
}

}  // namespace attnscope