#include "ui/movement/movement_view.hpp"

#include <algorithm>

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "ui/common/job_progress.hpp"
#include "ui/common/plot_font.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/common/core_language.hpp"
#include "ui/common/fitting_tabs.hpp"
#include "ui/lab/lab_plots.hpp"
#include "ui/lab/worksheet_export.hpp"
#include "ui/movement/same_word_panel.hpp"

namespace attnscope {

namespace {

constexpr double kLaidOutForPoints = 9;  // the bars' minimum height was chosen for 9-point text
enum Column { WordColumn, DistanceColumn, CosineColumn, SourcesColumn };

QTableWidgetItem* number(double value, int decimals) {
    auto* item = new QTableWidgetItem(QString::number(value, 'f', decimals));
    item->setData(Qt::UserRole, value);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QString wordAt(const QStringList& words, int i) { return QStringLiteral("%1 %2").arg(i + 1).arg(words.value(i)); }

}  // namespace

MovementView::MovementView(QWidget* parent) : QWidget(parent) {
    setObjectName("movementView");
    caption_ = new QLabel(this);
    caption_->setObjectName("movementCaption");
    caption_->setWordWrap(true);
    table_ = new QTableWidget(0, 4, this);
    table_->setObjectName("movementTable");
    table_->setHorizontalHeaderLabels({tr("Word"), tr("‖y − x‖"), tr("cos(x, y)"), tr("New content from (largest first)")});
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);  // a word: the worksheet's (Export menu)
    // The sources wrap within their column rather than end in "…" (Chinese's full-width brackets at
    // 1280×720, or more sources per word): each row as high as its text, again when the column's width changes.
    table_->setWordWrap(true);
    connect(table_->horizontalHeader(), &QHeaderView::sectionResized, this, [this](int column) {
        if (column == SourcesColumn) table_->resizeRowsToContents();
    });
    auto* plot = new QCustomPlot(this);
    plot->setObjectName("movementBars");
    plot->setMinimumSize(200, 120);
    followWidgetFont(plot, kLaidOutForPoints);  // View ▸ Zoom reaches it through the application font
    bars_ = std::make_unique<CurvePlotBuilder>(plot);
    sameWord_ = new SameWordPanel(this);
    // The table beside one plot at a time, each the page's full height: at 1280×720 beside the
    // predictions two plots would leave the sources column no room, and stacked they are too flat.
    plots_ = new QTabWidget(this);
    plots_->setObjectName("movementPlots");
    keepEveryTabInSight(plots_);  // beside a table as wide as its rows (fitPanes)
    plots_->addTab(plot, tr("‖y − x‖ per word"));
    plots_->addTab(sameWord_, tr("One word in A and B"));
    panes_ = new QSplitter(Qt::Horizontal, this);
    panes_->setObjectName("movementPanes");
    panes_->setChildrenCollapsible(false);
    panes_->addWidget(table_);
    panes_->addWidget(plots_);
    connect(panes_, &QSplitter::splitterMoved, this, [this] { panesMoved_ = true; });
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(caption_);
    layout->addWidget(buildControls());
    layout->addWidget(panes_, 1);
    showEmpty(QString());
}

MovementView::~MovementView() = default;

QWidget* MovementView::buildControls() {
    auto* box = new QWidget(this);
    layer_ = new QComboBox(box);
    layer_->setObjectName("movementLayer");
    layer_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    sources_ = new QSpinBox(box);
    sources_->setObjectName("movementSources");
    sources_->setRange(1, 10);
    sources_->setValue(3);
    progress_ = new JobProgress(tr("layer %v of %m"), "movementProgress", "cancelMovement", box);
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("From x to y over:"), box));
    row->addWidget(layer_);
    row->addWidget(new QLabel(tr("Sources per word:"), box));
    row->addWidget(sources_);
    row->addStretch(1);
    row->addWidget(progress_);
    row->addWidget(buildExportButton());
    progress_->setRunning(false);
    connect(layer_, &QComboBox::currentIndexChanged, this, &MovementView::layerChosen);
    connect(sources_, &QSpinBox::valueChanged, this, &MovementView::fillRows);
    connect(progress_, &JobProgress::cancelRequested, this, &MovementView::cancelRequested);
    return box;
}

QToolButton* MovementView::buildExportButton() {
    auto* button = new QToolButton(this);
    button->setObjectName("movementExport");
    button->setText(tr("Export"));
    button->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(button);
    menu->addAction(tr("‖y − x‖ bars as PNG…"), this, [this] { exportDialog(MovementExport::BarsPng); });
    menu->addAction(tr("‖y − x‖ bars as SVG…"), this, [this] { exportDialog(MovementExport::BarsSvg); });
    menu->addAction(tr("Every word's movement as CSV…"), this, [this] { exportDialog(MovementExport::MovementCsv); });
    menu->addAction(tr("Every word's movement as JSON…"), this, [this] { exportDialog(MovementExport::MovementJson); });
    menu->addSeparator();
    menu->addAction(tr("Same word curve as PNG…"), this, [this] { exportDialog(MovementExport::CurvePng); });
    menu->addAction(tr("Same word curve as SVG…"), this, [this] { exportDialog(MovementExport::CurveSvg); });
    menu->addAction(tr("Same word curve as CSV…"), this, [this] { exportDialog(MovementExport::CurveCsv); });
    menu->addAction(tr("Same word curve as JSON…"), this, [this] { exportDialog(MovementExport::CurveJson); });
    menu->addSeparator();
    menu->addAction(tr("Worksheet of the selected word (Markdown, LaTeX or PDF)…"), this, [this] {
        if (const QString path = askWorksheetPath(this, QStringLiteral("movement-worksheet.md")); !path.isEmpty())
            emit exportRequested(MovementExport::Worksheet, path);
    });
    button->setMenu(menu);
    return button;
}

void MovementView::exportDialog(MovementExport kind) {
    static const char* const kNames[] = {"movement.png", "movement.svg", "movement.csv", "movement.json",
                                         "same-word.png", "same-word.svg", "same-word.csv", "same-word.json"};
    const QString name = QString::fromLatin1(kNames[static_cast<int>(kind)]);
    const QString path = QFileDialog::getSaveFileName(this, tr("Export"), QDir::home().filePath(name),
                                                      QStringLiteral("*.") + name.section('.', -1));
    if (!path.isEmpty()) emit exportRequested(kind, path);
}

void MovementView::showEmpty(const QString& why) {
    caption_->setText(why);
    shown_.reset();
    words_.clear();
    table_->setRowCount(0);
    bars_->begin(QString(), QString(), QString());
    bars_->plot()->setVisible(false);  // no empty axes
    progress_->setRunning(false);
}

void MovementView::setLayerCount(int layers) {
    const QSignalBlocker blocker(layer_);
    const int kept = layer_->currentIndex();
    layer_->clear();
    layer_->addItem(tr("the whole stack"));
    for (int l = 1; l <= layers; ++l) layer_->addItem(tr("layer %1").arg(l));
    layer_->setCurrentIndex(kept > 0 && kept < layer_->count() ? kept : 0);
}

void MovementView::showProgress(int done, int total) {
    progress_->setRunning(true);
    if (total > 0) progress_->setProgress(done, total);
}

void MovementView::showMessage(const QString& message) {
    progress_->setRunning(false);
    caption_->setText(message);
}

void MovementView::showMovement(const TokenMovement& m, const Trace& trace, LayerOutput output, int decimals) {
    progress_->setRunning(false);
    shown_ = m;
    decimals_ = decimals;
    words_ = tokenLabels(trace);
    sourceWords_.clear();
    for (const Token& t : trace.columnTokens()) sourceWords_ << QString::fromStdString(t.text);
    const QString span = m.layer ? tr("layer %1").arg(*m.layer + 1) : tr("the whole stack (layer 1 to %1)").arg(trace.layerCount());
    caption_->setText(m.layer ? tr("What %1 did to each word: x is its vector entering the layer, y leaving it (%2). "
                                   "‖y − x‖: how far it moved; cos(x, y): 1 when its direction kept. "
                                   "Its new content came from these words: ‖Σ_h α·v·W_O‖ of each source, largest first.")
                                    .arg(span, qs(layerOutputText(output, coreLanguage())))
                              : tr("What %1 did to each word: x is its vector entering layer 1, y leaving the last. "
                                   "‖y − x‖: how far it moved; cos(x, y): 1 when its direction kept. Choose a layer to see "
                                   "where each word's new content came from.")
                                    .arg(span));
    table_->setColumnHidden(SourcesColumn, !m.layer);
    fillRows();
    DrawnSeries series{tr("‖y − x‖"), {}, {}, DrawnSeries::Steps};
    for (const TokenMove& t : m.tokens) series.x.push_back(t.token), series.y.push_back(t.distance);
    bars_->plot()->setVisible(true);
    bars_->begin(tr("How far each word moved over %1").arg(span), QString(), tr("‖y − x‖"));
    bars_->add(series, labColour(0));
    bars_->setXLabels(words_);
    bars_->finish();
    bars_->plot()->legend->setVisible(false);  // one series, named by the title and the axis
    bars_->plot()->yAxis->setRangeLower(0);    // bars start at 0
    bars_->plot()->replot();
}

void MovementView::fillRows() {
    if (!shown_) return;
    table_->setRowCount(static_cast<int>(shown_->tokens.size()));
    for (int row = 0; row < table_->rowCount(); ++row) {
        const TokenMove& move = shown_->tokens[static_cast<std::size_t>(row)];
        table_->setItem(row, WordColumn, new QTableWidgetItem(wordAt(words_, move.token)));
        table_->setItem(row, DistanceColumn, number(move.distance, decimals_));
        table_->setItem(row, CosineColumn, number(move.cosine, decimals_));
        QStringList sources;
        for (const SourceContribution& s : move.sources) {
            if (sources.size() == sourcesShown()) break;
            sources << tr("%1 %2 (%3 %)").arg(sourceWords_.value(s.token)).arg(s.norm, 0, 'f', decimals_).arg(s.share * 100, 0, 'f', 0);
        }
        auto* item = new QTableWidgetItem(sources.join(QStringLiteral(" · ")));
        item->setToolTip(sources.join('\n'));  // in full when the column is narrow
        table_->setItem(row, SourcesColumn, item);
    }
    fitPanes();
    table_->resizeRowsToContents();
}

void MovementView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitPanes();
}

// The table as wide as its rows need on one line, between 3/5 of the page (its share on a wide
// screen) and 3/4 (the plot beside it keeps 250 px at 1280×720): there the sources wrapped in a
// 3:2 split, each row two lines high, and 8 of the 11 words of a lesson were in sight.
void MovementView::fitPanes() {
    const int total = panes_->width() - panes_->handleWidth();
    if (panesMoved_ || total <= 0) return;
    const int table = std::clamp(oneLineTableWidth(), total * 3 / 5, total * 3 / 4);
    panes_->setSizes({table, total - table});
}

int MovementView::oneLineTableWidth() const {
    const QHeaderView* header = table_->horizontalHeader();
    // The frame, a scroll bar (a long sentence has one) and a character's slack: the text laid out
    // in the cell wrapped a few pixels before its measured width in Chinese.
    int width = 2 * table_->frameWidth() + style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, table_) +
                table_->fontMetrics().averageCharWidth();
    for (int column = WordColumn; column < SourcesColumn; ++column) width += header->sectionSize(column);
    if (table_->isColumnHidden(SourcesColumn)) return width;
    // A cell's text has the style's focus margin and a pixel on each side, and the grid line.
    const int margins = 2 * (style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table_) + 1) + 1;
    int sources = header->sectionSizeHint(SourcesColumn);
    for (int row = 0; row < table_->rowCount(); ++row)
        if (const QTableWidgetItem* item = table_->item(row, SourcesColumn))
            sources = std::max(sources, table_->fontMetrics().horizontalAdvance(item->text()) + margins);
    return width + sources;
}

void MovementView::showSameWordPage() { plots_->setCurrentWidget(sameWord_); }

std::optional<int> MovementView::chosenLayer() const {
    const int index = layer_->currentIndex();
    return index > 0 ? std::optional<int>(index - 1) : std::nullopt;
}

int MovementView::sourcesShown() const { return sources_->value(); }

int MovementView::chosenWord() const {
    if (!shown_ || shown_->tokens.empty()) return 0;
    const int row = std::clamp(table_->currentRow(), 0, static_cast<int>(shown_->tokens.size()) - 1);
    return shown_->tokens[static_cast<std::size_t>(row)].token;
}

MovementSheetPhrases MovementView::sheetPhrases() const {
    const QString span = shown_ && shown_->layer ? tr("layer %1").arg(*shown_->layer + 1) : tr("the whole stack");
    const auto text = [](const QString& s) { return s.toStdString(); };
    return MovementSheetPhrases{
        text(tr("What %1 did to “{1}” (token {2})").arg(span)),
        text(tr("x is the word's vector entering %1, y the vector leaving it. Fill in the table row by row, add up each "
                "column in its last row (Σ), then work out the lengths and the cosine below.")
                 .arg(span)),
        text(tr("How far it moved, and whether its direction kept")),
        text(tr("Where its new content came from")),
        text(tr("c_j = Σ_h α_j·v_j·W_O^h is what source word j brought to this word through every head; its length ‖c_j‖ "
                "is given. Work out Σ_j ‖c_j‖ and the share ‖c_j‖ / Σ_j′ ‖c_j′‖ of the {1} largest.")),
        worksheetPhrases(coreLanguage())};
}

QString MovementView::caption() const { return caption_->text(); }

}  // namespace attnscope
