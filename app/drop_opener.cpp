#include "app/drop_opener.hpp"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMainWindow>
#include <QMimeData>
#include <QUrl>

#include "app/recent_files.hpp"

namespace attnscope {

namespace {

// The first local file or folder the drag carries; empty for text, web links and the like.
QString droppedPath(const QMimeData* mime) {
    if (!mime || !mime->hasUrls()) return QString();
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile()) return url.toLocalFile();
    return QString();
}

}  // namespace

DropOpener::DropOpener(QMainWindow& window, WindowActions actions)
    : QObject(&window), window_(window), actions_(std::move(actions)) {
    setObjectName("dropOpener");
    window_.setAcceptDrops(true);
    window_.installEventFilter(this);
}

bool DropOpener::eventFilter(QObject* watched, QEvent* event) {
    if (watched != &window_) return QObject::eventFilter(watched, event);
    if (event->type() == QEvent::DragEnter || event->type() == QEvent::DragMove) {
        auto* drag = static_cast<QDragMoveEvent*>(event);  // QDragEnterEvent is a QDragMoveEvent
        if (droppedPath(drag->mimeData()).isEmpty()) return false;
        drag->acceptProposedAction();
        return true;
    }
    if (event->type() == QEvent::Drop) {
        auto* drop = static_cast<QDropEvent*>(event);
        const QString path = droppedPath(drop->mimeData());
        if (path.isEmpty()) return false;
        drop->acceptProposedAction();
        openLessonOrModel(actions_, path);
        return true;
    }
    return QObject::eventFilter(watched, event);
}

}  // namespace attnscope
