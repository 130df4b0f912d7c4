// The hub downloader against a minimal HTTP/1.1 server started by the test on 127.0.0.1 that
// behaves like huggingface.co: /ORG/NAME/resolve/REV/FILE, ETag (git sha1) for small files,
// a 302 to a CDN path with X-Linked-Etag (sha256) for LFS files, X-Repo-Commit, Range → 206,
// X-Error-Code on 404, and faults on demand (dropped connection, stall, wrong hash, no Range).
#include <QCryptographicHash>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <set>

#include "app/hub/download_dialog.hpp"
#include "app/hub/hub_downloader.hpp"
#include "app/hub/open_model_dialog.hpp"
#include "core/model/hf_cache.hpp"

using namespace attnscope;
namespace fs = std::filesystem;

namespace {

const QString kCommit = "0123456789abcdef0123456789abcdef01234567";
constexpr int kTimeoutMs = 20'000;

QByteArray sha256Hex(const QByteArray& bytes) {
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

// What git (and so the hub) uses as the ETag of a small, non-LFS file.
QByteArray gitBlobSha1(const QByteArray& bytes) {
    QByteArray object = "blob " + QByteArray::number(bytes.size());
    object.append('\0');
    return QCryptographicHash::hash(object + bytes, QCryptographicHash::Sha1).toHex();
}

QByteArray patternBytes(int size) {
    QByteArray bytes(size, Qt::Uninitialized);
    quint32 state = 12345;
    for (char& byte : bytes) {
        state = state * 1664525u + 1013904223u;
        byte = char(state >> 24);
    }
    return bytes;
}

struct RecordedRequest {
    QByteArray method;
    QString path;
    QByteArray range;
};

class MockHub : public QObject {
public:
    struct File {
        QByteArray content;
        bool lfs = false;
    };
    QString repo;
    QMap<QString, File> files;
    bool sendCommit = true;
    QMap<QString, int> dropAfterBytes;   // the next GET: headers, N body bytes, then the connection closes
    QMap<QString, int> stallAfterBytes;  // every GET: headers, N body bytes, then silence
    std::set<QString> wrongHash;         // advertises the sha256 of other bytes
    std::set<QString> ignoreRange;       // answers a Range request with 200 and the whole file
    QList<RecordedRequest> requests;

    explicit MockHub(QString repoId) : repo(std::move(repoId)) {
        connect(&server_, &QTcpServer::newConnection, this, &MockHub::acceptConnections);
        server_.listen(QHostAddress::LocalHost, 0);
    }
    QUrl baseUrl() const { return QUrl(QString("http://127.0.0.1:%1").arg(server_.serverPort())); }
    QList<RecordedRequest> requestsFor(const QByteArray& method, const QString& pathSuffix) const {
        QList<RecordedRequest> found;
        for (const RecordedRequest& request : requests)
            if (request.method == method && request.path.endsWith(pathSuffix)) found << request;
        return found;
    }

private:
    QTcpServer server_;

    void acceptConnections() {
        while (QTcpSocket* socket = server_.nextPendingConnection()) {
            connect(socket, &QTcpSocket::readyRead, this, [this, socket] { readRequest(socket); });
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        }
    }

    void readRequest(QTcpSocket* socket) {
        const QByteArray buffered = socket->property("buffer").toByteArray() + socket->readAll();
        const qsizetype end = buffered.indexOf("\r\n\r\n");
        socket->setProperty("buffer", end < 0 ? buffered : QByteArray());
        if (end >= 0) handle(socket, buffered.left(end));
    }

    void handle(QTcpSocket* socket, const QByteArray& head) {
        const QList<QByteArray> lines = head.split('\n');
        const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
        RecordedRequest request{requestLine.value(0), QUrl::fromPercentEncoding(requestLine.value(1)), {}};
        for (const QByteArray& line : lines)
            if (line.toLower().startsWith("range:")) request.range = line.mid(6).trimmed();
        requests << request;
        if (request.path.startsWith("/cdn/")) return serveBody(socket, request, request.path.mid(5), {});

        const qsizetype resolve = request.path.indexOf("/resolve/");
        const QString repoPart = request.path.mid(1, resolve - 1);
        const QString rest = request.path.mid(resolve + 9);
        const QString revision = rest.section('/', 0, 0);
        const QString name = rest.section('/', 1);
        QList<QByteArray> headers;
        if (sendCommit) headers << "X-Repo-Commit: " + kCommit.toLatin1();
        if (resolve < 0 || repoPart != repo) return reply(socket, "404 Not Found", {"X-Error-Code: RepoNotFound"}, {});
        if (revision != "main" && revision != kCommit)
            return reply(socket, "404 Not Found", {"X-Error-Code: RevisionNotFound"}, {});
        if (!files.contains(name))
            return reply(socket, "404 Not Found", headers << "X-Error-Code: EntryNotFound", {});
        const File& file = files[name];
        if (file.lfs) {
            const QByteArray sha = wrongHash.count(name) ? sha256Hex("other bytes") : sha256Hex(file.content);
            headers << "X-Linked-Etag: \"" + sha + "\"" << "X-Linked-Size: " + QByteArray::number(file.content.size())
                    << "ETag: \"" + gitBlobSha1("pointer") + "\"" << "Location: /cdn/" + name.toLatin1();
            return reply(socket, "302 Found", headers, {});
        }
        headers << "ETag: \"" + gitBlobSha1(file.content) + "\"";
        serveBody(socket, request, name, headers);
    }

    void serveBody(QTcpSocket* socket, const RecordedRequest& request, const QString& name, QList<QByteArray> headers) {
        const QByteArray content = files.value(name).content;
        qint64 start = 0;
        QByteArray status = "200 OK";
        if (request.range.startsWith("bytes=") && !ignoreRange.count(name)) {
            start = request.range.mid(6).split('-').value(0).toLongLong();
            if (start >= content.size())
                return reply(socket, "416 Range Not Satisfiable", {"Content-Range: bytes */" + QByteArray::number(content.size())}, {});
            status = "206 Partial Content";
            headers << "Content-Range: bytes " + QByteArray::number(start) + "-" + QByteArray::number(content.size() - 1) +
                           "/" + QByteArray::number(content.size());
        }
        const QByteArray body = content.mid(start);
        headers << "Content-Length: " + QByteArray::number(body.size());
        if (request.method == "HEAD") return reply(socket, status, headers, {});
        if (dropAfterBytes.contains(name)) {
            const int keep = dropAfterBytes.take(name);
            return reply(socket, status, headers, body.left(keep));  // Content-Length promised more
        }
        if (stallAfterBytes.contains(name)) {
            socket->write(responseHead(status, headers) + body.left(stallAfterBytes[name]));
            return;  // the connection stays open without sending more
        }
        reply(socket, status, headers, body);
    }

    static QByteArray responseHead(const QByteArray& status, const QList<QByteArray>& headers) {
        QByteArray head = "HTTP/1.1 " + status + "\r\nConnection: close\r\nAccept-Ranges: bytes\r\n";
        bool hasLength = false;
        for (const QByteArray& header : headers) {
            head += header + "\r\n";
            hasLength = hasLength || header.startsWith("Content-Length");
        }
        if (!hasLength) head += "Content-Length: 0\r\n";
        return head + "\r\n";
    }

    void reply(QTcpSocket* socket, const QByteArray& status, const QList<QByteArray>& headers, const QByteArray& body) {
        socket->write(responseHead(status, headers) + body);
        socket->disconnectFromHost();  // after the pending bytes are written
    }
};

struct Outcome {
    bool finished = false;
    Result<void> error;
};

// Starts the download and waits (event loop, no sleeps) for finished().
Outcome download(HubDownloader& downloader, const HubDownloadRequest& request) {
    Outcome outcome;
    QSignalSpy spy(&downloader, &HubDownloader::finished);
    const auto connection = QObject::connect(&downloader, &HubDownloader::finished, [&outcome](Result<void> error) {
        outcome.finished = true;
        outcome.error = std::move(error);
    });
    if (auto refused = downloader.start(request); !refused.ok()) {
        outcome.error = refused;
    } else if (spy.isEmpty()) {
        spy.wait(kTimeoutMs);
    }
    QObject::disconnect(connection);
    return outcome;
}

// Every file and symlink under root (directories left out), with symlink targets.
QStringList cacheListing(const QString& root) {
    QStringList listing;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(root.toStdString(), ec), end; !ec && it != end; it.increment(ec)) {
        if (it->is_symlink(ec)) listing << QString::fromStdString(it->path().string() + " -> " + fs::read_symlink(it->path()).string());
        else if (!it->is_directory(ec)) listing << QString::fromStdString(it->path().string());
    }
    listing.sort();
    return listing;
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

}  // namespace

class HubTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir cache_;
    std::unique_ptr<MockHub> hub_;
    QByteArray config_ = R"({"model_type": "bert", "hidden_size": 8})";
    QByteArray weights_ = patternBytes(300'000);
    QByteArray vocab_ = "[PAD]\n[UNK]\nhello\n";

    QString repoDir() const { return cache_.path() + "/models--org--tiny-model"; }
    QString snapshot() const { return repoDir() + "/snapshots/" + kCommit; }
    QString weightsBlob() const { return repoDir() + "/blobs/" + sha256Hex(weights_); }
    CacheEnv env() const { return CacheEnv{cache_.path().toStdString(), std::nullopt, std::nullopt}; }

    std::unique_ptr<HubDownloader> makeDownloader() {
        auto downloader = std::make_unique<HubDownloader>(cache_.path().toStdString());
        downloader->setBaseUrl(hub_->baseUrl());
        return downloader;
    }

private slots:
    void init() {
        QVERIFY(cache_.isValid());
        QDir(cache_.path()).removeRecursively();
        QDir().mkpath(cache_.path());
        hub_ = std::make_unique<MockHub>("org/tiny-model");
        hub_->files["config.json"] = {config_, false};
        hub_->files["model.safetensors"] = {weights_, true};
        hub_->files["vocab.txt"] = {vocab_, false};
    }
    void cleanup() { hub_.reset(); }

    void downloadFillsTheStandardCacheLayout() {
        auto downloader = makeDownloader();
        const Outcome outcome = download(*downloader, {"org/tiny-model", "main",
                                                       {{"config.json"}, {"model.safetensors"}, {"vocab.txt"}}});
        QVERIFY(outcome.finished);
        QVERIFY2(outcome.error.ok(), outcome.error.ok() ? "" : outcome.error.error().text().c_str());
        QCOMPARE(downloader->snapshotPath(), snapshot());

        // Relative symlinks into blobs/, named by sha256 (LFS) or the git ETag (small files).
        QCOMPARE(QString::fromStdString(fs::read_symlink((snapshot() + "/model.safetensors").toStdString()).string()),
                 "../../blobs/" + sha256Hex(weights_));
        QCOMPARE(QString::fromStdString(fs::read_symlink((snapshot() + "/config.json").toStdString()).string()),
                 "../../blobs/" + gitBlobSha1(config_));
        QCOMPARE(readAll(snapshot() + "/model.safetensors"), weights_);
        QCOMPARE(readAll(snapshot() + "/config.json"), config_);
        QCOMPARE(readAll(snapshot() + "/vocab.txt"), vocab_);
        QCOMPARE(readAll(repoDir() + "/refs/main"), kCommit.toLatin1());
        QVERIFY(QDir(repoDir() + "/blobs").entryList({"*.incomplete"}, QDir::Files).isEmpty());

        const auto found = findCachedModel(env(), "org/tiny-model");
        QVERIFY(found.ok());
        QCOMPARE(QString::fromStdString(found.value().string()), snapshot());

        // Only the first request names "main": the rest are pinned to the reported commit.
        QVERIFY(hub_->requests.first().path.contains("/resolve/main/config.json"));
        for (const RecordedRequest& request : hub_->requests.mid(1))
            QVERIFY2(request.path.startsWith("/cdn/") || request.path.contains(kCommit), qPrintable(request.path));
        QCOMPARE(hub_->requests.size(), 7);  // 3 HEAD + 3 GET + the CDN GET behind the 302

        // A second run finds every blob in place: metadata only, no body is fetched again.
        hub_->requests.clear();
        QVERIFY((download(*downloader, {"org/tiny-model", "main", {{"config.json"}, {"model.safetensors"}}}).error).ok());
        for (const RecordedRequest& request : hub_->requests) QCOMPARE(request.method, QByteArray("HEAD"));
    }

    void idWithoutOrgUsesTheShortUrlAndFolder() {
        hub_->repo = "tiny-bert";
        auto downloader = makeDownloader();
        const Outcome outcome = download(*downloader, {"tiny-bert", "main", {{"config.json"}}});
        QVERIFY2(outcome.error.ok(), outcome.error.ok() ? "" : outcome.error.error().text().c_str());
        QCOMPARE(hub_->requests.first().path, QString("/tiny-bert/resolve/main/config.json"));
        QCOMPARE(readAll(cache_.path() + "/models--tiny-bert/snapshots/" + kCommit + "/config.json"), config_);
        QVERIFY(findCachedModel(env(), "tiny-bert").ok());
    }

    void droppedConnectionIsResumedWithRange() {
        hub_->dropAfterBytes["model.safetensors"] = 100'000;
        auto downloader = makeDownloader();
        const Outcome outcome = download(*downloader, {"org/tiny-model", "main", {{"model.safetensors"}}});
        QVERIFY2(outcome.error.ok(), outcome.error.ok() ? "" : outcome.error.error().text().c_str());
        const auto gets = hub_->requestsFor("GET", "/cdn/model.safetensors");
        // Qt's HTTP layer may itself resend the GET once when the connection closes (a race on
        // when it notices); its answer is discarded, so 2 or 3 requests, and ours resumes.
        QVERIFY2(gets.size() == 2 || gets.size() == 3, qPrintable(QString::number(gets.size())));
        QVERIFY(gets.first().range.isEmpty());
        QCOMPARE(gets.last().range, QByteArray("bytes=100000-"));
        QCOMPARE(sha256Hex(readAll(snapshot() + "/model.safetensors")), sha256Hex(weights_));
        QVERIFY(!QFile::exists(weightsBlob() + ".incomplete"));
    }

    void serverIgnoringRangeRestartsTheFile() {
        QDir().mkpath(repoDir() + "/blobs");
        QFile partial(weightsBlob() + ".incomplete");
        QVERIFY(partial.open(QIODevice::WriteOnly));
        partial.write("garbage");  // not a prefix of the file: only a full 200 can repair it
        partial.close();
        hub_->ignoreRange.insert("model.safetensors");
        auto downloader = makeDownloader();
        const Outcome outcome = download(*downloader, {"org/tiny-model", "main", {{"model.safetensors"}}});
        QVERIFY2(outcome.error.ok(), outcome.error.ok() ? "" : outcome.error.error().text().c_str());
        QCOMPARE(hub_->requestsFor("GET", "/cdn/model.safetensors").value(0).range, QByteArray("bytes=7-"));
        QCOMPARE(readAll(weightsBlob()), weights_);
    }

    void hashMismatchLeavesTheCacheUntouched() {
        auto downloader = makeDownloader();
        QVERIFY((download(*downloader, {"org/tiny-model", "main", {{"config.json"}}}).error).ok());
        const QStringList before = cacheListing(cache_.path());

        hub_->wrongHash.insert("model.safetensors");
        const Outcome outcome = download(*downloader, {"org/tiny-model", "main", {{"model.safetensors"}}});
        QVERIFY(!outcome.error.ok());
        const QString text = QString::fromStdString(outcome.error.error().text());
        QVERIFY2(text.contains("model.safetensors") && text.contains("sha256 mismatch") &&
                     text.contains(sha256Hex("other bytes")) && text.contains(sha256Hex(weights_)),
                 qPrintable(text));
        QCOMPARE(cacheListing(cache_.path()), before);  // no blob, no partial, no snapshot entry
    }

    void missingRequiredFileIsAnErrorAndOptionalIsSkipped() {
        auto downloader = makeDownloader();
        const Outcome optional = download(*downloader, {"org/tiny-model", "main",
                                                        {{"config.json"}, {"tokenizer.json", true}}});
        QVERIFY2(optional.error.ok(), optional.error.ok() ? "" : optional.error.error().text().c_str());
        QCOMPARE(downloader->skippedFiles(), QStringList{"tokenizer.json"});
        QVERIFY(!QFile::exists(snapshot() + "/tokenizer.json"));

        const Outcome required = download(*downloader, {"org/tiny-model", "main", {{"missing.bin"}}});
        QVERIFY(!required.error.ok());
        const QString text = QString::fromStdString(required.error.error().text());
        QVERIFY2(text.contains("not found on the hub") && text.contains("missing.bin") &&
                     text.contains("org/tiny-model") && text.contains("main"),
                 qPrintable(text));

        // A missing revision fails even for optional files: the repo cannot be what was meant.
        const Outcome revision = download(*downloader, {"org/tiny-model", "v9", {{"tokenizer.json", true}}});
        QVERIFY(!revision.error.ok());
        QVERIFY(QString::fromStdString(revision.error.error().text()).contains("v9"));
    }

    void cancelKeepsThePartialForResume() {
        hub_->stallAfterBytes["model.safetensors"] = 50'000;
        auto downloader = makeDownloader();
        QObject::connect(downloader.get(), &HubDownloader::progress, downloader.get(),
                         [&downloader, size = weights_.size()](qint64 bytes, qint64 total) {
                             if (total == size && bytes > 0) downloader->cancel();  // mid-body of the weights
                         });
        const Outcome cancelled = download(*downloader, {"org/tiny-model", "main", {{"config.json"}, {"model.safetensors"}}});
        QVERIFY(cancelled.finished);
        QVERIFY(!cancelled.error.ok());
        QVERIFY(downloader->wasCancelled());
        QVERIFY(!QFile::exists(snapshot() + "/model.safetensors"));
        QVERIFY(!QFile::exists(repoDir() + "/refs/main"));  // the ref is written only after every file
        const qint64 kept = QFileInfo(weightsBlob() + ".incomplete").size();
        QVERIFY(kept > 0 && kept <= 50'000);
        QVERIFY(!QFile::exists(weightsBlob()));

        // The next start resumes from the kept bytes.
        QObject::disconnect(downloader.get(), &HubDownloader::progress, downloader.get(), nullptr);
        hub_->stallAfterBytes.clear();
        const Outcome resumed = download(*downloader, {"org/tiny-model", "main", {{"config.json"}, {"model.safetensors"}}});
        QVERIFY2(resumed.error.ok(), resumed.error.ok() ? "" : resumed.error.error().text().c_str());
        QCOMPARE(hub_->requestsFor("GET", "/cdn/model.safetensors").last().range, "bytes=" + QByteArray::number(kept) + "-");
        QCOMPARE(sha256Hex(readAll(snapshot() + "/model.safetensors")), sha256Hex(weights_));
    }

    void missingCommitHeaderFallsBackToTheRevisionName() {
        hub_->sendCommit = false;
        auto downloader = makeDownloader();
        QVERIFY((download(*downloader, {"org/tiny-model", "main", {{"config.json"}}}).error).ok());
        QCOMPARE(readAll(repoDir() + "/refs/main"), QByteArray("main"));
        QCOMPARE(readAll(repoDir() + "/snapshots/main/config.json"), config_);
        QVERIFY(findCachedModel(env(), "org/tiny-model").ok());
    }

    void traversalIsRefusedBeforeAnyRequest() {
        auto downloader = makeDownloader();
        const std::vector<HubDownloadRequest> bad = {
            {"../etc", "main", {{"config.json"}}},
            {"org/../x", "main", {{"config.json"}}},
            {"a/b/c", "main", {{"config.json"}}},
            {"org/tiny-model", "../../x", {{"config.json"}}},
            {"org/tiny-model", "main", {{"../../outside"}}},
            {"org/tiny-model", "main", {{"/etc/passwd"}}},
            {"org/tiny-model", "main", {{"a\\b"}}},
            {"org/tiny-model", "main", {{"config.json"}, {"x/../../y", true}}},
        };
        for (const HubDownloadRequest& request : bad) {
            const auto error = downloader->start(request);
            QVERIFY2(!error.ok(), qPrintable(request.repoId + " " + request.revision));
            QVERIFY(!downloader->isRunning());
        }
        QCoreApplication::processEvents();
        QVERIFY(hub_->requests.isEmpty());
        QVERIFY(cacheListing(cache_.path()).isEmpty());
    }

    void downloadDialogValidatesTheIdWhileTyping() {
        DownloadDialog dialog(cache_.path().toStdString());
        auto* edit = dialog.findChild<QLineEdit*>("repoId");
        QPushButton* downloadButton = nullptr;
        for (auto* button : dialog.findChildren<QPushButton*>())
            if (button->text() == "Download") downloadButton = button;
        QVERIFY(edit && downloadButton);
        edit->setText("../etc");
        QVERIFY(!downloadButton->isEnabled());
        edit->setText("openai-community/gpt2");
        QVERIFY(downloadButton->isEnabled());
        const auto files = DownloadDialog::defaultFiles();
        QCOMPARE(files.size(), std::size_t(8));
        QVERIFY(!files[0].optional && !files[1].optional && files[2].optional);
    }

    void openModelDialogListsCachedModels() {
        auto downloader = makeDownloader();
        QVERIFY((download(*downloader, {"org/tiny-model", "main", {{"config.json"}, {"model.safetensors"}}}).error).ok());
        OpenModelDialog dialog(env());
        QCOMPARE(dialog.table()->rowCount(), 1);
        QCOMPARE(dialog.table()->item(0, 0)->text(), QString("org/tiny-model"));
        QCOMPARE(dialog.table()->item(0, 1)->text(), QString("main"));
        dialog.table()->selectRow(0);
        for (auto* button : dialog.findChildren<QPushButton*>())
            if (button->text() == "Open") button->click();
        QCOMPARE(dialog.chosenPath(), snapshot());
    }
};

QTEST_MAIN(HubTest)
#include "test_hub.moc"
