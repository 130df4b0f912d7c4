#include "app/file_hashes.hpp"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace attnscope {

namespace {

SessionFile hashFile(const QFileInfo& info) {
    SessionFile f{info.fileName().toStdString(), static_cast<std::uint64_t>(info.size()), {}};
    QFile file(info.absoluteFilePath());
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (file.open(QIODevice::ReadOnly) && hash.addData(&file)) f.sha256 = hash.result().toHex().toStdString();
    return f;  // unreadable: no digest, so it reads as changed on disk
}

}  // namespace

std::vector<SessionFile> hashSourceFiles(const QString& folderOrFile) {
    const QFileInfo info(folderOrFile);
    if (folderOrFile.isEmpty() || folderOrFile.startsWith(":/")) return {};
    if (info.isFile()) return {hashFile(info)};
    if (!info.isDir()) return {};
    std::vector<SessionFile> files;
    for (const QFileInfo& entry : QDir(folderOrFile).entryInfoList(QDir::Files, QDir::Name)) files.push_back(hashFile(entry));
    return files;
}

}  // namespace attnscope
