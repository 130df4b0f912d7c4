#include "app/loading_cover.hpp"

#include <QEvent>

namespace attnscope {

LoadingCover::LoadingCover(QWidget* covered) : QLabel(covered) {
    setObjectName("loadingCover");
    setAlignment(Qt::AlignCenter);
    setWordWrap(true);
    setAutoFillBackground(true);
    setStyleSheet("QLabel#loadingCover { background: palette(window); color: palette(window-text); }");
    hide();
    covered->installEventFilter(this);
}

void LoadingCover::cover(const QString& text) {
    QFont big = parentWidget()->font();
    big.setPointSizeF(big.pointSizeF() * 1.5);  // follows the zoom: the window font is inherited
    setFont(big);
    setText(text);
    setGeometry(parentWidget()->rect());
    show();
    raise();
}

bool LoadingCover::eventFilter(QObject* watched, QEvent* event) {
    if (watched == parentWidget() && event->type() == QEvent::Resize) setGeometry(parentWidget()->rect());
    return QLabel::eventFilter(watched, event);
}

}  // namespace attnscope
