#include "ui/movement/same_word_panel.hpp"

#include <QComboBox>
#include <QHBoxLayout>
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
    plot->setMinimumSize(280, 200);
    followWidgetFont(plot, kLaidOutForPoints);  // View ▸ Zoom reaches it through the application font
    builder_ = std::make_unique<CurvePlotBuilder>(plot);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Word in A:"), this));
    row->addWidget(tokenA_);
    row->addWidget(new QLabel(tr("Word in B:"), this));
    row->addWidget(tokenB_);
    row->addStretch(1);
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
    const double last = curve.cosines.empty() ? 0 : curve.cosines.back();
    caption_->setText(tr("The same word in two contexts: “%1” of A and “%2” of B (“%3”, typed in the Compare tab). "
                         "cos of their vectors entering each layer; 1: the same direction. Leaving the last layer: %4.")
                          .arg(qs(curve.textA), qs(curve.textB), sentenceB)
                          .arg(last, 0, 'f', decimals));
    DrawnSeries series{tr("cos(A, B)"), {}, curve.cosines, DrawnSeries::Line};
    for (std::size_t l = 0; l < curve.cosines.size(); ++l) series.x.push_back(static_cast<double>(l));
    builder_->plot()->setVisible(true);
    builder_->begin(tr("cos(“%1” in A, “%2” in B) per layer").arg(qs(curve.textA), qs(curve.textB)), QString(), tr("cosine"));
    builder_->add(series, labColour(0));
    builder_->setXLabels(states);
    builder_->finish();
}

int SameWordPanel::chosenA() const { return tokenA_->currentIndex(); }

int SameWordPanel::chosenB() const { return tokenB_->currentIndex(); }

QString SameWordPanel::caption() const { return caption_->text(); }

}  // namespace attnscope
