#include "ui/editor/lesson_editor.hpp"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/editor/lesson_block_bar.hpp"
#include "ui/editor/lesson_settings_bar.hpp"
#include "ui/editor/lesson_structure_bar.hpp"
#include "ui/common/core_language.hpp"
#include "ui/step/matrix_table.hpp"
#include "ui/common/theme_colors.hpp"

namespace attnscope {

namespace {

constexpr int kRowsKeptShown = 4;  // d_model of the built-in lessons

// Asks for its whole form's height where there is room (QScrollArea caps its wish at 24 lines of
// text, and the form scrolled on a 1920×1080 screen), and scrolls where there is not.
class FormArea : public QScrollArea {
public:
    using QScrollArea::QScrollArea;
    QSize sizeHint() const override {
        if (!widget()) return QScrollArea::sizeHint();
        return widget()->sizeHint() + 2 * QSize(frameWidth(), frameWidth());
    }

protected:
    // The form's rows changed (a lesson, a language, a zoom): the editor's layout asks again.
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == widget() && event->type() == QEvent::LayoutRequest) updateGeometry();
        return QScrollArea::eventFilter(watched, event);
    }
};

}  // namespace

LessonEditor::LessonEditor(QWidget* parent) : QWidget(parent) {
    matrixBox_ = new QComboBox(this);
    matrixBox_->setObjectName("editMatrix");
    table_ = new MatrixTable(this);
    table_->setObjectName("editTable");
    table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                            QAbstractItemView::AnyKeyPressed | QAbstractItemView::SelectedClicked);
    // Wide enough to type "-0.0000" without scrolling inside the cell.
    table_->horizontalHeader()->setMinimumSectionSize(table_->fontMetrics().horizontalAdvance("-00.00000"));
    auto* model = new LessonMatrixModel(this);
    table_->setModel(model);
    message_ = new QLabel(this);
    message_->setObjectName("editMessage");
    message_->setWordWrap(true);
    structure_ = new LessonStructureBar(this);
    structure_->setObjectName("structureBar");
    settings_ = new LessonSettingsBar(this);
    settings_->setObjectName("settingsBar");
    block_ = new LessonBlockBar(this);
    block_->setObjectName("blockBar");

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Matrix:"), this));
    top->addWidget(matrixBox_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(new QLabel(tr("Double-click a number to change it; every view recomputes at once."), this));
    layout->addWidget(table_, 1);
    layout->addWidget(buildForm());
    layout->addWidget(message_);

    connect(matrixBox_, &QComboBox::currentIndexChanged, this, [this, model](int i) {
        if (i >= 0 && i < static_cast<int>(choices_.size())) model->setChoice(choices_[i]);
        sizeTable();
    });
    connect(model, &LessonMatrixModel::lessonEdited, this, [this](const QString& cell) {
        showMessage(QString(), false);
        emit lessonEdited(cell);
    });
    connect(model, &LessonMatrixModel::editRejected, this, [this](const QString& text) {
        showMessage(text, true);
        emit editRejected(text);
    });
    connectStructureBar();
}

// Words, dimensions, block and settings: at 1280×720 their rows need more height than the tab
// has beside the table, and squeezed below their minimum they printed over each other. They keep
// their heights and scroll (vertically only: the bars already fit the width) instead.
QScrollArea* LessonEditor::buildForm() {
    auto* form = new QWidget;
    auto* rows = new QVBoxLayout(form);
    rows->setContentsMargins(0, 0, 0, 0);
    rows->addWidget(structure_);
    rows->addWidget(block_);
    rows->addWidget(settings_);
    rows->addStretch(1);
    auto* scroll = new FormArea(this);
    scroll->setObjectName("editorForm");
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(form);
    return scroll;
}

// Columns as wide as their numbers; the table at least as high as a lesson's usual matrix (up to
// kRowsKeptShown rows) whatever the rows below want: the numbers are what the tab edits.
void LessonEditor::sizeTable() {
    table_->resizeColumnsToContents();
    const int rows = std::min(model()->rowCount(), kRowsKeptShown);
    table_->setMinimumHeight(table_->horizontalHeader()->sizeHint().height() + rows * table_->verticalHeader()->defaultSectionSize() +
                             2 * table_->frameWidth());
}

void LessonEditor::connectStructureBar() {
    connect(structure_, &LessonStructureBar::addWord, this, &LessonEditor::wordAddRequested);
    connect(structure_, &LessonStructureBar::renameSelected, this, [this](const QString& to) {
        if (const QString from = selectedWord(); !from.isEmpty()) emit wordRenameRequested(from, to);
    });
    connect(structure_, &LessonStructureBar::deleteSelected, this, [this] {
        if (const QString word = selectedWord(); !word.isEmpty()) emit wordDeleteRequested(word);
    });
    connect(structure_, &LessonStructureBar::dimensionsRequested, this, &LessonEditor::dimensionsRequested);
    connect(settings_, &LessonSettingsBar::settingsRequested, this, &LessonEditor::settingsRequested);
    connect(block_, &LessonBlockBar::blockRequested, this, &LessonEditor::blockRequested);
}

QString LessonEditor::selectedWord() {
    const QModelIndex at = table_->currentIndex();
    if (model()->choice().kind == LessonMatrixKind::Embeddings && at.isValid())
        return model()->headerData(at.row(), Qt::Vertical, Qt::DisplayRole).toString();
    showMessage(tr("Select a word's row in the embedding table first."), true);
    return QString();
}

void LessonEditor::setLesson(Lesson* lesson) {
    model()->setLesson(lesson);
    choices_ = lesson ? editableMatrices(*lesson) : std::vector<LessonMatrixChoice>{};
    const QSignalBlocker blocker(matrixBox_);
    matrixBox_->clear();
    for (const auto& c : choices_) matrixBox_->addItem(c.name);
    matrixBox_->setCurrentIndex(choices_.empty() ? -1 : 0);
    if (!choices_.empty()) model()->setChoice(choices_[0]);
    sizeTable();
    if (lesson) structure_->showDimensions(dimensionsOf(*lesson), lesson->projections);
    if (lesson) settings_->showSettings(settingsOf(*lesson, lessonLanguageCode(coreLanguage())));
    if (lesson) block_->showChoice(blockChoiceOf(*lesson));
    showMessage(QString(), false);
}

void LessonEditor::reload() {
    const LessonMatrixChoice kept = model()->choice();
    const QModelIndex at = table_->currentIndex();
    setLesson(model()->lesson());
    if (!selectMatrix(kept.kind, kept.head, kept.layer, kept.part)) return;
    if (at.isValid() && at.row() < model()->rowCount() && at.column() < model()->columnCount())
        table_->setCurrentIndex(model()->index(at.row(), at.column()));
}

void LessonEditor::refresh() {
    if (model()->rowCount() > 0)
        emit model()->dataChanged(model()->index(0, 0), model()->index(model()->rowCount() - 1, model()->columnCount() - 1));
}

bool LessonEditor::selectMatrix(LessonMatrixKind kind, int head, int layer, LessonLayerPart part) {
    for (std::size_t i = 0; i < choices_.size(); ++i)
        if (choices_[i].kind == kind && choices_[i].head == head && choices_[i].layer == layer && choices_[i].part == part) {
            matrixBox_->setCurrentIndex(static_cast<int>(i));
            return true;
        }
    return false;
}

void LessonEditor::showMessage(const QString& text, bool error) {
    message_->setText(text);
    theme::setThemedStyleSheet(message_, error ? QStringLiteral("QLabel { color: {errorText}; font-weight: bold; }") : QString());
}

LessonMatrixModel* LessonEditor::model() const { return static_cast<LessonMatrixModel*>(table_->model()); }

QString LessonEditor::message() const { return message_->text(); }

}  // namespace attnscope
