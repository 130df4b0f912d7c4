#include "ui/editor/lesson_settings_bar.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>

namespace attnscope {

LessonSettingsBar::LessonSettingsBar(QWidget* parent) : QWidget(parent) {
    title_ = new QLineEdit(this);
    title_->setObjectName("lessonTitleEdit");
    description_ = new QLineEdit(this);
    description_->setObjectName("lessonDescriptionEdit");
    features_ = new QLineEdit(this);
    features_->setObjectName("lessonFeaturesEdit");
    features_->setPlaceholderText(tr("optional, separated by commas: noun, animate, place"));
    scale_ = new QCheckBox(tr("Divide the scores by √d_k"), this);
    causal_ = new QCheckBox(tr("Causal mask"), this);  // short: the editor must fit 1600 px at 200 % zoom
    causal_->setToolTip(tr("Each token sees only itself and earlier ones."));
    unknownWords_ = new QComboBox(this);
    unknownWords_->setObjectName("unknownWordsBox");
    // In the order of UnknownWords.
    unknownWords_->addItems({tr("made up by the hash rule"), tr("zero vectors"), tr("not run: ask for their vectors")});
    unknownWords_->setToolTip(tr("What a typed word that is not in the embedding table gets. A banner names "
                                 "every made-up word."));
    auto* apply = new QPushButton(tr("Apply settings"), this);
    apply->setObjectName("applySettings");
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(new QLabel(tr("Title:"), this), 0, 0);
    grid->addWidget(title_, 0, 1, 1, 3);
    grid->addWidget(new QLabel(tr("Description:"), this), 1, 0);
    grid->addWidget(description_, 1, 1, 1, 3);
    grid->addWidget(new QLabel(tr("Feature names:"), this), 2, 0);
    grid->addWidget(features_, 2, 1, 1, 3);
    grid->addWidget(scale_, 3, 1);
    grid->addWidget(causal_, 3, 2);
    grid->addWidget(apply, 3, 3);
    grid->addWidget(new QLabel(tr("Words not in the table:"), this), 4, 0);
    grid->addWidget(unknownWords_, 4, 1, 1, 2);
    buildPositionalRow();
    // RoPE's pairing on a row of its own: beside the base it made the editor wider than 1280×720's tab.
    grid->addWidget(new QLabel(tr("Positions:"), this), 5, 0);
    grid->addWidget(positional_, 5, 1);
    grid->addWidget(ropeBase_, 5, 2, 1, 2);
    grid->addWidget(ropePairing_, 6, 1);
    grid->setColumnStretch(1, 1);
    connect(apply, &QPushButton::clicked, this, [this] { emit settingsRequested(typedSettings()); });
}

void LessonSettingsBar::buildPositionalRow() {
    positional_ = new QComboBox(this);
    positional_->setObjectName("positionalBox");
    // In the order of PositionalKind.
    positional_->addItems({tr("none"), tr("sinusoidal (added to X)"), tr("the lesson's table (added to X)"),
                           tr("rotary, RoPE (Q and K turned)")});
    ropeBase_ = new QDoubleSpinBox(this);
    ropeBase_->setObjectName("ropeBaseBox");
    ropeBase_->setRange(0.01, 1e12);
    ropeBase_->setDecimals(2);  // a lesson's base is kept as written (e.g. 10000 or 500000)
    ropeBase_->setPrefix(tr("base θ = "));
    ropeBase_->setToolTip(tr("RoPE turns pair i (counted from 1) by m·θ_i with θ_i = base^(−2(i−1)/d_k); d_k must be even."));
    ropePairing_ = new QComboBox(this);
    ropePairing_->setObjectName("ropePairingBox");
    ropePairing_->addItems({tr("pairs (i, i + d_k/2), Hugging Face"), tr("pairs (2i−1, 2i), the RoPE paper")});
    connect(positional_, &QComboBox::currentIndexChanged, this, [this] { enableRopeFields(); });
    enableRopeFields();
}

void LessonSettingsBar::enableRopeFields() {
    const bool rope = positional_->currentIndex() == static_cast<int>(PositionalKind::Rotary);
    ropeBase_->setEnabled(rope);
    ropePairing_->setEnabled(rope);
}

void LessonSettingsBar::showSettings(const LessonSettings& settings) {
    title_->setText(QString::fromStdString(settings.title));
    description_->setText(QString::fromStdString(settings.description));
    QStringList names;
    for (const std::string& name : settings.featureNames) names << QString::fromStdString(name);
    features_->setText(names.join(QStringLiteral(", ")));
    shownFeatureNames_ = settings.featureNames;
    shownFeaturesText_ = features_->text();
    scale_->setChecked(settings.scale);
    causal_->setChecked(settings.causalMask);
    unknownWords_->setCurrentIndex(static_cast<int>(settings.unknownWords));
    positional_->setCurrentIndex(static_cast<int>(settings.positional));
    ropeBase_->setValue(settings.ropeBase);
    ropePairing_->setCurrentIndex(settings.ropeInterleaved ? 1 : 0);
    enableRopeFields();
}

LessonSettings LessonSettingsBar::typedSettings() const {
    LessonSettings settings;
    settings.title = title_->text().trimmed().toUtf8().toStdString();
    settings.description = description_->text().trimmed().toUtf8().toStdString();
    // Names as shown stay as they are: a name may itself hold a comma ("pair 1, first").
    if (features_->text() == shownFeaturesText_) settings.featureNames = shownFeatureNames_;
    else
        for (const QString& name : features_->text().split(QRegularExpression(QStringLiteral("[,，、]")), Qt::SkipEmptyParts))
            if (!name.trimmed().isEmpty()) settings.featureNames.push_back(name.trimmed().toUtf8().toStdString());
    settings.scale = scale_->isChecked();
    settings.causalMask = causal_->isChecked();
    settings.unknownWords = static_cast<UnknownWords>(unknownWords_->currentIndex());
    settings.positional = static_cast<PositionalKind>(positional_->currentIndex());
    settings.ropeBase = ropeBase_->value();
    settings.ropeInterleaved = ropePairing_->currentIndex() == 1;
    return settings;
}

}  // namespace attnscope
