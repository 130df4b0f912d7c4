#include "ui/lab/rope_demo_box.hpp"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "core/lab/random.hpp"
#include "core/lab/rope_lab.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/core_language.hpp"
#include "ui/lab/control_row.hpp"
#include "ui/lab/figure_export.hpp"
#include "ui/lab/lab_plots.hpp"
#include "ui/lab/worksheet_export.hpp"

namespace attnscope {

namespace {

const QSize kCardSize(260, 220);  // as the Positional panel's other cards

// A curve card whose CSV, JSON and .npy export write `table` (the numbers drawn, from core).
QWidget* tableCard(QWidget* parent, std::unique_ptr<CurvePlotBuilder>& builder, const QString& name, const Mat* table) {
    auto* plot = new QCustomPlot(parent);
    builder = std::make_unique<CurvePlotBuilder>(plot);
    return plotCard(parent, plot, name, kCardSize, [table] { return table; });
}

std::vector<double> column(const Mat& m, int c) {
    std::vector<double> values;
    for (Eigen::Index r = 0; r < m.rows(); ++r) values.push_back(m(r, c));
    return values;
}

}  // namespace

RopeDemoBox::RopeDemoBox(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(buildControls());
    auto* pair = new QHBoxLayout;
    pair->addWidget(tableCard(this, shiftPlot_, "rope-shift", &shiftTable_));
    pair->addWidget(tableCard(this, bandPlot_, "rope-bands", &bandTable_));
    layout->addLayout(pair, 1);
    layout->addWidget(buildCheckRow());
    refresh();
}

RopeDemoBox::~RopeDemoBox() = default;

QWidget* RopeDemoBox::buildControls() {
    ControlRow row(this);
    auto* title = new QLabel(tr("<b>Rotary encoding (RoPE)</b>: Q and K turned by position"), row.box());
    width_ = spinBox(row.box(), 2, 64, 8, 2);  // even: RoPE turns pairs
    m_ = spinBox(row.box(), 0, 512, 5);
    n_ = spinBox(row.box(), 0, 512, 2);
    shifts_ = spinBox(row.box(), 1, 1024, 64);
    seed_ = spinBox(row.box(), 0, kMaxSeed, 3);
    base_ = new QDoubleSpinBox(row.box());
    base_->setRange(2, 1e7);
    base_->setDecimals(0);
    base_->setValue(500000);  // Llama 3's rope_theta
    row.add(title).add(tr("d_k"), width_).add(tr("query at m"), m_).add(tr("key at n"), n_)
        .add(tr("shifts s up to"), shifts_).add(tr("base θ"), base_).add(tr("q, k seed"), seed_);
    for (QSpinBox* box : {width_, m_, n_, shifts_, seed_}) connect(box, &QSpinBox::valueChanged, this, &RopeDemoBox::refresh);
    connect(base_, &QDoubleSpinBox::valueChanged, this, &RopeDemoBox::refresh);
    return row.done();
}

// The check's sentence, then the Worksheet… button and what it last wrote.
QWidget* RopeDemoBox::buildCheckRow() {
    auto* box = new QWidget(this);
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    check_ = new QLabel(box);
    check_->setWordWrap(true);
    check_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* sheet = new QPushButton(tr("Worksheet…"), box);
    sheet->setToolTip(tr("q and k turned pair by pair and their score, to compute by hand, with the answer key"));
    connect(sheet, &QPushButton::clicked, this, &RopeDemoBox::exportDialog);
    written_ = new QLabel(box);
    auto* side = new QVBoxLayout;
    side->addWidget(sheet);
    side->addWidget(written_);
    side->addStretch(1);
    row->addWidget(check_, 1);
    row->addLayout(side);
    return box;
}

void RopeDemoBox::refresh() {
    drawShifts();
    drawBands();
}

void RopeDemoBox::drawShifts() {
    const Mat qk = LabRandom(static_cast<std::uint64_t>(seed_->value())).normalMatrix(2, width_->value());  // 2×d_k
    const auto demo = ropeShiftDemo(qk.row(0), qk.row(1), m_->value(), n_->value(), shifts_->value(), base_->value());
    if (!demo) {
        check_->setText(tr("No demo: %1").arg(coreErrorText(demo.error())));
        return;
    }
    shiftTable_ = ropeShiftTable(demo.value());
    shiftPlot_->begin(tr("q·k at positions (m + s, n + s)"), tr("shift s"), tr("score q·k"));
    shiftPlot_->add({tr("RoPE"), column(shiftTable_, 0), column(shiftTable_, 3)}, labColour(0));
    shiftPlot_->add({tr("sinusoids added to q and k"), column(shiftTable_, 0), column(shiftTable_, 4)}, labColour(1));
    shiftPlot_->setLegendBelow();
    shiftPlot_->finish();
    check_->setText(tr("Shifting both positions by s = 0 … %1: with RoPE q·k changes by at most %2 (rounding: it "
                       "depends only on m − n = %3); with sinusoids added to q and k it changes by %4, because "
                       "the sum carries the absolute positions.")
                        .arg(shifts_->value())
                        .arg(QString::number(demo.value().ropeSpread, 'e', 1))
                        .arg(m_->value() - n_->value())
                        .arg(QString::number(demo.value().sinusoidSpread, 'f', 3)));
}

void RopeDemoBox::drawBands() {
    const std::vector<RopeBand> bands = ropeBands(width_->value(), base_->value(), llama3Scaling());
    bandTable_ = ropeBandsTable(bands);
    bandPlot_->begin(tr("Wavelength 2π/θ_i of each pair i"), tr("pair i (from 1)"), tr("positions per turn"), false, true);
    bandPlot_->add({tr("θ_i = base^(−2(i−1)/d_k)"), column(bandTable_, 0), column(bandTable_, 2), DrawnSeries::Points}, labColour(0));
    bandPlot_->add({tr("Llama 3 scaling (×8 above 8192, kept below 2048)"), column(bandTable_, 0), column(bandTable_, 4),
                    DrawnSeries::Points},
                   labColour(1));
    bandPlot_->setLegendBelow();
    bandPlot_->finish();
}

QString RopeDemoBox::checkText() const { return check_->text(); }

RopeSheetInput RopeDemoBox::sheetInput() const {
    const Mat qk = LabRandom(static_cast<std::uint64_t>(seed_->value())).normalMatrix(2, width_->value());  // 2×d_k
    return RopeSheetInput{qk.row(0), qk.row(1), m_->value(), n_->value(), shifts_->value(), base_->value(), 3};
}

RopeSheetPhrases RopeDemoBox::sheetPhrases() const {
    const auto text = [](const QString& s) { return s.toStdString(); };
    return RopeSheetPhrases{
        text(tr("RoPE by hand")),
        text(tr("q = {1} and k = {2} (d_k = {3}). Pair i (i = 1 … d_k/2) is (x[i], x[i + d_k/2]), turned at position m "
                "by the angle m·θ_i with θ_i = {4}^(−2(i − 1)/d_k): x′[i] = x[i]·cos(m·θ_i) − x[i + d_k/2]·sin(m·θ_i), "
                "x′[i + d_k/2] = x[i + d_k/2]·cos(m·θ_i) + x[i]·sin(m·θ_i).")),
        text(tr("q turned at position m = {1}")),
        text(tr("k turned at position n = {1}")),
        text(tr("The score q′·k′ with q at m = {1} and k at n = {2}")),
        text(tr("The score with both moved by s = {1} (q at {2}, k at {3})")),
        text(tr("Why are the two scores equal?")),
        text(tr("Each pair of q′·k′ depends only on the angle (m − n)·θ_i: moving q and k by the same s changes m and n "
                "but not m − n, so a RoPE score depends on the distance, not on the absolute positions.")),
        text(tr("pair {1}")),
        worksheetPhrases(coreLanguage())};
}

Result<void> RopeDemoBox::exportWorksheetTo(const QString& path) const {
    return saveWorksheetWith([this](WorksheetFormat format) { return ropeWorksheet(sheetInput(), format, sheetPhrases()); },
                             tr("RoPE by hand"), path);
}

void RopeDemoBox::exportDialog() {
    exportWorksheetDialog(this, QStringLiteral("rope-worksheet.md"), [this](const QString& path) { return exportWorksheetTo(path); },
                          written_);
}

}  // namespace attnscope
