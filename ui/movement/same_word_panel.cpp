#include "ui/movement/same_word_panel.hpp"

#include <QComboBox>
#include <algorithm>
#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "ui/common/plot_font.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/lab/lab_plots.hpp"

namespace attnscope {

namespace {

constexpr double kLaidOutForPoints = 9;  // the plot's minimum height was chosen for 9-point text

QComboBox* tokenBox(QWidget* parent, const char* name) {
    auto* box = new QComboBox(parent);
    box->setObjectName(name);
    box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    return box;
}

// "in 1", …, "in L", "out" for the L+1 states (the full names are the plot's tooltip).
QStringList shortStateNames(qsizetype states) {
    QStringList names;
    for (qsizetype l = 1; l < states; ++l) names << SameWordPanel::tr("in %1").arg(l);
    if (states > 0) names << SameWordPanel::tr("out");
    return names;
}

}  // namespace

SameWordPanel::SameWordPanel(QWidget* parent) : QWidget(parent) {
    setObjectName("sameWordPanel");
    caption_ = new QLabel(this);
    caption_->setObjectName("sameWordCaption");
    caption_->setWordWrap(true);
    tokenA_ = tokenBox(this, "sameWordTokenA");
    tokenB_ = tokenBox(this, "sameWordTokenB");
    auto* plot = new QCustomPlot(this);
    plot->setObjectName("sameWordPlot");
    plot->setMinimumSize(200, 120);
    followWidgetFont(plot, kLaidOutForPoints);  // View ▸ Zoom reaches it through the application font
    builder_ = std::make_unique<CurvePlotBuilder>(plot);
    auto* row = new QGridLayout;  // one row per sentence: the column is narrow
    row->addWidget(new QLabel(tr("Word in A:"), this), 0, 0);
    row->addWidget(tokenA_, 0, 1);
    row->addWidget(new QLabel(tr("Word in B:"), this), 1, 0);
    row->addWidget(tokenB_, 1, 1);
    row->setColumnStretch(2, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(caption_);
    layout->addLayout(row);
    layout->addWidget(plot, 1);
    const auto chosen = [this] { emit tokensChosen(chosenA(), chosenB()); };
    connect(tokenA_, &QComboBox::currentIndexChanged, this, chosen);
    connect(tokenB_, &QComboBox::currentIndexChanged, this, chosen);
    showMessage(QString());
}

SameWordPanel::~SameWordPanel() = default;

void SameWordPanel::showMessage(const QString& message) {
    caption_->setText(message);
    caption_->setToolTip(QString());
    builder_->begin(QString(), QString(), QString());
    builder_->plot()->setVisible(false);  // no empty axes
}

void SameWordPanel::setTokens(const QStringList& a, const QStringList& b, int chosenA, int chosenB) {
    const QSignalBlocker blockA(tokenA_), blockB(tokenB_);
    tokenA_->clear();
    tokenB_->clear();
    for (int i = 0; i < a.size(); ++i) tokenA_->addItem(QStringLiteral("%1 %2").arg(i + 1).arg(a[i]));
    for (int j = 0; j < b.size(); ++j) tokenB_->addItem(QStringLiteral("%1 %2").arg(j + 1).arg(b[j]));
    tokenA_->setCurrentIndex(chosenA);
    tokenB_->setCurrentIndex(chosenB);
}

void SameWordPanel::showCurve(const SameWordCurve& curve, const QStringList& states, const QString& sentenceB, int decimals) {
    if (curve.cosines.empty()) return showMessage(QString());
    const double last = curve.cosines.back();
    caption_->setText(tr("The same word in two contexts: “%1” of A, “%2” of B. Leaving the last layer: cos %3.")
                          .arg(qs(curve.textA), qs(curve.textB))
                          .arg(last, 0, 'f', decimals));
    caption_->setToolTip(tr("B is the Compare tab's sentence: “%1”. The curve is the cosine of the two words' vectors "
                            "entering each layer and leaving the last; 1: the same direction.")
                             .arg(sentenceB));
    DrawnSeries series{tr("cos(A, B)"), {}, curve.cosines, DrawnSeries::Line};
    for (std::size_t l = 0; l < curve.cosines.size(); ++l) series.x.push_back(static_cast<double>(l));
    builder_->plot()->setVisible(true);
    builder_->begin(tr("cos(“%1” in A, “%2” in B) per layer").arg(qs(curve.textA), qs(curve.textB)),
                    tr("layer"), tr("cosine"));  // "in n": entering layer n; "out": leaving the last
    builder_->plot()->setToolTip(states.join(QStringLiteral(" · ")));
    builder_->add(series, labColour(0));
    builder_->setXLabels(shortStateNames(states.size()));  // short enough to stay level in a narrow column
    builder_->finish();
    builder_->plot()->legend->setVisible(false);  // one series, named by the title
    // cos lies in [−1, 1]: the whole upper half always, down to the lowest point; a flat curve stays flat.
    const double lowest = *std::min_element(curve.cosines.begin(), curve.cosines.end());
    builder_->plot()->yAxis->setRange(std::min(0.0, lowest) - 0.05, 1.05);
    builder_->plot()->replot();
}

int SameWordPanel::chosenA() const { return tokenA_->currentIndex(); }

int SameWordPanel::chosenB() const { return tokenB_->currentIndex(); }

QString SameWordPanel::caption() const { return caption_->text(); }

QString SameWordPanel::toolTipOfCaption() const { return caption_->toolTip(); }

}  // namespace attnscope
