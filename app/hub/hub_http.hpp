#pragma once
// What the hub downloader's two files share (internal to app/hub): its requests and how it
// reads their answers. hub_downloader.cpp asks (HEAD), hub_download_file.cpp fetches (GET).
#include <QByteArray>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QString>
#include <QUrl>
#include <string>

namespace attnscope::hub {

inline constexpr int kMaxRedirects = 5;
inline constexpr int kTransferTimeoutMs = 60'000;  // no byte for this long ends the request (then resumed)

inline int statusOf(const QNetworkReply* reply) {
    return reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
}

inline QString header(const QNetworkReply* reply, const char* name) {
    return QString::fromLatin1(reply->rawHeader(name)).trimmed();
}

inline QNetworkRequest makeRequest(const QUrl& url) {
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::UserAgentHeader, QByteArrayLiteral("AttnScope/0.1"));
    // Byte ranges only make sense on the stored bytes: no transparent decompression.
    request.setRawHeader("Accept-Encoding", "identity");
    request.setTransferTimeout(kTransferTimeoutMs);
    return request;
}

inline std::string str(const QString& text) { return text.toStdString(); }

}  // namespace attnscope::hub
