#include "ui/lab/synthesizer_panel.hpp"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "ui/common/core_language.hpp"
#include "ui/lab/control_row.hpp"
#include "ui/lab/figure_export.hpp"
#include "ui/lab/lab_plots.hpp"
#include "ui/lab/plot_cards.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/theme_colors.hpp"

namespace attnscope {

namespace {

// The model's room ℓ (a sentence of up to ℓ tokens), the factors a·b = ℓ and the rank r.
constexpr int kLength = 32;
constexpr int kFactorA = 4;
constexpr int kRank = 2;
// The dense variant draws a d×d W₁ on every refresh (16.8 M numbers at d_model 4096, every
// time the Lab is activated): wider lessons get a message instead of the plots.
constexpr int kLargestWidth = 512;

// The order of synthesizerVariants' mixture: every variant but the mixture itself.
const char* const kMixed[] = {QT_TRANSLATE_NOOP("attnscope::SynthesizerPanel", "Dot product"),
                              QT_TRANSLATE_NOOP("attnscope::SynthesizerPanel", "Dense"),
                              QT_TRANSLATE_NOOP("attnscope::SynthesizerPanel", "Random"),
                              QT_TRANSLATE_NOOP("attnscope::SynthesizerPanel", "Factorized Dense"),
                              QT_TRANSLATE_NOOP("attnscope::SynthesizerPanel", "Factorized Random")};

}  // namespace

SynthesizerPanel::SynthesizerPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildControls());
    layout->addWidget(buildSliders());
    auto* grid = new QGridLayout;
    for (int i = 0; i < kVariants; ++i)
        grid->addWidget(matrixCard(this, plots_[i], QStringLiteral("synthesizer-%1").arg(i + 1), QSize(280, 240)), i / 3, i % 3);
    layout->addLayout(grid, 1);
    error_ = new QLabel(this);
    theme::setThemedStyleSheet(error_, QStringLiteral("color: {errorText}"));
    layout->addWidget(error_);
    point_ = new QLabel(tr("<b>The point:</b> Random ignores the tokens entirely (the same picture for every sentence), "
                           "Dense looks at each token alone (a row depends only on its own token), and only the dot "
                           "product compares tokens with each other."),
                        this);
    point_->setWordWrap(true);
    layout->addWidget(point_);
}

SynthesizerPanel::~SynthesizerPanel() = default;

QWidget* SynthesizerPanel::buildControls() {
    ControlRow row(this);
    head_ = spinBox(row.box(), 1, 1, 1);
    seed_ = spinBox(row.box(), 0, kMaxSeed, 2020);
    row.add(tr("Weights after softmax on the sentence; dot product from layer 1, head"), head_)
        .add(tr("Synthesizer weights: ℓ = %1, a = %2, r = %3, seed").arg(kLength).arg(kFactorA).arg(kRank), seed_);
    connect(head_, &QSpinBox::valueChanged, this, &SynthesizerPanel::refresh);
    connect(seed_, &QSpinBox::valueChanged, this, &SynthesizerPanel::refresh);
    return row.done();
}

QWidget* SynthesizerPanel::buildSliders() {
    ControlRow row(this);
    row.add(new QLabel(tr("Mixture α:"), row.box()));
    for (int i = 0; i < 5; ++i) {
        row.add(new QLabel(tr(kMixed[i]), row.box()));
        sliders_[i] = new QSlider(Qt::Horizontal, row.box());
        sliders_[i]->setRange(0, 100);
        sliders_[i]->setValue(i == 0 ? 100 : 0);
        sliders_[i]->setMinimumWidth(60);
        row.add(sliders_[i], 1);
        connect(sliders_[i], &QSlider::valueChanged, this, &SynthesizerPanel::refresh);
    }
    alphaText_ = new QLabel(row.box());
    row.add(alphaText_);
    return row.box();  // no closing stretch: the sliders take the room
}

void SynthesizerPanel::setTrace(const Trace& trace) {
    trace_ = trace;
    head_->setRange(1, std::max(trace_.headCount(), 1));
    refresh();
}

void SynthesizerPanel::refresh() {
    std::vector<double> positions;
    for (QSlider* s : sliders_) positions.push_back(s->value());
    alphas_ = normalizedAlphas(positions);
    showAlphas();
    if (trace_.layers.empty()) return;
    const LayerTrace& layer = trace_.layers.at(0);
    const int d = static_cast<int>(layer.input.cols());
    for (const auto& plot : plots_) plot->plot()->setVisible(d <= kLargestWidth);
    if (d > kLargestWidth) {
        variants_.clear();
        error_->setText(tr("This lesson's d_model is %1; the synthesizer draws a d×d weight matrix and runs "
                           "lessons up to d_model %2.")
                            .arg(d)
                            .arg(kLargestWidth));
        return;
    }
    const auto weights = makeSynthesizerWeights(d, kLength, kFactorA, kRank, static_cast<std::uint64_t>(seed_->value()));
    const HeadTrace& shown = layer.heads.at(head_->value() - 1);
    auto variants = weights ? synthesizerVariants(layer.input, shown.scaledScores, shown.mask, weights.value(), alphas_,
                                                  coreLanguage())
                            : Result<std::vector<SynthesizerVariant>>(weights.error());
    if (!variants) {
        error_->setText(coreErrorText(variants.error()));
        return;
    }
    error_->clear();
    variants_ = std::move(variants).value();
    QStringList tokens;
    for (const Token& t : trace_.tokens) tokens << QString::fromStdString(t.text);
    for (int i = 0; i < kVariants && i < static_cast<int>(variants_.size()); ++i)
        plots_[i]->build(variants_[i].weights, QString::fromStdString(variants_[i].name), tokens, tokens, {0, 1},
                         tr("weight"));
}

void SynthesizerPanel::showAlphas() {
    QStringList parts;
    for (const double a : alphas_) parts << QString::number(a, 'f', 2);
    alphaText_->setText(tr("α = (%1)").arg(parts.join(", ")));
}

QString SynthesizerPanel::alphaText() const { return alphaText_->text(); }
QString SynthesizerPanel::errorText() const { return error_->text(); }
QString SynthesizerPanel::pointText() const { return point_->text(); }

}  // namespace attnscope
