// libFuzzer target: the window's settings reader (app/user_settings.cpp) on untrusted bytes. The
// input is written as a settings file, read as the window reads it at start-up (readSettingsFile:
// its type and size checked first) and then parsed by QSettings (the INI format) with every key
// read the ways the window reads its values (text, list, number). Errors are fine; crashes,
// sanitizer reports and hangs are findings. See fuzz/README.md.
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "app/user_settings.hpp"

using namespace attnscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("AttnScope.conf"));
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) std::abort();
        file.write(reinterpret_cast<const char*>(data), static_cast<qint64>(size));
    }
    auto read = readSettingsFile(path);
    if (!read) return 0;
    const QString copy = folder.filePath(QStringLiteral("copy.conf"));
    {
        QFile file(copy);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) std::abort();
        file.write(read.value());
    }
    QSettings settings(copy, QSettings::IniFormat);
    for (const QString& key : settings.allKeys()) {
        const QVariant value = settings.value(key);
        (void)value.toString();
        (void)value.toStringList();
        (void)value.toInt();
    }
    return 0;
}
