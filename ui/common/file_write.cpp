#include "ui/common/file_write.hpp"

#include <QBuffer>
#include <QFile>
#include <QImage>
#include <QImageWriter>
#include <string_view>

#include "core/io/atomic_file.hpp"
#include "ui/common/core_error_text.hpp"

namespace attnscope {

Result<void> writeFileAtomically(const QString& path, const QByteArray& bytes) {
    const std::filesystem::path target(QFile::encodeName(path).toStdString());
    return writeFileAtomically(target, std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

QByteArray pngBytes(const QImage& image) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, "png");
    if (image.isNull() || !writer.write(image)) return {};
    return bytes;
}

Result<void> writePngFile(const QString& path, const QImage& image) {
    const QByteArray bytes = pngBytes(image);
    if (bytes.isEmpty()) return Error{path.toStdString(), "there is no picture to write (nothing was drawn)"};
    return writeFileAtomically(path, bytes);
}

QString errorText(const Result<void>& error) {
    return !error.ok() ? coreErrorText(error.error()) : QString();
}

}  // namespace attnscope
