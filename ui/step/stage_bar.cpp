#include "ui/step/stage_bar.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QTableWidget>

#include "core/export/encoder_decoder_export.hpp"
#include "core/text/messages.hpp"
#include "core/trace/explain.hpp"
#include "ui/common/core_language.hpp"
#include "ui/common/qt_text.hpp"

namespace attnscope {

StageBar::StageBar(QWidget* parent) : QWidget(parent) {
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    auto* label = new QLabel(tr("Stage:"), this);
    choice_ = new QComboBox(this);
    choice_->setObjectName("stageChoice");
    // In the order the explainers draw them; the item's data is the EncoderDecoderStage.
    choice_->addItem(tr("1. Encoder: self-attention over the source (output M)"), static_cast<int>(EncoderDecoderStage::Encoder));
    choice_->addItem(tr("2. Decoder: masked self-attention (output Y₁)"), static_cast<int>(EncoderDecoderStage::DecoderSelf));
    choice_->addItem(tr("3. Decoder: cross-attention to M, output head and labels"), static_cast<int>(EncoderDecoderStage::Cross));
    choice_->setToolTip(tr("Every view shows the chosen stage of the encoder–decoder"));
    label->setBuddy(choice_);
    table_ = new QTableWidget(this);
    table_->setObjectName("teacherForcing");
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // sized to its contents: no bar to reserve room for
    table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Compact, so the worked example keeps its height at 1280×720: no row of position numbers (the
    // decoder input row names each column) and rows a line of text high.
    table_->horizontalHeader()->hide();
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table_->setToolTip(tr("Teacher forcing: each position is scored on the word after its input word"));
    mean_ = new QLabel(this);
    mean_->setObjectName("meanLoss");
    mean_->setWordWrap(true);
    row->addWidget(label);
    row->addWidget(choice_);
    row->addWidget(table_);
    row->addWidget(mean_, 1);
    row->addStretch();  // without the labels (other stages) the box keeps its width
    choice_->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    connect(choice_, &QComboBox::currentIndexChanged, this,
            [this] { emit stageChosen(stage()); });
}

EncoderDecoderStage StageBar::stage() const { return static_cast<EncoderDecoderStage>(choice_->currentData().toInt()); }

void StageBar::choose(EncoderDecoderStage stage) { choice_->setCurrentIndex(choice_->findData(static_cast<int>(stage))); }

void StageBar::showRun(const EncoderDecoderRun& run, EncoderDecoderStage stage, int decimals) {
    {
        const QSignalBlocker blocker(choice_);  // showing the source's stage is no new choice
        choice_->setCurrentIndex(choice_->findData(static_cast<int>(stage)));
    }
    const bool labels = stage == EncoderDecoderStage::Cross;
    table_->setVisible(labels);
    mean_->setVisible(labels);
    if (labels) showTeacherForcing(run, decimals);
}

// Core's table turned on its side: a column per position, so four short rows fit beside the choice.
void StageBar::showTeacherForcing(const EncoderDecoderRun& run, int decimals) {
    const Table t = teacherForcingTable(run, decimals, coreLanguage());
    table_->clear();
    table_->setRowCount(static_cast<int>(t.columns.size()));
    table_->setColumnCount(static_cast<int>(t.rows.size()));
    QStringList rowNames, positions;
    for (const std::string& name : t.columns) rowNames << qs(name);
    for (const std::string& position : t.rows) positions << qs(position);
    table_->setVerticalHeaderLabels(rowNames);
    table_->setHorizontalHeaderLabels(positions);
    for (std::size_t r = 0; r < t.cells.size(); ++r)
        for (std::size_t c = 0; c < t.cells[r].size(); ++c) {
            auto* item = new QTableWidgetItem(qs(t.cells[r][c]));
            item->setTextAlignment(Qt::AlignCenter);
            table_->setItem(static_cast<int>(c), static_cast<int>(r), item);
        }
    table_->resizeColumnsToContents();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 2);  // the font follows View ▸ Zoom
    const QString mean = qs(fillMessage(message(MessageId::TeacherForcingMean, coreLanguage()),
                                        {std::to_string(run.labels.size()), formatNumber(run.meanLoss, decimals)}));
    mean_->setText(mean);
}

}  // namespace attnscope
