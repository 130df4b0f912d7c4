#include "ui/step/matrix_panel.hpp"

#include <QCoreApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QSplitter>
#include <QTextDocument>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "ui/step/matrix_delegate.hpp"
#include "ui/step/matrix_table.hpp"
#include "ui/step/matrix_panel_sizes.hpp"
#include "ui/common/core_language.hpp"

namespace attnscope {

using namespace panel_sizes;

namespace {

constexpr int kRowSpacing = 6;            // between the matrices and operators of a line

QString stepCaption(const Trace& trace, Step step, int layer, int head) {
    QString text = QString::fromStdString(stepTitleIn(trace, step, layer, coreLanguage()));
    if (step == Step::Key) text += QCoreApplication::translate("attnscope::MatrixPanel", "  (read as Kᵀ)");
    const bool titleNamesLayer = step == Step::Input && layer > 0;
    const bool perLayer = step != Step::Embedding && step != Step::Positional;
    if (trace.layerCount() > 1 && perLayer && !titleNamesLayer) text += QCoreApplication::translate("attnscope::MatrixPanel", "  — layer %1").arg(layer + 1);
    if (isPerHead(step) && trace.headCount() > 1) text += QCoreApplication::translate("attnscope::MatrixPanel", "  — head %1").arg(head + 1);
    // Grouped-query attention: K and V belong to a key/value head several query heads read.
    if (readsKeyValueHead(step)) {
        const std::string shared = kvSharingText(trace, layer, head, coreLanguage());
        if (!shared.empty()) text += "  (" + QString::fromStdString(shared) + ")";
    }
    return text;
}

// The block after attention (lessons of format version 6): sums, norms, products and activations.
std::array<QString, 2> blockOperators(const Trace& trace, Step step) {
    const bool rms = (step == Step::Norm ? trace.block.norm.kind : trace.block.finalNorm.kind) == BlockNorm::RmsNorm;
    switch (step) {
        case Step::AddAttention: case Step::AddFfn: return {"+", "="};
        case Step::FfnGate: case Step::FfnHidden: case Step::FfnOutput: case Step::Logits: return {"·", "="};
        case Step::Norm: case Step::FinalNorm:
            return {"", rms ? QCoreApplication::translate("attnscope::MatrixPanel", "RMSNorm\nof each row\n→")
                            : QCoreApplication::translate("attnscope::MatrixPanel", "LayerNorm\nof each row\n→")};
        case Step::FfnActivated:
            switch (trace.block.ffn.kind) {
                case BlockFfn::SwiGlu: return {"", QCoreApplication::translate("attnscope::MatrixPanel", "SiLU(G) ⊙ U\n→")};
                case BlockFfn::Gelu: return {"", QCoreApplication::translate("attnscope::MatrixPanel", "GELU\nof each cell\n→")};
                default: return {"", QCoreApplication::translate("attnscope::MatrixPanel", "ReLU\nof each cell\n→")};
            }
        default: return {"", ""};
    }
}

// The operator printed between the operands and before the result, so the row reads as a sum.
std::array<QString, 2> operatorsFor(const Trace& trace, Step step, int decimals) {
    if (trace.rotates() && (step == Step::Query || step == Step::Key))  // RoPE: Q_pre (K_pre) turned by position
        return {"", QCoreApplication::translate("attnscope::MatrixPanel", "turn each pair\nby m·θ_i\n→")};
    switch (step) {
        case Step::Input: case Step::Masked: return {"+", "="};
        case Step::Query: case Step::Key: case Step::Value: case Step::Scores:
        case Step::WeightedSum: case Step::Output: case Step::QueryBeforeRope: case Step::KeyBeforeRope:
            return {"·", "="};
        case Step::Scaled:
            return {"", QStringLiteral("÷ %1 =").arg(QString::fromStdString(
                            formatNumber(trace.scaleDivisor, decimalsFor(trace.scaleDivisor, decimals))))};
        case Step::Weights: case Step::Probabilities:
            return {"", QCoreApplication::translate("attnscope::MatrixPanel", "softmax\nof each row\n→")};
        default: return blockOperators(trace, step);
    }
}

QLabel* operatorLabel(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setAlignment(Qt::AlignCenter);
    label->setContentsMargins(4, 0, 4, 0);
    return label;
}

}  // namespace

MatrixPanel::MatrixPanel(QWidget* parent) : QWidget(parent), delegate_(new MatrixDelegate(this)) {
    splitter_ = new QSplitter(Qt::Vertical, this);
    QSplitter* splitter = splitter_;
    auto* scroll = new QScrollArea(splitter);
    scroll->setWidgetResizable(true);
    auto* canvas = new QWidget(scroll);
    auto* column = new QVBoxLayout(canvas);
    title_ = new QLabel(canvas);
    column->addWidget(title_);
    operands_[0] = makeSlot(canvas);
    operators_[0] = operatorLabel(canvas);
    operands_[1] = makeSlot(canvas);
    operators_[1] = operatorLabel(canvas);
    result_ = makeSlot(canvas);
    lines_ = new QVBoxLayout;
    column->addLayout(lines_);
    column->addStretch(1);
    scroll->setWidget(canvas);
    scroll_ = scroll;
    scroll_->installEventFilter(this);  // fit mode follows the area the splitter gives it
    canvas_ = canvas;
    wrapRow();

    explanation_ = new QPlainTextEdit(splitter);
    explanation_->setReadOnly(true);
    explanation_->setObjectName("explanation");
    explanation_->setPlaceholderText(tr("Select a cell of the result to see how it was computed."));
    splitter->addWidget(scroll);
    splitter->addWidget(explanation_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    applyFonts();
    connect(result_.table->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { onCurrentChanged(current); });
}

MatrixPanel::Slot MatrixPanel::makeSlot(QWidget* parent) {
    Slot slot;
    slot.box = new QWidget(parent);
    auto* layout = new QVBoxLayout(slot.box);
    layout->setContentsMargins(0, 0, 0, 0);
    slot.caption = new QLabel(slot.box);
    slot.caption->setWordWrap(true);
    slot.table = new MatrixTable(slot.box);
    slot.model = new TraceMatrixModel(slot.table);
    slot.table->setModel(slot.model);
    slot.table->setItemDelegate(delegate_);
    layout->addWidget(slot.caption);
    layout->addWidget(slot.table);
    return slot;
}

void MatrixPanel::fillSlot(Slot& slot, const Trace& trace, Step step, int layer, int head, int decimals) {
    slot.model->show(&trace, step, layer, head, decimals);
    slot.caption->setText(stepCaption(trace, step, layer, head));
    // A larger font (View ▸ Zoom) gets larger tables, not a scroll bar at the old size.
    const double scale = std::max(1.0, font().pointSizeF() / kBasePointSize);
    slot.table->fitToContents(kMaxTableSize * scale);
    slot.caption->setMaximumWidth(std::max(slot.table->width(), 220));
    slot.box->show();
}

void MatrixPanel::showStep(const Trace& trace, Step step, int layer, int head, int decimals) {
    const std::vector<Operand> ops = operandsOf(trace, step, layer);
    const auto symbols = operatorsFor(trace, step, decimals);
    title_->setText(stepCaption(trace, step, layer, head));
    for (std::size_t i = 0; i < operands_.size(); ++i) {
        if (i < ops.size()) fillSlot(operands_[i], trace, ops[i].step, ops[i].layer, head, decimals);
        else { operands_[i].model->clear(); operands_[i].box->hide(); }
    }
    elementwise_ = symbols[0] == QLatin1String("+");
    operators_[0]->setText(ops.size() > 1 ? symbols[0] : QString());
    operators_[0]->setVisible(ops.size() > 1);
    operators_[1]->setText(symbols[1]);
    resultOperatorScale_ = symbols[1].size() > 4 ? 1.2 : 2.0;
    operators_[1]->setFont(scaledBold(font(), resultOperatorScale_));
    operators_[1]->setVisible(!ops.empty());
    const QSignalBlocker blocker(result_.table->selectionModel());
    fillSlot(result_, trace, step, layer, head, decimals);
    const std::string_view symbol = stepSymbol(step);  // "S": the title above names the step, once
    result_.caption->setText(QString::fromUtf8(symbol.data(), static_cast<int>(symbol.size())));
    clearExplanation();
    wrapRow();
    giveRestToExplanation();
    fitEquation();
}

// The operands, operators and result side by side while they fit the visible width; at a
// projector's zoom they wrap onto further lines, each operator with the matrix after it.
void MatrixPanel::wrapRow(int scrollWidth) {
    while (QLayoutItem* line = lines_->takeAt(0)) {
        if (QLayout* l = line->layout())
            while (QLayoutItem* item = l->takeAt(0)) delete item;  // the widgets stay on the canvas
        delete line;
    }
    const QMargins margins = canvas_->layout()->contentsMargins();
    // The width without the vertical scroll bar, whether shown or not: no back and forth.
    const int available = (scrollWidth < 0 ? scroll_->width() : scrollWidth) - 2 * scroll_->frameWidth() - scroll_->verticalScrollBar()->sizeHint().width() -
                          margins.left() - margins.right();
    const std::vector<std::vector<QWidget*>> groups{
        {operands_[0].box}, {operators_[0], operands_[1].box}, {operators_[1], result_.box}};
    QHBoxLayout* line = nullptr;
    int used = 0;
    for (const auto& group : groups) {
        std::vector<QWidget*> shown;
        int width = 0;
        for (QWidget* w : group)
            if (w->isVisibleTo(canvas_)) {
                shown.push_back(w);
                width += w->sizeHint().width() + kRowSpacing;
            }
        if (shown.empty()) continue;
        if (!line || (used > 0 && used + width > available)) {
            if (line) line->addStretch(1);
            line = new QHBoxLayout;
            line->setSpacing(kRowSpacing);
            lines_->addLayout(line);
            used = 0;
        }
        for (QWidget* w : shown) line->addWidget(w, 0, qobject_cast<QLabel*>(w) ? Qt::AlignVCenter : Qt::AlignTop);
        used += width;
    }
    if (line) line->addStretch(1);
}

// The explanation gets the height of its text (at most a third of the panel), the worked example the
// rest: no half-height empty pane under small matrices, room for the tables on a projector.
void MatrixPanel::giveRestToExplanation() {
    const int total = splitter_->height();
    if (total <= 0) return;
    if (fit_) return fitExplanation();
    const QTextDocument* doc = explanation_->document();
    const int lines = std::max({kExplanationMinLines, doc->blockCount(), doc->lineCount()});
    const int margins = 2 * (explanation_->frameWidth() + static_cast<int>(doc->documentMargin())) + 6;
    const int text = lines * explanation_->fontMetrics().lineSpacing() + margins;
    const int explanation = std::min(text, total / 3);
    splitter_->setSizes({total - explanation, explanation});
}

void MatrixPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    wrapRow();
    giveRestToExplanation();
}

bool MatrixPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == scroll_ && event->type() == QEvent::Resize) fitEquation();
    return QWidget::eventFilter(watched, event);
}

std::vector<TraceMatrixModel*> MatrixPanel::operandModels() const {
    std::vector<TraceMatrixModel*> out;
    for (const Slot& s : operands_)
        if (s.model->hasMatrix()) out.push_back(s.model);
    return out;
}

void MatrixPanel::selectCell(int row, int col) {
    const QModelIndex index = result_.model->index(row, col);
    if (!index.isValid()) return;
    result_.table->setCurrentIndex(index);
    onCurrentChanged(index);  // also when the cell was already current: explain it again
    showSelectedCell();
}

void MatrixPanel::onCurrentChanged(const QModelIndex& current) {
    if (!current.isValid() || !result_.model->hasMatrix()) return;
    const TraceMatrixModel& m = *result_.model;
    emit cellSelected(CellRef{m.step(), m.layer(), m.head(), current.row(), current.column()});
}

void MatrixPanel::showExplanation(const Explanation& explanation) {
    QStringList lines;
    for (const std::string& line : explanation.lines) lines << QString::fromStdString(line);
    explanation_->setPlainText(lines.join('\n'));
    highlightSources(explanation.sources);
    giveRestToExplanation();
}

void MatrixPanel::showExplanationError(const QString& message) {
    explanation_->setPlainText(message);
    highlightSources({});
    giveRestToExplanation();
}

void MatrixPanel::clearExplanation() {
    explanation_->clear();
    highlightSources({});
}

void MatrixPanel::highlightSources(const std::vector<CellRef>& sources) {
    for (Slot* slot : {&operands_[0], &operands_[1], &result_}) {
        const TraceMatrixModel& m = *slot->model;
        std::vector<MatrixCell> cells;
        for (const CellRef& s : sources) {
            const bool sameHead = !isPerHead(s.step) || s.head == m.head();
            if (m.hasMatrix() && s.step == m.step() && s.layer == m.layer() && sameHead)
                cells.push_back({s.row, s.col});
        }
        slot->model->setHighlightedCells(std::move(cells));
    }
}

void MatrixPanel::setFocusedRow(std::optional<int> row) {
    result_.model->setFocusedRow(row);
    operands_[0].model->setFocusedRow(row);
    operands_[1].model->setFocusedRow(elementwise_ ? row : std::nullopt);
}

void MatrixPanel::setShading(bool on) {
    delegate_->setShading(on);
    for (Slot* slot : {&operands_[0], &operands_[1], &result_}) slot->table->viewport()->update();
}

void MatrixPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange) applyFonts();
    QWidget::changeEvent(event);
}

// Title and operators are sized relative to the panel font, so "Larger text" scales them too.
void MatrixPanel::applyFonts() {
    title_->setFont(scaledBold(font(), 1.3));
    for (QLabel* op : operators_) op->setFont(scaledBold(font(), 2.0));
}

void MatrixPanel::setExplanationFont(const QFont& font) {
    explanationFont_ = font;
    explanation_->setFont(font);
    giveRestToExplanation();
}

QString MatrixPanel::explanationText() const { return explanation_->toPlainText(); }

}  // namespace attnscope
