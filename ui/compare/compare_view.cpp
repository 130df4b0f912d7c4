#include "ui/compare/compare_view.hpp"

#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QMenu>
#include <QMessageBox>
#include <QToolButton>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "ui/common/core_error_text.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/lab/lab_plots.hpp"

namespace attnscope {

namespace {

QStringList unitLabels(const Alignment& alignment) {
    QStringList labels;
    for (const AlignedUnit& u : alignment.units) labels << qs(unitLabel(u));
    return labels;
}

QString joined(const std::vector<std::string>& words) {
    QStringList out;
    for (const std::string& w : words) out << qs(w);
    return out.join(QStringLiteral(", "));
}

QString alignmentText(const Alignment& a) {
    if (a.by == Alignment::By::Position) return CompareView::tr("Tokens aligned by position (both sentences have as many).");
    QString text = CompareView::tr("Different token counts: aligned by word (%1 words in common or paired).")
                       .arg(a.units.size());
    if (!a.onlyInA.empty()) text += QStringLiteral(" ") + CompareView::tr("Only in A: %1.").arg(joined(a.onlyInA));
    if (!a.onlyInB.empty()) text += QStringLiteral(" ") + CompareView::tr("Only in B: %1.").arg(joined(a.onlyInB));
    return text;
}

}  // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
    setObjectName("compareView");
    auto* layout = new QVBoxLayout(this);
    auto* row = new QHBoxLayout;
    sentenceB_ = new QLineEdit;
    sentenceB_->setObjectName("compareSentence");
    sentenceB_->setPlaceholderText(tr("A second sentence, e.g. the same with one word changed"));
    row->addWidget(new QLabel(tr("Compare with (B):")));
    row->addWidget(sentenceB_, 1);
    row->addWidget(buildExportButton());
    layout->addLayout(row);
    caption_ = new QLabel;
    caption_->setWordWrap(true);
    layout->addWidget(caption_);
    auto* plots = new QHBoxLayout;
    for (int i = 0; i < 3; ++i) {
        auto* plot = new QCustomPlot;
        plot->setMinimumSize(200, 220);  // three side by side fit the tab area at 1366 px
        plots->addWidget(plot, 1);
        builders_.push_back(std::make_unique<MatrixPlotBuilder>(plot));
        builders_.back()->setAxisTitles(tr("key (attended to)"), tr("query"));
    }
    builders_[2]->setGradient(divergingGradient());
    layout->addLayout(plots, 1);
    connect(sentenceB_, &QLineEdit::returnPressed, this, [this] { emit sentenceEntered(sentenceB_->text()); });
    showMessage(tr("Type a second sentence and press Enter: its attention is set beside this one's."));
}

CompareView::~CompareView() = default;

void CompareView::showComparison(const SentenceComparison& comparison, int decimals, const QString& note) {
    shown_ = comparison;
    export_->setEnabled(true);
    const HeadComparison& c = comparison.heads.front();
    const QStringList labels = unitLabels(c.alignment), rowLabels = unitLabels(c.rows);  // a cross-attention's rows differ
    const bool norms = comparison.normWeighted;
    QString head = tr("layer %1 · head %2").arg(c.head.layer + 1).arg(c.head.head + 1);
    if (norms) head += QStringLiteral("\n") + tr("weight × ‖value‖");  // a line of its own: one line is cut at 1280 px
    const QString scale = norms ? tr("weight × ‖value‖, each row's share") : tr("attention weight");
    for (auto& b : builders_) b->setCellNumbers(decimals);
    builders_[0]->build(c.a, tr("A — %1").arg(head), rowLabels, labels, {0, 1}, scale);
    builders_[1]->build(c.b, tr("B — %1").arg(head), rowLabels, labels, {0, 1}, scale);
    builders_[2]->build(c.difference, tr("A − B"), rowLabels, labels, symmetricRange(c.difference),
                        tr("A − B (vermillion: A larger)"));
    QString caption = alignmentText(c.alignment);
    if (norms) caption += QStringLiteral(" ") + tr("Shown: weight × ‖value‖ (Kobayashi et al. 2020), each row's share, not the raw weight.");
    if (!note.isEmpty()) caption += QStringLiteral(" ") + note;
    caption_->setText(caption);
    for (auto& b : builders_) b->plot()->setVisible(true);
}

void CompareView::showMessage(const QString& message) {
    shown_.reset();
    export_->setEnabled(false);
    for (auto& b : builders_) {
        b->build(Mat(), QString(), {}, {}, {0, 1}, QString());
        b->plot()->setVisible(false);  // no empty axes before there is something to compare
    }
    caption_->setText(message);
}

std::vector<const MatrixPlotBuilder*> CompareView::builders() const {
    std::vector<const MatrixPlotBuilder*> out;
    for (const auto& b : builders_) out.push_back(b.get());
    return out;
}

QString CompareView::caption() const { return caption_->text(); }

QToolButton* CompareView::buildExportButton() {
    export_ = new QToolButton(this);
    export_->setObjectName("compareExport");
    export_->setText(tr("Export"));
    export_->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(export_);
    menu->addAction(tr("Maps as PNG…"), this, [this] { exportDialog(CompareExport::Png); });
    menu->addAction(tr("Maps as SVG…"), this, [this] { exportDialog(CompareExport::Svg); });
    menu->addAction(tr("Maps as PDF…"), this, [this] { exportDialog(CompareExport::Pdf); });
    menu->addSeparator();
    menu->addAction(tr("Numbers as CSV…"), this, [this] { exportDialog(CompareExport::Csv); });
    menu->addAction(tr("Numbers as JSON…"), this, [this] { exportDialog(CompareExport::Json); });
    export_->setMenu(menu);
    return export_;
}

Result<void> CompareView::exportTo(const QString& path, CompareExport kind) const {
    if (!shown_) return Error{path.toStdString(), tr("nothing is compared yet").toStdString()};
    std::vector<QCustomPlot*> plots;
    for (const auto& b : builders_) plots.push_back(b->plot());
    return exportComparison(plots, *shown_, path, kind);
}

void CompareView::exportDialog(CompareExport kind) {
    static const char* const kSuffixes[] = {"png", "svg", "pdf", "csv", "json"};
    const QString suffix = QString::fromLatin1(kSuffixes[static_cast<int>(kind)]);
    const QString path = QFileDialog::getSaveFileName(this, tr("Export comparison"),
                                                      QDir::home().filePath("comparison." + suffix),
                                                      QStringLiteral("*.") + suffix);
    if (path.isEmpty()) return;
    if (auto written = exportTo(path, kind); !written)
        QMessageBox::warning(this, tr("Export comparison"), coreErrorText(written.error()));
}

}  // namespace attnscope
