#include "ui/beyond/beyond_view.hpp"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui/common/job_progress.hpp"
#include "ui/common/qt_text.hpp"

namespace attnscope {

namespace {

const HeadEffect* effectOf(const HeadEffects* effects, HeadRef head) {
    if (!effects) return nullptr;
    for (const HeadEffect& e : effects->heads)
        if (e.head == head) return &e;
    return nullptr;
}

QTableWidgetItem* number(double value) {
    auto* item = new QTableWidgetItem(QString::number(value, 'f', 3));
    item->setData(Qt::UserRole, value);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

}  // namespace

BeyondView::BeyondView(QWidget* parent) : QWidget(parent) {
    setObjectName("beyondWeights");
    caption_ = new QLabel(this);
    caption_->setObjectName("beyondCaption");
    caption_->setWordWrap(true);
    grid_ = new LensGrid;
    auto* gridArea = new QScrollArea;
    gridArea->setObjectName("lensArea");
    gridArea->setWidget(grid_);
    table_ = new QTableWidget(0, 4);
    table_->setObjectName("attributionTable");
    table_->setHorizontalHeaderLabels({tr("Head"), tr("Direct logit"), tr("Switched off: logit change"), tr("Switched off: p")});
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    attributionCaption_ = new QLabel;
    attributionCaption_->setObjectName("attributionCaption");
    attributionCaption_->setWordWrap(true);
    auto* side = new QWidget;
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(attributionCaption_);
    sideLayout->addWidget(table_, 1);
    // A row layout, not a splitter: the wrapped captions get the height their width needs.
    auto* panes = new QHBoxLayout;
    panes->addWidget(gridArea, 3);
    panes->addWidget(side, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(caption_);
    layout->addWidget(buildControls());
    layout->addLayout(panes, 1);
    showEmpty(QString());
}

QWidget* BeyondView::buildControls() {
    auto* box = new QWidget(this);
    topK_ = new QSpinBox(box);
    topK_->setObjectName("lensTopK");
    topK_->setRange(1, 10);
    topK_->setValue(3);
    prediction_ = new QComboBox(box);
    prediction_->setObjectName("attributedPrediction");
    progress_ = new JobProgress(tr("%v of %m"), "beyondProgress", "cancelBeyond", box);
    rank_ = new QPushButton(tr("Switch each head off"), box);
    rank_->setObjectName("beyondRank");
    rank_->setToolTip(tr("The ablation ranking beside the attribution: one run of the model per head."));
    rankingProgress_ = new JobProgress(tr("head %v of %m"), "beyondRankProgress", "cancelBeyondRank", box);
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Top tokens:"), box));
    row->addWidget(topK_);
    row->addWidget(new QLabel(tr("Attribute:"), box));
    row->addWidget(prediction_, 1);
    row->addWidget(progress_);
    row->addWidget(rank_);
    row->addWidget(rankingProgress_);
    row->addWidget(buildExportButton());
    progress_->setRunning(false);
    rankingProgress_->setRunning(false);
    connect(topK_, &QSpinBox::valueChanged, this, &BeyondView::requestChanged);
    connect(prediction_, &QComboBox::currentIndexChanged, this, &BeyondView::requestChanged);
    connect(progress_, &JobProgress::cancelRequested, this, &BeyondView::cancelRequested);
    connect(rank_, &QPushButton::clicked, this, &BeyondView::rankRequested);
    connect(rankingProgress_, &JobProgress::cancelRequested, this, &BeyondView::cancelRankingRequested);
    return box;
}

QToolButton* BeyondView::buildExportButton() {
    auto* button = new QToolButton(this);
    button->setObjectName("beyondExport");
    button->setText(tr("Export"));
    button->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(button);
    menu->addAction(tr("Logit lens as PNG…"), this, [this] { exportDialog(BeyondExport::LensPng); });
    menu->addAction(tr("Logit lens as SVG…"), this, [this] { exportDialog(BeyondExport::LensSvg); });
    menu->addAction(tr("Logit lens as CSV…"), this, [this] { exportDialog(BeyondExport::LensCsv); });
    menu->addAction(tr("Logit lens as JSON…"), this, [this] { exportDialog(BeyondExport::LensJson); });
    menu->addSeparator();
    menu->addAction(tr("Head attribution as CSV…"), this, [this] { exportDialog(BeyondExport::AttributionCsv); });
    menu->addAction(tr("Head attribution as JSON…"), this, [this] { exportDialog(BeyondExport::AttributionJson); });
    button->setMenu(menu);
    return button;
}

void BeyondView::exportDialog(BeyondExport kind) {
    static const char* const kNames[] = {"logit-lens.png", "logit-lens.svg", "logit-lens.csv",
                                         "logit-lens.json", "head-attribution.csv", "head-attribution.json"};
    const QString name = QString::fromLatin1(kNames[static_cast<int>(kind)]);
    const QString path = QFileDialog::getSaveFileName(this, tr("Export"), QDir::home().filePath(name),
                                                      QStringLiteral("*.") + name.section('.', -1));
    if (!path.isEmpty()) emit exportRequested(kind, path);
}

void BeyondView::showEmpty(const QString& why) {
    caption_->setText(why);
    grid_->setTable({});
    table_->setRowCount(0);
    attributionCaption_->clear();
    progress_->setRunning(false);
    rankingProgress_->setRunning(false);
}

void BeyondView::setPredictions(const QStringList& headings) {
    const QSignalBlocker blocker(prediction_);
    const int kept = prediction_->currentIndex();
    prediction_->clear();
    prediction_->addItems(headings);
    prediction_->setCurrentIndex(kept >= 0 && kept < headings.size() ? kept : 0);
    table_->setRowCount(0);
    rankingProgress_->setRunning(false);
}

void BeyondView::showProgress(int done, int total) {
    progress_->setRunning(true);
    if (total > 0) progress_->setProgress(done, total);
}

void BeyondView::showLens(LensTable table) {
    progress_->setRunning(false);
    caption_->setText(table.title);
    grid_->setTable(std::move(table));
}

void BeyondView::showCancelled(const QString& message) {
    progress_->setRunning(false);
    caption_->setText(grid_->table().title.isEmpty() ? message : grid_->table().title + "\n" + message);
}

void BeyondView::showAttribution(const LogitAttribution& a, const HeadEffects* effects, const Labeler& label) {
    rankingProgress_->setRunning(false);
    attributionCaption_->setText(
        tr("Direct logit attribution of “%1” at position %2 (logit %3): what each head writes there, through W_O, "
           "the final norm with its scale frozen and the output head. Largest first; beside it, switching the head off.")
            .arg(qs(label(a.token)))
            .arg(a.position + 1)
            .arg(a.logit, 0, 'f', 3));
    table_->setRowCount(static_cast<int>(a.heads.size()));
    for (int r = 0; r < table_->rowCount(); ++r) {
        const HeadAttribution& h = a.heads[static_cast<std::size_t>(r)];
        table_->setItem(r, 0, new QTableWidgetItem(QStringLiteral("%1:%2").arg(h.head.layer + 1).arg(h.head.head + 1)));
        table_->setItem(r, 1, number(h.logit));
        const HeadEffect* e = effectOf(effects, h.head);
        table_->setItem(r, 2, e ? number(e->logitAfter - effects->logitBefore) : new QTableWidgetItem);
        table_->setItem(r, 3, e ? number(e->after) : new QTableWidgetItem);
    }
}

void BeyondView::showAttributionError(const QString& message) {
    rankingProgress_->setRunning(false);
    attributionCaption_->setText(message);
    table_->setRowCount(0);
}

void BeyondView::showRankingProgress(int done, int total) {
    rankingProgress_->setRunning(true);
    if (total > 0) rankingProgress_->setProgress(done, total);
}

void BeyondView::showRankingMessage(const QString& message) {
    rankingProgress_->setRunning(false);
    attributionCaption_->setText(attributionCaption_->text() + "\n" + message);
}

int BeyondView::topK() const { return topK_->value(); }

int BeyondView::chosenPrediction() const { return std::max(0, prediction_->currentIndex()); }

QString BeyondView::caption() const { return caption_->text(); }

}  // namespace attnscope
