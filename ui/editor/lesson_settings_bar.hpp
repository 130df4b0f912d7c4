#pragma once
// Under the editor's words and dimensions: the lesson's title, description and feature names in
// the interface language, whether it scales by √d_k and masks later tokens, what words
// missing from its table get, and the positional encoding (RoPE's base and pairing). It only asks:
// the lesson document makes the change (core's applyLessonSettings), as for words and dimensions.
#include <QWidget>

#include "core/lesson/lesson_edit.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;

namespace attnscope {

class LessonSettingsBar : public QWidget {
    Q_OBJECT
public:
    explicit LessonSettingsBar(QWidget* parent = nullptr);
    void showSettings(const LessonSettings& settings);
    LessonSettings typedSettings() const;

    QLineEdit* titleEdit() const { return title_; }
    QLineEdit* descriptionEdit() const { return description_; }
    QLineEdit* featuresEdit() const { return features_; }
    QCheckBox* scaleBox() const { return scale_; }
    QCheckBox* causalBox() const { return causal_; }
    QComboBox* unknownWordsBox() const { return unknownWords_; }
    QComboBox* positionalBox() const { return positional_; }
    QDoubleSpinBox* ropeBaseBox() const { return ropeBase_; }
    QComboBox* ropePairingBox() const { return ropePairing_; }

signals:
    void settingsRequested(const attnscope::LessonSettings& settings);

private:
    QLineEdit *title_ = nullptr, *description_ = nullptr, *features_ = nullptr;
    std::vector<std::string> shownFeatureNames_;  // what showSettings put in features_, kept exactly
    QString shownFeaturesText_;
    QCheckBox *scale_ = nullptr, *causal_ = nullptr;
    QComboBox* unknownWords_ = nullptr;
    QComboBox *positional_ = nullptr, *ropePairing_ = nullptr;
    QDoubleSpinBox* ropeBase_ = nullptr;

    void buildPositionalRow();
    void enableRopeFields();
};

}  // namespace attnscope
