#pragma once
// A sheet over the views while a model opens (1–3 s): "Opening <model>…" instead of the previous
// lesson's heatmap, which would look like the model's. It covers its parent and follows its size.
#include <QLabel>

namespace attnscope {

class LoadingCover : public QLabel {
    Q_OBJECT
public:
    explicit LoadingCover(QWidget* covered);
    void cover(const QString& text);  // shows `text` over the whole parent
    void uncover() { hide(); }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace attnscope
