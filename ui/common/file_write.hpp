#pragma once
// The Qt side of the one file writer, core's writeFileAtomically (core/io/atomic_file.hpp): every
// file the program writes goes through here or straight to core. Nothing is written on failure;
// the Error names the file and gives the OS's reason ("No space left on device").
#include <QByteArray>
#include <QString>
#include <optional>

#include "core/base/result.hpp"

class QImage;

namespace attnscope {

Result<void> writeFileAtomically(const QString& path, const QByteArray& bytes);

// The image encoded as PNG in memory (keeping its dots per metre), then written as above.
Result<void> writePngFile(const QString& path, const QImage& image);

// PNG bytes of an image; empty when it cannot be encoded (a null image).
QByteArray pngBytes(const QImage& image);

// An Error's text for the QString-returning callers ("" when there is none).
QString errorText(const Result<void>& error);

}  // namespace attnscope
