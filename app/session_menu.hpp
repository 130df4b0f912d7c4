#pragma once
// File ▸ Save session… / Open session… (docs/session-format.md): the window's state as one small
// JSON file, so a figure can be made again. The source's files are hashed (SHA-256) off the GUI
// thread; the file is written atomically and never through a link. Opening a bad file changes
// nothing; a source whose files changed on disk since is opened anyway, and says so.
#include <QString>
#include <functional>
#include <vector>

#include "app/reporting_part.hpp"
#include "app/window_actions.hpp"

class QMenu;
class QWidget;

namespace attnscope {

class SessionMenu : public ReportingPart {
    Q_OBJECT
public:
    SessionMenu(QWidget& window, WindowActions actions);
    void fill(QMenu* file);

    void save(const QString& path);  // → wrote(path) or failed(…), once the files are hashed
    bool open(const QString& path);  // false: refused with failed(…), nothing changed
    bool busy() const { return hashing_ > 0; }

signals:
    // The session's source was opened but some of its files differ from the session's (changed
    // or missing): the text names them. Also shown as failed(…) by the window.
    void sourceChanged(const QString& text);

private:
    void saveDialog();
    void openDialog();
    void hashThen(const QString& source, std::function<void(std::vector<SessionFile>)> done);
    void compareFiles(const SavedSession& session);

    QWidget& window_;
    WindowActions actions_;
    int hashing_ = 0;
};

}  // namespace attnscope
