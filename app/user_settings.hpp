#pragma once
// The window's saved settings (View ▸ Language, Zoom, Theme; File ▸ Open recent) in
// ~/.config/AttnScope/AttnScope.conf. QSettings never writes that file itself: it would write
// through a symlink (replacing the file it points to, as root any file), turn a device node into a
// regular file, and block for ever opening a FIFO. It works on a private copy (in a folder of this
// process, mode 0700), read once from the user's file (a regular file of at most 1 MiB, never
// through a link), and each change is saved back with the project's writer, atomically and never
// through a link (writeRegularFileAtomically). A refused user file is named once on stderr and
// left as it is; the window starts with the defaults.
#include <QByteArray>
#include <QSettings>
#include <QString>

#include "core/base/result.hpp"

namespace attnscope {

// QSettings on the private copy; going out of scope, it saves a change to the user's file.
class UserSettings : public QSettings {
public:
    UserSettings();
    ~UserSettings() override;
};

// The user's settings file ($XDG_CONFIG_HOME or ~/.config, AttnScope/AttnScope.conf), for messages.
QString userSettingsPath();

// A settings file read safely (also fuzz/settings_fuzz.cpp): nothing there gives no bytes; a
// symbolic link, a FIFO, a device, a folder or a file over 1 MiB an Error, and a FIFO or device
// is never opened (it would block or never end).
Result<QByteArray> readSettingsFile(const QString& path);

}  // namespace attnscope
