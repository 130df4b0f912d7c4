#pragma once
// Under the editor's table: the words of the embedding table (add, rename, delete) and the
// lesson's dimensions (d_model, H, H_kv, d_k, d_v). It only asks: the change is made by whoever
// listens (the lesson document, through core/lesson/lesson_edit), refused changes come back as
// the editor's message.
#include <QWidget>

#include "core/lesson/lesson_edit.hpp"

class QLineEdit;
class QSpinBox;

namespace attnscope {

class LessonStructureBar : public QWidget {
    Q_OBJECT
public:
    explicit LessonStructureBar(QWidget* parent = nullptr);
    // Without projections (Q = K = V = X) d_k and d_v follow d_model: their boxes are disabled.
    void showDimensions(const LessonDimensions& dims, bool projections);
    QString typedWord() const;

signals:
    void addWord(const QString& word);
    void renameSelected(const QString& to);
    void deleteSelected();
    void dimensionsRequested(const LessonDimensions& dims);

private:
    QLineEdit* word_ = nullptr;
    bool projections_ = true;
    QSpinBox *dModel_ = nullptr, *heads_ = nullptr, *kvHeads_ = nullptr, *dK_ = nullptr, *dV_ = nullptr;
    int shownHeads_ = 1;  // H as last shown or typed: H_kv follows it while it says "one per head"
};

}  // namespace attnscope
