#include "app/session_menu.hpp"

#include <QFileDialog>
#include <QMenu>
#include <QPointer>
#include <QThread>
#include <memory>

#include "app/file_hashes.hpp"
#include "core/io/atomic_file.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/qt_text.hpp"

namespace attnscope {

namespace {

QString fileList(const std::vector<std::string>& names) {
    QStringList list;
    for (const std::string& n : names) list << qs(n);
    return list.join(", ");
}

}  // namespace

SessionMenu::SessionMenu(QWidget& window, WindowActions actions)
    : ReportingPart(&window), window_(window), actions_(std::move(actions)) {}

void SessionMenu::fill(QMenu* file) {
    file->addAction(tr("Save s&ession…"), this, &SessionMenu::saveDialog)->setObjectName("saveSession");
    file->addAction(tr("Open sess&ion…"), this, &SessionMenu::openDialog)->setObjectName("openSession");
}

void SessionMenu::saveDialog() {
    const QString path = QFileDialog::getSaveFileName(&window_, tr("Save session"), "session.json",
                                                      tr("AttnScope sessions (*.json)"));
    if (!path.isEmpty()) save(path);
}

void SessionMenu::openDialog() {
    const QString path = QFileDialog::getOpenFileName(&window_, tr("Open session"), QString(),
                                                      tr("AttnScope sessions (*.json);;All files (*)"));
    if (!path.isEmpty()) open(path);
}

// The digest is computed on a thread of its own: a model's weights are gigabytes.
void SessionMenu::hashThen(const QString& source, std::function<void(std::vector<SessionFile>)> done) {
    auto files = std::make_shared<std::vector<SessionFile>>();
    QThread* thread = QThread::create([source, files] { *files = hashSourceFiles(source); });
    ++hashing_;
    connect(thread, &QThread::finished, this, [this, thread, files, done = std::move(done)] {
        --hashing_;
        thread->deleteLater();
        done(std::move(*files));
    });
    thread->start();
}

void SessionMenu::save(const QString& path) {
    SavedSession session = actions_.captureSession();
    if (session.source.empty())
        return emit failed(tr("The session could not be saved"),
                           tr("Save the lesson to a file first: a session names the file it opens."));
    hashThen(actions_.sourceFiles(), [this, path, session](std::vector<SessionFile> files) mutable {
        session.files = std::move(files);
        if (auto error = writeRegularFileAtomically(path.toStdString(), sessionToJson(session)); !error.ok())
            return emit failed(tr("The session could not be saved"), coreErrorText(error.error()));
        emit wrote(path);
    });
}

bool SessionMenu::open(const QString& path) {
    const auto session = readSessionFile(path.toStdString());
    if (!session) {
        emit failed(tr("The session could not be opened"), tr("%1\n\nWhat is open stays.").arg(coreErrorText(session.error())));
        return false;
    }
    const SavedSession saved = session.value();
    actions_.restoreSession(saved, [this, saved] { compareFiles(saved); });
    return true;
}

// Once the source is open: its files now against the session's.
void SessionMenu::compareFiles(const SavedSession& session) {
    hashThen(actions_.sourceFiles(), [this, session](std::vector<SessionFile> now) {
        const std::vector<std::string> changed = changedFiles(session.files, now);
        if (changed.empty()) return;
        const QString text = tr("%1 changed on disk since the session was saved: %2. It was opened as it is now; "
                                "numbers may differ from the saved figure.")
                                 .arg(qs(session.source), fileList(changed));
        emit sourceChanged(text);
        emit failed(tr("The session's source changed"), text);
    });
}

}  // namespace attnscope
