#include "ui/lab/multi_head_panel.hpp"

#include <QComboBox>
#include <QEvent>
#include <QFont>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTabBar>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <qcustomplot.h>

#include "ui/common/core_language.hpp"
#include "ui/lab/control_row.hpp"
#include "ui/lab/figure_export.hpp"
#include "ui/lab/grouped_query_box.hpp"
#include "ui/lab/head_count_table_model.hpp"
#include "ui/lab/lab_plots.hpp"
#include "ui/lab/plot_cards.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/theme_colors.hpp"

namespace attnscope {

namespace {

constexpr int kDecimals = 2;
const QSize kCardSize(232, 220);  // five side by side fit a 1280-pixel screen with the page margins

// kCardSize's width at 100 %, grown with the text: what a card needs for its matrix at any zoom.
int zoomedCardWidth(const QWidget& widget) {
    return static_cast<int>(kCardSize.width() * std::max(1.0, widget.font().pointSizeF() / kLabLaidOutForPoints));
}

// The matrices side by side while each card keeps its width at the current zoom (kCardSize at
// 100 %, grown with the text), otherwise on as many rows as that needs: at 200 % on a 1280-pixel
// screen five cards side by side left 34 px for a matrix. A Lab page scrolls down, never sideways.
class CardRow : public QWidget {
public:
    explicit CardRow(QWidget* parent) : QWidget(parent), grid_(new QGridLayout(this)) {
        grid_->setContentsMargins(0, 0, 0, 0);
    }
    void add(QWidget* card, int stretch) {
        cards_.push_back({card, stretch});
        columns_ = 0;
        place();
    }

protected:
    void resizeEvent(QResizeEvent* event) override {
        QWidget::resizeEvent(event);
        place();
    }
    void changeEvent(QEvent* event) override {
        QWidget::changeEvent(event);
        if (event->type() != QEvent::FontChange) return;
        columns_ = 0;  // the cards' width changed with the text
        place();
    }

private:
    struct Card {
        QWidget* widget;
        int stretch;
    };
    int cardWidth() const { return zoomedCardWidth(*this); }
    int columnsFor(int width) const {
        const int spacing = std::max(0, grid_->horizontalSpacing());
        return std::clamp((width + spacing) / (cardWidth() + spacing), 1, static_cast<int>(cards_.size()));
    }
    void place() {
        const int columns = columnsFor(width());
        if (columns == columns_) return;
        columns_ = columns;
        for (int c = 0; c < grid_->columnCount(); ++c) grid_->setColumnStretch(c, 0);
        for (int i = 0; i < static_cast<int>(cards_.size()); ++i) {
            grid_->removeWidget(cards_[i].widget);
            cards_[i].widget->setMinimumWidth(cardWidth());
            grid_->addWidget(cards_[i].widget, i / columns, i % columns);
            if (i < columns) grid_->setColumnStretch(i, cards_[i].stretch);
        }
    }

    QGridLayout* grid_;
    std::vector<Card> cards_;
    int columns_ = 0;
};

}  // namespace

MultiHeadPanel::MultiHeadPanel(QWidget* parent) : QWidget(parent) {
    auto* top = new QVBoxLayout(this);
    top->addWidget(buildControls());
    error_ = new QLabel(this);
    theme::setThemedStyleSheet(error_, QStringLiteral("color: {errorText}"));
    error_->hide();  // a line of its own only when there is an error
    top->addWidget(error_);
    // Every head, and the heads that share keys, each a page of its own: on one page the grouped-query
    // cards sat below a screen of plots and a teacher scrolled to them mid-lecture.
    sections_ = new QTabBar(this);
    sections_->setObjectName("multiHeadSections");
    sections_->setExpanding(false);
    sections_->setDrawBase(false);
    buildEveryHeadPage();
    grouped_ = new GroupedQueryBox(this);
    sections_->addTab(tr("Every head"));
    sections_->addTab(tr("Heads that share keys (grouped-query)"));
    top->addWidget(sections_);
    top->addWidget(everyHead_, 1);
    top->addWidget(grouped_, 1);
    connect(sections_, &QTabBar::currentChanged, this, &MultiHeadPanel::showSection);
    showSection(0);
}

// The "every head" page: the shapes, the heads' plots, one head's matrices and the per-H table.
void MultiHeadPanel::buildEveryHeadPage() {
    everyHead_ = new QWidget(this);
    auto* layout = new QVBoxLayout(everyHead_);
    layout->setContentsMargins(0, 0, 0, 0);
    shapes_ = new QLabel(this);
    shapes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    shapes_->setWordWrap(true);
    facts_ = new QLabel(this);
    facts_->setWordWrap(true);
    layout->addWidget(shapes_);
    layout->addWidget(facts_);

    auto* heads = new QWidget(this);
    headRow_ = new QHBoxLayout(heads);
    headRow_->setContentsMargins(0, 0, 0, 0);
    headRow_->addStretch(1);  // few heads keep their size instead of filling the row
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(heads);
    scroll->setWidgetResizable(true);
    scroll->setMinimumHeight(270);
    layout->addWidget(scroll, 1);

    auto* detail = new CardRow(this);
    // The concatenation and the output are d wide: more room than a head's d_k columns.
    const auto addMatrix = [this, detail](std::unique_ptr<MatrixPlotBuilder>& builder, const QString& name, int stretch) {
        detail->add(matrixCard(detail, builder, name, kCardSize), stretch);
        builder->setCellNumbers(kDecimals);
    };
    addMatrix(query_, "multi-head-query", 2);
    addMatrix(key_, "multi-head-key", 2);
    addMatrix(value_, "multi-head-value", 2);
    addMatrix(concat_, "multi-head-concat", 3);
    addMatrix(output_, "multi-head-output", 3);
    layout->addWidget(detail, 1);

    table_ = new QTableView(this);
    model_ = new HeadCountTableModel(table_);
    table_->setModel(model_);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    layout->addWidget(table_);
}

// A tab bar over two widgets of which one is shown, not a QTabWidget: a tab widget is as tall as its
// tallest page, and the grouped-query page would scroll through every head's height.
void MultiHeadPanel::showSection(int index) {
    everyHead_->setVisible(index == 0);
    grouped_->setVisible(index == 1);
}

void MultiHeadPanel::showGroupedQuery() { sections_->setCurrentIndex(1); }

MultiHeadPanel::~MultiHeadPanel() = default;

QWidget* MultiHeadPanel::buildControls() {
    ControlRow row(this);
    controls_.input = new QComboBox(row.box());
    controls_.heads = new QComboBox(row.box());
    controls_.seed = spinBox(row.box(), 0, kMaxSeed, 4);
    controls_.inspect = spinBox(row.box(), 1, 1, 1);
    row.add(tr("Input X"), controls_.input)
        .add(tr("Heads H"), controls_.heads)
        .add(tr("Weights W_Q, W_K, W_V, W_O ~ N(0, 1/d), seed"), controls_.seed)
        .add(tr("Inspect head"), controls_.inspect);
    connect(controls_.input, &QComboBox::currentIndexChanged, this, &MultiHeadPanel::chooseInput);
    connect(controls_.heads, &QComboBox::currentIndexChanged, this, &MultiHeadPanel::refreshRun);
    connect(controls_.seed, &QSpinBox::valueChanged, this, &MultiHeadPanel::refreshWeights);
    connect(controls_.inspect, &QSpinBox::valueChanged, this, &MultiHeadPanel::refreshInspected);
    return row.done();
}

void MultiHeadPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() != QEvent::FontChange) return;
    for (QWidget* card : headCards_) card->setMinimumWidth(zoomedCardWidth(*this));
}

QWidget* MultiHeadPanel::card(QCustomPlot* plot, const QString& name, std::function<const Mat*()> drawn) {
    QWidget* card = plotCard(this, plot, name, kCardSize, std::move(drawn));
    card->setMinimumWidth(zoomedCardWidth(*this));  // a head's map and title as legible as at 100 %
    return card;
}

void MultiHeadPanel::setTrace(const Trace& trace) {
    trace_ = trace;
    const int d = trace_.layers.empty() ? 0 : static_cast<int>(trace_.layers[0].input.cols());
    const QSignalBlocker block(controls_.input);
    const int chosen = controls_.input->currentIndex();
    controls_.input->clear();
    if (d <= kLargestSentenceWidth) controls_.input->addItem(tr("the sentence's X (d = %1)").arg(d), 0);
    controls_.input->setToolTip(d <= kLargestSentenceWidth
                           ? QString()
                           : tr("The sentence's X is %1 wide; this lab runs inputs up to %2 wide.")
                                 .arg(d)
                                 .arg(kLargestSentenceWidth));
    for (const int width : kRandomWidths) controls_.input->addItem(tr("random X, d = %1").arg(width), width);
    controls_.input->setCurrentIndex(std::max(chosen, 0));
    chooseInput();
}

void MultiHeadPanel::chooseInput() {
    if (trace_.layers.empty()) return;
    const int width = controls_.input->currentData().toInt();
    const Mat& sentence = trace_.layers[0].input;  // T×d
    x_ = width == 0 ? sentence : randomLabInput(static_cast<int>(sentence.rows()), width, kInputSeed);
    const int previous = controls_.heads->currentData().toInt();
    const std::vector<int> counts = headCountsFor(static_cast<int>(x_.cols()));
    const QSignalBlocker block(controls_.heads);
    controls_.heads->clear();
    for (const int h : counts) controls_.heads->addItem(QString::number(h), h);
    // Keep H when it still divides d; else the first split into several heads.
    int index = controls_.heads->findData(previous);
    if (index < 0) index = counts.size() > 1 ? 1 : 0;
    controls_.heads->setCurrentIndex(index);
    refreshWeights();
}

void MultiHeadPanel::refreshWeights() {
    if (x_.size() == 0) return;
    weights_ = drawMultiHeadWeights(static_cast<int>(x_.cols()), static_cast<std::uint64_t>(controls_.seed->value()));
    auto table = headCountTable(x_, weights_);
    summaries_ = table ? std::move(table).value() : std::vector<HeadCountSummary>{};
    model_->setRows(summaries_, static_cast<int>(x_.rows()), static_cast<int>(x_.cols()));
    // Every row and no empty space below them: 2 rows for d = 5, 6 for d = 12.
    table_->setFixedHeight(table_->horizontalHeader()->sizeHint().height() +
                           model_->rowCount() * table_->verticalHeader()->defaultSectionSize() + 2 * table_->frameWidth());
    refreshRun();
}

void MultiHeadPanel::refreshRun() {
    if (x_.size() == 0) return;
    const int H = controls_.heads->currentData().toInt();
    auto run = runMultiHead(x_, H, weights_, trace_.tokens);
    if (!run) {
        error_->setText(coreErrorText(run.error()));
        error_->show();
        return;
    }
    error_->clear();
    error_->hide();
    run_ = std::move(run).value();
    model_->setChosen(H);
    rebuildHeadPlots(H);
    const LayerTrace& layer = run_.trace.layers[0];
    const QStringList tokens = tokenLabels(run_.trace);
    for (int h = 0; h < H; ++h)
        headPlots_[static_cast<std::size_t>(h)]->build(layer.heads[static_cast<std::size_t>(h)].weights.exact(),
                                                       tr("head %1: softmax(S_%1/√%2)").arg(h + 1).arg(run_.headWidth),
                                                       tokens, tokens, {0, 1}, tr("attention weight"));
    concat_->build(layer.concat, tr("concat (%1×%2)").arg(layer.concat.rows()).arg(layer.concat.cols()), tokens, {},
                   symmetricRange(layer.concat), tr("value"));
    output_->build(layer.output, tr("concat·W_O (%1×%2)").arg(layer.output.rows()).arg(layer.output.cols()), tokens,
                   {}, symmetricRange(layer.output), tr("value"));
    {
        const QSignalBlocker block(controls_.inspect);
        controls_.inspect->setRange(1, H);
    }
    refreshInspected();
    grouped_->setRun(x_, weights_, H, trace_.tokens);
    const int T = static_cast<int>(x_.rows()), d = static_cast<int>(x_.cols());
    shapes_->setText(tr("<b>Shapes:</b> %1").arg(QString::fromStdString(multiHeadShapes(T, d, H, coreLanguage())).toHtmlEscaped()));
    // "²" counts as a digit to QString::arg, so the squares are passed in whole.
    const QString softmaxes = H == 1 ? tr("with one head there is a single softmax over the whole %1-wide dot product").arg(d)
                                     : tr("what %1 heads buy is %1 separate softmaxes").arg(H);
    facts_->setText(tr("<b>Parameters:</b> W_Q, W_K, W_V, W_O are d×d each, 4·d² = 4·%1 = %2 whatever H — H only "
                       "decides how the columns of W_Q, W_K, W_V are split into heads of d_k = %3/%4 = %5, scaled by "
                       "1/√%5. <b>Σ_h Q_h·K_hᵀ = Q·Kᵀ:</b> largest difference %6 — the heads' raw scores add up to "
                       "the single-head scores; %7.")
                        .arg(QString::number(d) + QStringLiteral("²"))
                        .arg(4 * d * d)
                        .arg(d)
                        .arg(H)
                        .arg(run_.headWidth)
                        .arg(QString::number(run_.identityDifference, 'e', 1))
                        .arg(softmaxes));
}

void MultiHeadPanel::refreshInspected() {
    if (run_.trace.layers.empty()) return;
    const int h = controls_.inspect->value() - 1, dK = run_.headWidth;
    const HeadTrace& head = run_.trace.layers[0].heads.at(static_cast<std::size_t>(h));
    const QStringList tokens = tokenLabels(run_.trace);
    // "Q_2 = X·W_Q, columns 3–4": which columns of the one W_Q this head uses, counted from 1 (shape in the colour label).
    const auto draw = [&](MatrixPlotBuilder& plot, const Mat& m, QChar letter) {
        plot.build(m, tr("%1_%2 = X·W_%1, columns %3–%4").arg(letter).arg(h + 1).arg(h * dK + 1).arg((h + 1) * dK), tokens, {},
                   symmetricRange(m), tr("value (%1×%2)").arg(m.rows()).arg(m.cols()));
    };
    draw(*query_, head.q, QLatin1Char('Q'));
    draw(*key_, head.k, QLatin1Char('K'));
    draw(*value_, head.v, QLatin1Char('V'));
}

const Mat* MultiHeadPanel::headWeights(int head) const {
    if (run_.trace.layers.empty() || head >= static_cast<int>(run_.trace.layers[0].heads.size())) return nullptr;
    return &run_.trace.layers[0].heads[static_cast<std::size_t>(head)].weights.exact();  // a lesson: double
}

void MultiHeadPanel::rebuildHeadPlots(int count) {
    if (headPlotCount() == count) return;
    for (QWidget* w : headCards_) w->deleteLater();
    headCards_.clear();
    headPlots_.clear();
    for (int h = 0; h < count; ++h) {
        auto* plot = new QCustomPlot(headRow_->parentWidget());
        headPlots_.push_back(std::make_unique<MatrixPlotBuilder>(plot));
        headPlots_.back()->setCellNumbers(kDecimals);
        headCards_.push_back(card(plot, QStringLiteral("multi-head-weights-%1").arg(h + 1),
                                  [this, h] { return headWeights(h); }));
        // Few heads keep a readable size instead of filling the row; larger text, larger maps.
        headCards_.back()->setMaximumWidth(static_cast<int>(420 * std::max(1.0, font().pointSizeF() / kLabLaidOutForPoints)));
        headRow_->insertWidget(headRow_->count() - 1, headCards_.back());
    }
}

QString MultiHeadPanel::shapesText() const { return shapes_->text(); }
QString MultiHeadPanel::factsText() const { return facts_->text(); }
QString MultiHeadPanel::errorText() const { return error_->text(); }

}  // namespace attnscope
