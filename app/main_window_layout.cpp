// The window's central area: the lesson's title and sentence above the worked example and the
// tabs (main_window.cpp builds the tabs, main_window_source.cpp the source's own panels).
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QTabWidget>
#include <QSplitter>
#include <QVBoxLayout>

#include "app/main_window.hpp"
#include "app/main_window_parts.hpp"
#include "app/presentation.hpp"
#include "app/source/lesson_trace_source.hpp"
#include "ui/attention/attention_controls.hpp"
#include "ui/attention/piece_strip.hpp"
#include "ui/common/folding_text.hpp"
#include "ui/common/theme_colors.hpp"
#include "ui/editor/lesson_editor.hpp"
#include "ui/step/matrix_panel.hpp"
#include "ui/step/stage_bar.hpp"
#include "ui/step/step_navigator.hpp"
#include "ui/step/token_strip.hpp"

namespace attnscope {

namespace {

QLabel* statusLabel(const char* name, const char* style, QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    // Its width is the window's to give: a notice quoting one unbroken word (4,096 pasted letters,
    // a URL) would otherwise widen the window past the screen (27,691 px at 4,096 letters), and
    // every plot in it. Such a word is cut at the window's edge; text with spaces wraps as before.
    label->setSizePolicy(QSizePolicy::Ignored, label->sizePolicy().verticalPolicy());
    theme::setThemedStyleSheet(label, QLatin1String(style));  // colours from ui/common/theme_colors
    return label;
}

}  // namespace

// What the user types and reads first: the title, the description, the sentence, the heads to
// switch off and an encoder–decoder lesson's stage.
void MainWindow::buildInputs(QWidget* central) {
    ui_->title = new QLabel(central);
    ui_->title->setObjectName("lessonTitle");
    ui_->title->setWordWrap(true);  // a long title at 200 % must not widen the window past the screen
    ui_->description = new FoldingText(central);
    ui_->description->setObjectName("descriptionBox");
    ui_->description->label()->setObjectName("description");
    ui_->sentence = new QLineEdit(central);
    ui_->sentence->setObjectName("sentence");
    ui_->sentence->setPlaceholderText(lesson_->sentencePlaceholder());
    ui_->ablate = new QLineEdit(central);
    ui_->ablate->setObjectName("ablateEdit");
    ui_->ablate->setPlaceholderText(tr("none (e.g. 1:2,2:1)"));
    ui_->ablate->setToolTip(tr("Heads to switch off, LAYER:HEAD counted from 1: their output becomes zero"));
    ui_->stages = new StageBar(central);
    ui_->stages->setObjectName("stageBar");
}

QWidget* MainWindow::buildCentralWidget() {
    auto* central = new QWidget(this);
    buildInputs(central);
    ui_->tokens = new TokenStrip(central);
    ui_->tokens->setObjectName("tokens");
    ui_->pieces = new PieceStrip(central);
    ui_->pieces->setObjectName("pieces");
    ui_->notices = statusLabel("notices", "QLabel { background: {noticeFill}; color: {noticeText}; border: 1px solid {noticeBorder};"
                                      " padding: 4px; }", central);
    ui_->rounding = statusLabel("rounding", "QLabel { color: {emphasisText}; font-weight: bold; }", central);
    ui_->rounding->setWordWrap(false);
    ui_->error = statusLabel("error", "QLabel { color: {errorText}; font-weight: bold; }", central);
    ui_->error->hide();
    ui_->controls = new AttentionControls(central);
    ui_->navigator = new StepNavigator(central);
    ui_->navigator->setObjectName("navigator");
    auto* splitter = new QSplitter(Qt::Horizontal, central);
    splitter->addWidget(ui_->navigator);
    splitter->addWidget(buildTabs(central));
    buildSourcePanels();
    splitter->addWidget(ui_->predictionsArea);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({250, 1000, 330});

    auto* sentenceRow = new QHBoxLayout;
    auto* sentenceLabel = new QLabel(tr("Sentence:"), central);
    sentenceRow->addWidget(sentenceLabel);
    sentenceRow->addWidget(ui_->sentence, 1);
    auto* ablateLabel = new QLabel(tr("Switch heads off:"), central);
    ablateLabel->setObjectName("ablateLabel");
    sentenceRow->addWidget(ablateLabel);
    sentenceRow->addWidget(ui_->ablate);
    auto* statusRow = new QHBoxLayout;
    statusRow->addWidget(ui_->rounding);
    statusRow->addWidget(ui_->error, 1);
    auto* layout = new QVBoxLayout(central);
    for (QWidget* w : std::initializer_list<QWidget*>{ui_->title, ui_->description}) layout->addWidget(w);
    layout->addLayout(sentenceRow);
    layout->addWidget(ui_->stages);
    for (QWidget* w : std::initializer_list<QWidget*>{ui_->controls, ui_->tokens, ui_->pieces, ui_->notices}) layout->addWidget(w);
    layout->addLayout(statusRow);
    layout->addWidget(splitter, 1);
    // On a projector: what presentation mode hides (the worked example gets the height) and what the zoom resizes.
    ui_->presentation->setStage({ui_->title, ui_->matrixPanel, splitter, ui_->tabs, ui_->editor,
                                 {ui_->error, ui_->predictionsArea, ui_->ablate, ablateLabel, ui_->description, ui_->tokens,
                                  sentenceLabel, ui_->sentence, ui_->controls}});  // headers name the tokens, titles the layer
    return central;
}

}  // namespace attnscope
