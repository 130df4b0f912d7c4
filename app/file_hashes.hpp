#pragma once
// SHA-256 of the files a session's source was read from (docs/session-format.md). Qt's
// QCryptographicHash does it: Qt is already a dependency and the hub downloader verifies its
// downloads with it, so no other library is needed; core stays free of Qt and keeps the digests
// as plain text (core/source/saved_session.hpp).
#include <QString>
#include <vector>

#include "core/source/saved_session.hpp"

namespace attnscope {

// A folder: each regular file directly in it (links followed, as a Hugging Face snapshot's are),
// by name; a file: that file alone; anything else (a hub id, a built-in lesson): none. Reads every
// byte: call it off the GUI thread for a model.
std::vector<SessionFile> hashSourceFiles(const QString& folderOrFile);

}  // namespace attnscope
