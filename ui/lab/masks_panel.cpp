#include "ui/lab/masks_panel.hpp"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

#include "core/trace/explain.hpp"
#include "core/lab/masks_lab.hpp"
#include "ui/lab/control_row.hpp"
#include "ui/lab/figure_export.hpp"
#include "ui/lab/lab_plots.hpp"
#include "ui/lab/plot_cards.hpp"
#include "ui/common/core_language.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/theme_colors.hpp"

namespace attnscope {

namespace {

QStringList labelsOf(const std::vector<Token>& tokens) {
    QStringList labels;
    for (const Token& t : tokens) labels << qs(t.text);
    return labels;
}

// The colour range of a score matrix: its finite extremes (−∞ cells then take the darkest colour).
MatrixPlotBuilder::Range finiteRange(const Mat& m) {
    double low = INFINITY, high = -INFINITY;
    for (Eigen::Index i = 0; i < m.size(); ++i)
        if (std::isfinite(m.data()[i])) {
            low = std::min(low, m.data()[i]);
            high = std::max(high, m.data()[i]);
        }
    if (!(low < high)) return {std::isfinite(low) ? low - 1 : -1, std::isfinite(high) ? high + 1 : 1};
    return {low, high};
}

// Few tokens: the lesson's decimals (at most 4); many: 2, so the numbers fit their cells.
int cellDecimals(const Lesson& lesson, Eigen::Index tokens) {
    return std::clamp(lesson.decimals, 0, tokens <= 6 ? 4 : 2);
}

QLabel* wrapped(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QLabel* messageLabel(QWidget* parent) {
    auto* label = wrapped(QString(), parent);
    theme::setThemedStyleSheet(label, QStringLiteral("color: {errorText}"));
    return label;
}

QString small(double value) { return value == 0 ? QStringLiteral("0") : QString::number(value, 'e', 1); }

QString failure(const Error& error) {
    return QObject::tr("Not updated — %1. The plots still show the last valid input.").arg(coreErrorText(error));
}

}  // namespace

MasksPanel::MasksPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* headRow = new QHBoxLayout;
    headRow->setContentsMargins(6, 6, 6, 0);
    headRow->addWidget(new QLabel(tr("Every view shows layer 1, head"), this));
    head_ = spinBox(this, 1, 1, 1);
    headRow->addWidget(head_);
    headRow->addStretch(1);
    layout->addLayout(headRow);
    connect(head_, &QSpinBox::valueChanged, this, &MasksPanel::refreshAll);
    pages_ = new QTabWidget(this);
    pages_->addTab(buildCausalPage(), tr("Causal mask"));
    pages_->addTab(buildPaddingPage(), tr("Padding mask (a batch)"));
    pages_->addTab(buildCrossPage(), tr("Cross-attention"));
    layout->addWidget(pages_);
}

MasksPanel::~MasksPanel() = default;

QWidget* MasksPanel::plotCard(QWidget* parent, std::unique_ptr<MatrixPlotBuilder>& builder, const QString& name) {
    return matrixCard(parent, builder, name, QSize(300, 240));
}

// One card per name, each plot with the query/key axis titles of a self-attention matrix.
std::vector<QWidget*> MasksPanel::selfAttentionCards(QWidget* parent, std::vector<std::unique_ptr<MatrixPlotBuilder>>& plots,
                                                     const QStringList& names) {
    plots.resize(names.size());
    std::vector<QWidget*> cards;
    for (int i = 0; i < names.size(); ++i) {
        cards.push_back(plotCard(parent, plots[i], names[i]));
        plots[i]->setAxisTitles(tr("key token j"), tr("query token i"));
    }
    return cards;
}

// What every page shows, top to bottom: its introduction, its inputs (if any), the message line,
// the plots (taking the room) and the check line under them. The three build*Page functions
// below end alike (a multi-line translated introduction, then their parts) because each hands its
// own to this one; the texts differ, so there is nothing left to share.
QWidget* MasksPanel::assemblePage(QWidget* page, const QString& intro, QLayout* inputs, QLayout* plots,
                                  PageTexts& texts) {
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(wrapped(intro, page));
    if (inputs) layout->addLayout(inputs);
    texts.message = messageLabel(page);
    layout->addWidget(texts.message);
    layout->addLayout(plots, 1);
    texts.check = wrapped(QString(), page);
    layout->addWidget(texts.check);
    return page;
}

QWidget* MasksPanel::buildCausalPage() {
    auto* page = new QWidget(this);
    auto* grid = new QGridLayout;
    const auto cards = selfAttentionCards(
        page, causalPlots_, {"causal-scaled-scores", "causal-mask", "causal-masked-scores", "causal-weights"});
    for (int i = 0; i < 4; ++i) grid->addWidget(cards[i], i / 2, i % 2);
    return assemblePage(page,
                        tr("<b>Causal mask.</b> A model that writes text word by word must not read the words after "
                           "the one it is writing. The mask M is added to the scaled scores <i>before</i> the softmax: "
                           "0 keeps a score, −∞ above the diagonal removes it, and since e<sup>−∞</sup> = 0 every "
                           "weight above the diagonal is exactly 0. The lesson's sentence, run with the mask on "
                           "(the head chosen above)."),
                        nullptr, grid, causal_);
}

QWidget* MasksPanel::buildPaddingPage() {
    auto* page = new QWidget(this);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Second sentence of the batch:"), page));
    second_ = new QLineEdit(page);
    second_->setToolTip(tr("Press Enter to run the batch [lesson sentence, this sentence]"));
    row->addWidget(second_, 1);
    auto* plots = new QHBoxLayout;
    for (QWidget* card : selfAttentionCards(page, paddingPlots_, {"padding-weights-1", "padding-weights-2", "padding-mask"}))
        plots->addWidget(card);
    connect(second_, &QLineEdit::returnPressed, this, &MasksPanel::refreshPadding);
    return assemblePage(page,
                        tr("<b>Padding mask.</b> Sentences of different lengths are run together as one batch: the "
                           "shorter one is filled up with [PAD] tokens, and a padding mask puts −∞ in their columns "
                           "for every query, so no real token (and no [PAD]) attends to padding. The real tokens then "
                           "get the weights they get alone."),
                        row, plots, padding_);
}

QWidget* MasksPanel::buildCrossPage() {
    auto* page = new QWidget(this);
    auto* row = new QHBoxLayout;
    target_ = new QLabel(page);
    row->addWidget(target_);
    row->addSpacing(16);
    row->addWidget(new QLabel(tr("Source (keys, values):"), page));
    source_ = new QLineEdit(page);
    source_->setToolTip(tr("Press Enter to run cross-attention from the lesson's sentence to this one"));
    row->addWidget(source_, 1);
    auto* body = new QHBoxLayout;
    body->addWidget(plotCard(page, crossPlot_, "cross-attention-weights"), 3);
    explanation_ = new QPlainTextEdit(page);
    explanation_->setReadOnly(true);
    explanation_->setPlaceholderText(tr("Click a cell of the heatmap to see how its score and weight were computed."));
    body->addWidget(explanation_, 2);
    crossPlot_->setAxisTitles(tr("source token (keys, values)"), tr("target token (queries)"));
    connect(crossPlot_->plot(), &QCustomPlot::mousePress, this, &MasksPanel::onCrossClick);
    connect(source_, &QLineEdit::returnPressed, this, &MasksPanel::refreshCross);
    return assemblePage(page,
                        tr("<b>Cross-attention</b> (a translation's decoder reading its encoder): the queries come "
                           "from one sentence (the target, rows), the keys and values from another (the source, "
                           "columns). Q = X_target·W_Q, K = X_source·W_K, V = X_source·W_V, so the weights are "
                           "T_target × T_source and each target token's output mixes source values. Nothing is "
                           "masked: the target may read the whole source. Click a cell to see its arithmetic."),
                        row, body, cross_);
}

void MasksPanel::setLesson(const Lesson& lesson, const std::string& sentence) {
    const bool newSentence = !input_ || sentence != input_->sentence;
    input_ = Input{lesson, sentence};
    if (newSentence) {
        second_->setText(qs(shorterSentence(sentence)));
        source_->setText(qs(reversedSource(sentence)));
    }
    target_->setText(tr("Target (queries): <b>%1</b>").arg(qs(sentence).toHtmlEscaped()));
    const QSignalBlocker quiet(head_);  // one refresh below, not one per range change
    head_->setRange(1, std::max(1, lesson.numHeads));
    refreshAll();
}

void MasksPanel::refreshAll() {
    refreshCausal();
    refreshPadding();
    refreshCross();
}

int MasksPanel::head() const { return head_->value() - 1; }

void MasksPanel::showSubPage(SubPage page) { pages_->setCurrentIndex(static_cast<int>(page)); }

void MasksPanel::refreshCausal() {
    if (!input_) return;
    auto demo = causalDemo(input_->lesson, input_->sentence);
    if (!demo) return causal_.message->setText(failure(demo.error()));
    causal_.message->clear();
    const Trace& t = demo.value().trace;
    const HeadTrace& h = t.layers.at(0).heads.at(head());
    const QStringList labels = labelsOf(t.tokens);
    const int decimals = cellDecimals(input_->lesson, t.tokenCount());
    const Mat& scores = t.scaled ? h.scaledScores : h.scores;  // T×T, what the mask is added to
    const QString s = t.scaled ? QStringLiteral("S/√d_k") : QStringLiteral("S");
    const auto range = finiteRange(scores);
    for (auto& plot : causalPlots_) plot->setCellNumbers(decimals);
    causalPlots_[1]->setCellNumbers(0);  // the mask is 0 or −∞
    causalPlots_[0]->build(scores, t.scaled ? tr("Scaled scores S/√d_k = Q·Kᵀ/√d_k") : tr("Scores S = Q·Kᵀ (no scaling)"),
                           labels, labels, range, tr("score"));
    causalPlots_[1]->build(h.mask, tr("Causal mask M: −∞ above the diagonal"), labels, labels, {-1, 0}, tr("mask"));
    causalPlots_[2]->build(h.maskedScores, tr("%1 + M: later tokens are −∞").arg(s), labels, labels, range, tr("score"));
    causalPlots_[3]->build(h.weights.exact(), tr("A = softmax(%1 + M) per row: upper triangle 0").arg(s), labels, labels, {0, 1},
                           tr("attention weight"));
    causal_.check->setText(tr("Check (every layer and head): largest weight above the diagonal = %1%2; every row sums to 1 "
                             "(largest |Σ_j A_ij − 1| = %3). The first token can only attend to itself: its weight is 1.")
                              .arg(small(demo.value().largestAboveDiagonal))
                              .arg(demo.value().largestAboveDiagonal == 0 ? tr(" (exactly: e^−∞ = 0)") : QString())
                              .arg(small(demo.value().largestRowSumError)));
}

namespace {

// Sentences of the same length pad nothing: the title names sentence 1, never "sentence 0".
QString paddingMaskTitle(int padded, bool causal) {
    if (padded < 0)
        return causal ? MasksPanel::tr("Mask of sentence 1: causal, nothing to pad")
                      : MasksPanel::tr("Mask of sentence 1: nothing to pad");
    return causal ? MasksPanel::tr("Mask of sentence %1 (causal + padding)").arg(padded + 1)
                  : MasksPanel::tr("Padding mask of sentence %1").arg(padded + 1);
}

}  // namespace

void MasksPanel::refreshPadding() {
    if (!input_) return;
    auto demo = paddingDemo(input_->lesson, input_->sentence, second_->text().toStdString());
    if (!demo) return padding_.message->setText(failure(demo.error()));
    padding_.message->clear();
    const PaddingDemo& p = demo.value();
    for (int s = 0; s < 2; ++s) {
        const Trace& t = p.batch[static_cast<std::size_t>(s)];
        const QStringList labels = labelsOf(t.tokens);
        const int pads = t.paddedFrom >= 0 ? t.tokenCount() - t.paddedFrom : 0;
        paddingPlots_[s]->setCellNumbers(cellDecimals(input_->lesson, t.tokenCount()));
        paddingPlots_[s]->build(t.layers.at(0).heads.at(head()).weights.exact(),
                                pads ? tr("Sentence %1: weights, %2 [PAD] column(s) = 0").arg(s + 1).arg(pads)
                                     : tr("Sentence %1: weights (no padding)").arg(s + 1),
                                labels, labels, {0, 1}, tr("attention weight"));
    }
    const Trace& masked = p.batch[static_cast<std::size_t>(std::max(p.padded, 0))];
    const QStringList labels = labelsOf(masked.tokens);
    paddingPlots_[2]->setCellNumbers(0);
    paddingPlots_[2]->build(masked.layers.at(0).heads.at(head()).mask,
                            paddingMaskTitle(p.padded, masked.causal),
                            labels, labels, {-1, 0}, tr("mask"));
    if (p.padded < 0)
        return padding_.check->setText(tr("Both sentences have %1 tokens, so nothing is padded. Type a shorter or longer "
                                         "second sentence and press Enter.").arg(masked.tokenCount()));
    const double difference = p.largestDifferenceAlone;
    const QString rounding = difference > 0 && difference < 1e-12
                                 ? tr(" — equal up to the last bits of a double (the softmax adds its e^−∞ = 0 terms in "
                                      "another order)")
                                 : QString();
    padding_.check->setText(tr("Check (every layer and head): largest weight in a [PAD] column = %1; the real tokens' rows "
                              "sum to 1 (largest |Σ_j A_ij − 1| = %2); sentence %3's real part (weights, A·V, output) "
                              "against its run alone, without [PAD]: largest difference %4%5.")
                               .arg(small(p.largestPaddedWeight))
                               .arg(small(p.largestRowSumError))
                               .arg(p.padded + 1)
                               .arg(small(difference))
                               .arg(rounding));
}

void MasksPanel::refreshCross() {
    if (!input_) return;
    auto demo = crossAttentionDemo(input_->lesson, input_->sentence, source_->text().toStdString());
    if (!demo) return cross_.message->setText(failure(demo.error()));
    cross_.message->clear();
    crossTrace_ = std::move(demo.value().trace);
    const Trace& t = crossTrace_;
    crossPlot_->setCellNumbers(cellDecimals(input_->lesson, std::max(t.tokenCount(), t.keyCount())));
    const QString head = t.headCount() > 1 ? tr(", head %1 of %2").arg(this->head() + 1).arg(t.headCount()) : QString();
    crossPlot_->build(t.layers.at(0).heads.at(this->head()).weights.exact(),
                      tr("Cross-attention weights (%1 target × %2 source tokens%3)").arg(t.tokenCount()).arg(t.keyCount()).arg(head),
                      labelsOf(t.tokens), labelsOf(t.keyTokens), {0, 1}, tr("attention weight"));
    explanation_->clear();
    QString check = tr("Check: each target row is a distribution over the source tokens (largest |Σ_j A_ij − 1| = %1).")
                        .arg(small(demo.value().largestRowSumError));
    for (const std::string& n : noticeTexts(t.notices, coreLanguage())) check += tr("  Notice: %1.").arg(qs(n));
    cross_.check->setText(check);
}

void MasksPanel::onCrossClick(QMouseEvent* event) {
    if (const auto cell = crossPlot_->cellAt(event->position())) selectCrossCell(cell->first, cell->second);
}

void MasksPanel::selectCrossCell(int row, int col) {
    QStringList lines;
    const int decimals = input_ ? input_->lesson.decimals : Lesson{}.decimals;  // before any lesson: explainCell says why
    for (const Step step : {Step::Scores, Step::Weights}) {
        auto e = explainCell(crossTrace_, CellRef{step, 0, head(), row, col}, decimals, coreLanguage());
        if (!e) return explanation_->setPlainText(coreErrorText(e.error()));
        if (!lines.isEmpty()) lines << QString();
        for (const std::string& line : e.value().lines) lines << qs(line);
    }
    explanation_->setPlainText(lines.join('\n'));
}

QString MasksPanel::causalCheckText() const { return causal_.check->text(); }
QString MasksPanel::paddingCheckText() const { return padding_.check->text(); }
QString MasksPanel::crossCheckText() const { return cross_.check->text(); }
QString MasksPanel::paddingMessage() const { return padding_.message->text(); }
QString MasksPanel::crossMessage() const { return cross_.message->text(); }
QString MasksPanel::explanationText() const { return explanation_->toPlainText(); }

}  // namespace attnscope
