#include "ui/lab/positional_panel.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "core/lab/positional_lab.hpp"
#include "core/pipeline/steps.hpp"
#include "ui/lab/control_row.hpp"
#include "ui/lab/figure_export.hpp"
#include "ui/lab/lab_plots.hpp"
#include "ui/lab/permutation_demo_box.hpp"
#include "ui/lab/plot_cards.hpp"
#include "ui/lab/rope_demo_box.hpp"
#include "ui/common/core_error_text.hpp"

namespace attnscope {

namespace {

// "0, 1, 6" → {0, 1, 6}; entries that are not numbers in [0, width) are skipped.
std::vector<int> chosenDimensions(const QString& text, int width) {
    std::vector<int> dims;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int d = part.trimmed().toInt(&ok);
        if (ok && d >= 0 && d < width) dims.push_back(d);
    }
    return dims;
}

const QSize kCardSize(260, 220);

QString scientific(double value) { return QString::number(value, 'e', 1); }

}  // namespace

PositionalPanel::PositionalPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildEncodingControls());
    auto* grid = new QGridLayout;
    grid->addWidget(matrixCard(this, encoding_, "positional-encoding", kCardSize), 0, 0);
    grid->addWidget(curveCard(this, curves_, "positional-curves", kCardSize), 0, 1);
    grid->addWidget(matrixCard(this, rotation_, "relative-position-map", kCardSize), 0, 2);
    encoding_->setAxisTitles(tr("dimension"), tr("position"));
    rotation_->setAxisTitles(tr("output dimension"), tr("input dimension"));
    check_ = new QLabel(this);
    check_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    check_->setWordWrap(true);
    grid->addWidget(check_, 1, 0, 1, 3);
    layout->addLayout(grid, 1);
    // The permutation demo needs a lesson's sentence: hidden until setLesson (a model opened
    // from the command line comes without one).
    permutation_ = new PermutationDemoBox(this);
    layout->addWidget(permutation_, 1);
    rope_ = new RopeDemoBox(this);
    layout->addWidget(rope_, 1);
    refreshEncoding();
}

PositionalPanel::~PositionalPanel() = default;

QWidget* PositionalPanel::buildEncodingControls() {
    ControlRow row(this);
    controls_.positions = spinBox(row.box(), 2, 512, 64);
    controls_.width = spinBox(row.box(), 2, 512, 32, 2);  // even: every sine has its cosine partner
    controls_.offset = spinBox(row.box(), 0, 511, 7);
    controls_.dimensions = new QLineEdit(QStringLiteral("0, 1, 6, 7"), row.box());
    controls_.dimensions->setToolTip(tr("Dimensions drawn as curves, separated by commas"));
    controls_.source = new QComboBox(row.box());
    controls_.source->addItem(tr("Sinusoidal"), Sinusoidal);
    controls_.source->setToolTip(tr("A real model opened in the main window offers its learned position table here"));
    row.add(tr("Table"), controls_.source)
        .add(tr("Positions T"), controls_.positions)
        .add(tr("Width d"), controls_.width)
        .add(tr("Curves of dimensions"), controls_.dimensions)
        .add(tr("Offset k"), controls_.offset);
    for (QSpinBox* s : {controls_.positions, controls_.width})
        connect(s, &QSpinBox::valueChanged, this, &PositionalPanel::refreshEncoding);
    connect(controls_.offset, &QSpinBox::valueChanged, this, &PositionalPanel::refreshRotation);
    connect(controls_.source, &QComboBox::currentIndexChanged, this, &PositionalPanel::chooseSource);
    connect(controls_.dimensions, &QLineEdit::editingFinished, this, &PositionalPanel::refreshEncoding);
    return row.done();
}

void PositionalPanel::setLesson(const Lesson& lesson, const std::string& sentence) {
    permutation_->setLesson(lesson, sentence);
}

void PositionalPanel::setModel(const QString& name, std::optional<LoadedModel> model) {
    const bool wasLearned = showsLearned();
    modelName_ = name;
    model_ = std::move(model);
    {
        const QSignalBlocker block(controls_.source);
        controls_.source->clear();
        controls_.source->addItem(tr("Sinusoidal"), Sinusoidal);
        if (model_) controls_.source->addItem(tr("%1: learned table (first N positions)").arg(name), Learned);
        controls_.source->setCurrentIndex(wasLearned && model_ ? 1 : 0);
    }
    chooseSource();
}

bool PositionalPanel::showsLearned() const { return model_ && controls_.source->currentData().toInt() == Learned; }

void PositionalPanel::chooseSource() {
    {
        const QSignalBlocker blockPositions(controls_.positions), blockWidth(controls_.width);
        if (showsLearned()) {  // as many positions as the table has, any width up to d
            const int available = model_->config.maxTokens(), d = model_->config.width;
            controls_.positions->setRange(2, available);
            controls_.positions->setValue(std::min(available, 256));
            controls_.width->setRange(1, d);
            controls_.width->setSingleStep(1);
            controls_.width->setValue(std::min(d, 16));  // few enough dimensions for the fit to be overdetermined
        } else {  // even widths: every sine has its cosine partner
            controls_.positions->setRange(2, 512);
            controls_.positions->setValue(64);
            controls_.width->setRange(2, 512);
            controls_.width->setSingleStep(2);
            controls_.width->setValue(32);
        }
    }
    refreshEncoding();
}

Mat PositionalPanel::shownTable() const {
    const int T = controls_.positions->value(), d = controls_.width->value();
    if (!showsLearned()) return sinusoidalEncoding(T, d);  // T×d
    const auto table = learnedPositionTable(*model_, T);    // T×d_model
    return table ? Mat(table.value().leftCols(std::min<Eigen::Index>(d, table.value().cols()))) : Mat();
}

void PositionalPanel::refreshEncoding() {
    const Mat pe = shownTable();  // T×d
    const int T = static_cast<int>(pe.rows()), d = static_cast<int>(pe.cols());
    const bool learned = showsLearned();
    if (learned)
        encoding_->build(pe, tr("%1: learned PE (%2 positions × %3 of %4 dims)")
                                 .arg(modelName_).arg(T).arg(d).arg(model_->config.width),
                         {}, {}, symmetricRange(pe), tr("PE value"));
    else
        encoding_->build(pe, tr("Sinusoidal encoding PE (%1 positions × %2 dimensions)").arg(T).arg(d), {}, {},
                         {-1, 1}, tr("PE value"));
    curves_->begin(tr("PE(pos, i) along the positions"), tr("position"), tr("PE value"));
    int colour = 0;
    for (const int dim : chosenDimensions(controls_.dimensions->text(), d)) {
        // The title's i: short, so that two entries a row fit below the axes on a third of 1280 px at 200 %.
        const QString name = learned ? tr("i = %1").arg(dim) : tr("i = %1 (%2)").arg(dim).arg(dim % 2 ? "cos" : "sin");
        DrawnSeries s{name, {}, {}, DrawnSeries::Line};
        for (int pos = 0; pos < T; ++pos) {
            s.x.push_back(pos);
            s.y.push_back(pe(pos, dim));
        }
        curves_->add(s, labColour(colour++));
    }
    curves_->setLegendBelow(2);  // the waves fill every corner of the axes
    curves_->finish();
    refreshRotation();
}

void PositionalPanel::refreshRotation() {
    if (showsLearned()) {
        refreshLearnedFit();
        return;
    }
    const int T = controls_.positions->value(), d = controls_.width->value(), k = controls_.offset->value();
    const auto check = checkRelativePosition(T, d, k);
    if (!check) {
        check_->setText(tr("No check: %1").arg(coreErrorText(check.error())));
        return;
    }
    rotation_->build(check.value().map, tr("R_%1: PE(pos + %1) = PE(pos) · R_%1").arg(k), {}, {}, {-1, 1}, tr("entry"));
    check_->setText(tr("PE(pos+%1) = PE(pos)·R_%1: largest difference %2 over %3 positions")
                        .arg(k)
                        .arg(scientific(check.value().largestDifference))
                        .arg(check.value().rowsChecked));
}

void PositionalPanel::refreshLearnedFit() {
    const int k = controls_.offset->value();
    const auto fit = fitRelativePositionMap(shownTable(), k);
    if (!fit) {
        check_->setText(tr("No check: %1").arg(coreErrorText(fit.error())));
        return;
    }
    rotation_->build(fit.value().map, tr("Least-squares R_%1: PE(pos + %1) ≈ PE(pos) · R_%1").arg(k), {}, {},
                     symmetricRange(fit.value().map), tr("entry"));
    check_->setText(tr("Learned table: the best single map PE(pos+%1) ≈ PE(pos)·R_%1 (least squares over %2 positions) "
                       "leaves a relative residual ‖PE[%1:] − PE[:−%1]·R_%1‖ / ‖PE[%1:]‖ = %3 — 0 would mean every "
                       "position is the one before it moved by the same map, as for the sinusoidal table.")
                        .arg(k)
                        .arg(fit.value().rowsFitted)
                        .arg(QString::number(fit.value().relativeResidual, 'f', 3)));
}

QString PositionalPanel::checkText() const { return check_->text(); }

}  // namespace attnscope
