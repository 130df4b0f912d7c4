#include "app/user_settings.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <cstdio>
#include <sys/stat.h>

#include "core/io/atomic_file.hpp"
#include "core/io/text_file.hpp"
#include "core/text/error_messages.hpp"
#include "ui/common/core_error_text.hpp"

namespace attnscope {

namespace {

constexpr std::uint64_t kMaxSettingsBytes = kMiB;  // a few lines; a larger file is not ours

void warn(const Error& error) {
    const QString text = QCoreApplication::translate("settings", "%1; the settings are neither read nor saved this session")
                             .arg(coreErrorText(error));
    std::fprintf(stderr, "attnscope: %s\n", qPrintable(text));
}

// The private copy QSettings works on, filled from the user's file once, at the first use.
struct Store {
    QTemporaryDir folder;
    QString copy = folder.filePath(QStringLiteral("AttnScope.conf"));
    QByteArray saved;      // the user's file as last read or written
    bool refused = false;  // the user's file is left alone this session

    Store() {
        auto read = readSettingsFile(userSettingsPath());
        if (read) saved = read.value();
        else warn(read.error()), refused = true;
        if (auto copied = writeFileAtomically(QFile::encodeName(copy).toStdString(), saved.toStdString()); !copied.ok())
            warn(copied.error()), refused = true;
    }
};

Store& store() {
    static Store opened;
    return opened;
}

void saveChange(Store& s) {
    if (s.refused) return;
    QFile copy(s.copy);
    if (!copy.open(QIODevice::ReadOnly)) return;
    const QByteArray bytes = copy.readAll();
    if (bytes == s.saved) return;
    const QString path = userSettingsPath();
    QDir().mkpath(QFileInfo(path).absolutePath());
    auto written = writeRegularFileAtomically(QFile::encodeName(path).toStdString(), bytes.toStdString());
    if (!written.ok()) {
        warn(written.error());
        s.refused = true;
        return;
    }
    s.saved = bytes;
}

}  // namespace

// QSettings decodes a value, or an element of a list, whose text starts with "@" (not "@@") as
// "@Variant(…)", "@ByteArray(…)" and the like; a variant with QDataStream, whose lengths come from
// the file: a few bytes can ask for gigabytes (fuzz findings). That text is what the INI escapes
// leave: "@Var\xiant(" is "@Variant(" ("\x" before a letter stands for nothing), and a backslash
// at a line's end carries the value on to the next line. AttnScope writes only booleans, numbers,
// text and lists of text, so a line where a value or an element may start with "@" (but for "@@",
// "@ByteArray(" and "@String(", spelt out) or with an escape is not ours, and is left out, as is
// a line carried on.
namespace {
// "@@" (a text's own "@"), or bytes and text as they are: QSettings reads no length for these.
bool spelledOut(const QByteArray& element) {
    return element.startsWith("@@") || element.startsWith("@ByteArray(") || element.startsWith("@String(");
}

bool mayHoldSerializedVariant(const QByteArray& line) {
    if (line.endsWith('\\')) return true;
    bool elementStarts = false;  // after "=" or ",": where QSettings looks for "@"
    for (qsizetype i = 0; i < line.size(); ++i) {
        const char c = line.at(i);
        if (c == '=' || c == ',') {
            elementStarts = true;
        } else if (elementStarts && c != '"' && static_cast<unsigned char>(c) > ' ') {
            if (c == '\\') return true;
            if (c == '@' && !spelledOut(line.mid(i))) return true;
            elementStarts = false;
        }
    }
    return false;
}

QByteArray withoutSerializedVariants(const QByteArray& bytes) {
    if (!bytes.contains('@') && !bytes.contains('\\')) return bytes;
    QByteArrayList kept;
    QByteArray lines = bytes;
    lines.replace('\r', '\n');  // QSettings ends a line at either
    for (const QByteArray& line : lines.split('\n'))
        if (!mayHoldSerializedVariant(line)) kept << line;
    return kept.join('\n');
}
}  // namespace

Result<QByteArray> readSettingsFile(const QString& path) {
    struct stat info {};
    const QByteArray local = QFile::encodeName(path);
    if (::lstat(local.constData(), &info) != 0) return QByteArray();
    if (S_ISLNK(info.st_mode)) return Error{path.toStdString(), ErrorId::LinkNotFollowed};
    auto text = readTextFile(local.toStdString(), kMaxSettingsBytes);  // regular files only
    if (!text) return text.error();
    return withoutSerializedVariants(QByteArray::fromStdString(text.value()));
}

QString userSettingsPath() {
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) + QStringLiteral("/AttnScope/AttnScope.conf");
}

UserSettings::UserSettings() : QSettings(store().copy, QSettings::IniFormat) {}

UserSettings::~UserSettings() {
    sync();
    saveChange(store());
}

}  // namespace attnscope
