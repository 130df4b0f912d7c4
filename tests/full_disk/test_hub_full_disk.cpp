// The hub download onto a nearly full cache (a small tmpfs; root only, otherwise this executable
// says why and exits 77, which ctest reports as skipped). A file smaller than Qt's write buffer used
// to be "written" into the buffer, lost at close and renamed into blobs/ truncated; now the write
// fails with the OS's reason and nothing reaches blobs/, snapshots/ or refs/.
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <cstdio>

#include "app/hub/hub_downloader.hpp"
#include "tests/full_disk/tmpfs_mount.hpp"

using namespace attnscope;
using attnscope::testing::TmpfsMount;

namespace {

const QByteArray kCommit = "0123456789abcdef0123456789abcdef01234567";

// Answers HEAD and GET of any path with `content`, as the hub does for a small (non-LFS) file.
class OneFileHub : public QObject {
public:
    explicit OneFileHub(QByteArray content) : content_(std::move(content)) {
        connect(&server_, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* socket = server_.nextPendingConnection()) {
                connect(socket, &QTcpSocket::readyRead, this, [this, socket] { answer(socket); });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
        server_.listen(QHostAddress::LocalHost, 0);
    }
    QUrl url() const { return QUrl(QString("http://127.0.0.1:%1").arg(server_.serverPort())); }

private:
    void answer(QTcpSocket* socket) {
        const QByteArray request = socket->property("buffer").toByteArray() + socket->readAll();
        socket->setProperty("buffer", request);
        if (!request.contains("\r\n\r\n")) return;
        QByteArray object = "blob " + QByteArray::number(content_.size());
        object.append('\0');
        const QByteArray etag = QCryptographicHash::hash(object + content_, QCryptographicHash::Sha1).toHex();
        socket->write("HTTP/1.1 200 OK\r\nConnection: close\r\nX-Repo-Commit: " + kCommit + "\r\nETag: \"" + etag +
                      "\"\r\nContent-Length: " + QByteArray::number(content_.size()) + "\r\n\r\n" +
                      (request.startsWith("HEAD") ? QByteArray() : content_));
        socket->disconnectFromHost();
    }
    QTcpServer server_;
    QByteArray content_;
};

}  // namespace

class HubFullDiskTest : public QObject {
    Q_OBJECT

private slots:
    void downloadOntoANearlyFullCacheFailsWithTheReason() {
        TmpfsMount disk;
        QVERIFY(disk.mounted());
        const QString cache = QString::fromStdString(disk.path().string());
        QVERIFY(disk.fillUp(4096));  // one page free: 12 KB of config.json do not fit
        OneFileHub hub(QByteArray(12'000, 'x'));
        HubDownloader downloader(disk.path().string());
        downloader.setBaseUrl(hub.url());
        QSignalSpy finished(&downloader, &HubDownloader::finished);
        Result<void> error;
        connect(&downloader, &HubDownloader::finished, this, [&error](Result<void> e) { error = std::move(e); });
        QVERIFY((downloader.start({"org/tiny", "main", {{"config.json"}}})).ok());
        QVERIFY(finished.wait(20'000));
        QVERIFY2(!error.ok(), "the download reported success on a full disk");
        QVERIFY2(QString::fromStdString(error.error().text()).contains("No space left on device"), error.error().text().c_str());
        QVERIFY2(QString::fromStdString(error.error().where).endsWith(".incomplete"), error.error().where.c_str());
        const QString repo = cache + "/models--org--tiny";
        QCOMPARE(QDir(repo + "/blobs").entryList({"*"}, QDir::Files | QDir::NoDotAndDotDot).filter(QRegularExpression("^[0-9a-f]+$")),
                 QStringList());  // no blob: only the partial, kept to be resumed
        QVERIFY(!QFileInfo::exists(repo + "/snapshots/" + kCommit + "/config.json"));
        QVERIFY(!QFileInfo::exists(repo + "/refs/main"));
    }
};

int main(int argc, char** argv) {
    const std::string reason = attnscope::testing::tmpfsUnavailableReason();
    if (!reason.empty()) {
        std::printf("SKIPPED (full-disk hub tests): %s\n", reason.c_str());
        return 77;
    }
    QCoreApplication app(argc, argv);
    HubFullDiskTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_hub_full_disk.moc"
