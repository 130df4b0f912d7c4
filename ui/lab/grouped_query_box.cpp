#include "ui/lab/grouped_query_box.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "core/lab/worksheet.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/core_language.hpp"
#include "ui/lab/control_row.hpp"
#include "ui/lab/lab_plots.hpp"
#include "ui/lab/plot_cards.hpp"
#include "ui/lab/worksheet_export.hpp"

namespace attnscope {

namespace {
const QSize kCardSize(240, 220);  // as the Multi-head panel's head cards
}

GroupedQueryBox::GroupedQueryBox(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    ControlRow row(this);
    kvHeads_ = new QComboBox(row.box());
    auto* sheet = new QPushButton(tr("Worksheet…"), row.box());
    sheet->setToolTip(tr("Query head 2's scores to compute by hand, with the answer key: Markdown, LaTeX or PDF"));
    written_ = new QLabel(row.box());
    row.add(new QLabel(tr("<b>Grouped-query attention</b>: query heads that share keys and values"), row.box()))
        .add(tr("Key/value heads H_kv"), kvHeads_)
        .add(sheet)
        .add(written_);
    layout->addWidget(row.done());
    connect(sheet, &QPushButton::clicked, this, &GroupedQueryBox::exportDialog);
    sharing_ = new QLabel(this);
    sharing_->setWordWrap(true);
    sharing_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    costText_ = new QLabel(this);
    costText_->setWordWrap(true);
    costText_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(sharing_);
    layout->addWidget(costText_);
    auto* plots = new QWidget(this);
    row_ = new QHBoxLayout(plots);
    row_->setContentsMargins(0, 0, 0, 0);
    row_->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(plots);
    scroll->setWidgetResizable(true);
    scroll->setMinimumHeight(270);
    layout->addWidget(scroll, 1);
    connect(kvHeads_, &QComboBox::currentIndexChanged, this, &GroupedQueryBox::refresh);
}

GroupedQueryBox::~GroupedQueryBox() = default;

void GroupedQueryBox::setRun(const Mat& X, const MultiHeadWeights& weights, int heads, const std::vector<Token>& tokens) {
    x_ = X;
    weights_ = weights;
    tokens_ = tokens;
    if (heads != heads_) {
        heads_ = heads;
        const QSignalBlocker block(kvHeads_);
        kvHeads_->clear();
        for (const int kv : kvHeadChoices(heads)) kvHeads_->addItem(QString::number(kv), kv);
        kvHeads_->setCurrentIndex(kvHeads_->count() > 1 ? 1 : 0);  // H/2 (or 1): a group to see
    }
    refresh();
}

void GroupedQueryBox::refresh() {
    if (x_.size() == 0 || heads_ == 0) return;
    const int kv = kvHeads_->currentData().toInt(), d = static_cast<int>(x_.cols());
    auto run = runGroupedQuery(x_, heads_, kv, weights_, tokens_);
    if (!run) {
        sharing_->setText(coreErrorText(run.error()));
        return;
    }
    run_ = std::move(run).value();
    QStringList groups;
    for (int g = 0; g < kv; ++g) {
        QStringList members;
        for (int h = 0; h < heads_; ++h)
            if (run_.sharing.kvHeadOf[static_cast<std::size_t>(h)] == g) members << QString::number(h + 1);
        groups << tr("K/V head %1 ← query heads %2").arg(g + 1).arg(members.join(QStringLiteral(", ")));
    }
    sharing_->setText(tr("H = %1 query heads, H_kv = %2 key/value heads (d_k = %3): %4.")
                          .arg(heads_).arg(kv).arg(run_.sharing.headWidth).arg(groups.join(QStringLiteral("; "))));
    QStringList lines;
    const std::vector<int> choices = kvHeadChoices(heads_);
    costs_ = Mat(static_cast<Eigen::Index>(choices.size()), 3);
    for (std::size_t i = 0; i < choices.size(); ++i) {
        const KeyValueSharing s = keyValueSharing(d, heads_, choices[i]).value();
        costs_.row(static_cast<Eigen::Index>(i)) << s.kvHeads, static_cast<double>(s.parameters), static_cast<double>(s.kvPerToken);
        lines << tr("H_kv = %1: %2 parameters, %3 K/V numbers per token and layer").arg(s.kvHeads).arg(s.parameters).arg(s.kvPerToken);
    }
    costText_->setText(lines.join(QStringLiteral("\n")));
    rebuildPlots(heads_);
    const QStringList labels = tokenLabels(run_.trace);
    for (int h = 0; h < heads_; ++h)
        plots_[static_cast<std::size_t>(h)]->build(run_.trace.layers[0].heads[static_cast<std::size_t>(h)].weights.exact(),
                                                   tr("query head %1 (K/V head %2)").arg(h + 1).arg(run_.sharing.kvHeadOf[static_cast<std::size_t>(h)] + 1),
                                                   labels, labels, {0, 1}, tr("attention weight"));
}

void GroupedQueryBox::rebuildPlots(int count) {
    if (headPlotCount() == count) return;
    plots_.clear();
    for (QWidget* card : cards_) {  // gone from the row at once: deleteLater waits for the event loop
        card->hide();
        card->deleteLater();
    }
    cards_.clear();
    for (int h = 0; h < count; ++h) {
        plots_.emplace_back();
        cards_.push_back(matrixCard(row_->parentWidget(), plots_.back(), QStringLiteral("grouped-query-head-%1").arg(h + 1), kCardSize));
        cards_.back()->setMaximumWidth(420);
        row_->insertWidget(row_->count() - 1, cards_.back());
    }
}

Result<void> GroupedQueryBox::exportWorksheetTo(const QString& path) const {
    const QString title = tr("Heads that share keys");
    return saveWorksheetWith([this](WorksheetFormat format) { return groupedQueryWorksheet(run_, 3, format, coreLanguage()); },
                             title, path);
}

void GroupedQueryBox::exportDialog() {
    exportWorksheetDialog(this, QStringLiteral("grouped-query-worksheet.md"), [this](const QString& path) { return exportWorksheetTo(path); },
                          written_);
}

QString GroupedQueryBox::sharingText() const { return sharing_->text(); }
QString GroupedQueryBox::costText() const { return costText_->text(); }

}  // namespace attnscope
