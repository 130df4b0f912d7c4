#pragma once
// File ▸ New lesson: the few choices a lesson starts from (titles, the words, feature names,
// dimensions, projections, scaling, causal mask, decimals). It only asks: core's newLesson makes
// the lesson, the editor then fills its numbers (or a pasted table does).
#include <QDialog>

#include "core/lesson/lesson_edit.hpp"

class QCheckBox;
class QLineEdit;
class QSpinBox;

namespace attnscope {

class NewLessonDialog : public QDialog {
    Q_OBJECT
public:
    explicit NewLessonDialog(QWidget* parent = nullptr);
    NewLessonSpec spec() const;

    // The fields, for the window's tests.
    QLineEdit* englishTitle() const { return englishTitle_; }
    QLineEdit* chineseTitle() const { return chineseTitle_; }
    QLineEdit* words() const { return words_; }
    QLineEdit* features() const { return features_; }
    QSpinBox* dModel() const { return dModel_; }
    QSpinBox* heads() const { return heads_; }
    QSpinBox* kvHeads() const { return kvHeads_; }
    QSpinBox* dK() const { return dK_; }
    QSpinBox* decimals() const { return decimals_; }
    QCheckBox* projections() const { return projections_; }
    QCheckBox* scaling() const { return scaling_; }
    QCheckBox* causal() const { return causal_; }

private:
    QLineEdit *englishTitle_ = nullptr, *chineseTitle_ = nullptr, *words_ = nullptr, *features_ = nullptr;
    QSpinBox *dModel_ = nullptr, *heads_ = nullptr, *kvHeads_ = nullptr, *dK_ = nullptr, *decimals_ = nullptr;
    QCheckBox *projections_ = nullptr, *scaling_ = nullptr, *causal_ = nullptr;
};

}  // namespace attnscope
