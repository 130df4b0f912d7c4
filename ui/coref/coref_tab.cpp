#include "ui/coref/coref_tab.hpp"

#include <QBuffer>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QToolButton>
#include <QVBoxLayout>

#include "core/analysis/coref_export.hpp"
#include "ui/coref/coref_mention_row.hpp"
#include "ui/coref/coref_view.hpp"
#include "ui/common/file_write.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/common/core_error_text.hpp"
#include "ui/common/core_language.hpp"
#include "ui/common/theme_colors.hpp"

namespace attnscope {

namespace {

QString headList(const std::vector<HeadRef>& heads) {
    QStringList items;
    for (const HeadRef& h : heads) items << QStringLiteral("%1:%2").arg(h.layer + 1).arg(h.head + 1);
    return items.join(", ");
}

// "5:4, 6:1" (counted from 1, as the user reads them) → 0-based heads of this trace.
Result<std::vector<HeadRef>> parseHeadList(const QString& text, const Trace& trace) {
    const int layers = static_cast<int>(trace.layers.size()), perLayer = trace.headCount();
    std::vector<HeadRef> heads;
    for (const QString& item : text.split(',', Qt::SkipEmptyParts)) {
        const QStringList parts = item.trimmed().split(':');
        bool okLayer = false, okHead = false;
        const int layer = parts.size() == 2 ? parts[0].trimmed().toInt(&okLayer) : 0;
        const int head = parts.size() == 2 ? parts[1].trimmed().toInt(&okHead) : 0;
        if (!okLayer || !okHead)
            return Error{"heads", "expected LAYER:HEAD pairs like 1:2, 3:1, got \"" + item.trimmed().toStdString() + "\""};
        if (layer < 1 || layer > layers || head < 1 || head > perLayer)
            return Error{"heads", "expected layers 1 to " + std::to_string(layers) + " and heads 1 to " +
                                      std::to_string(perLayer) + ", got \"" + item.trimmed().toStdString() + "\""};
        heads.push_back({layer - 1, head - 1});
    }
    if (heads.empty()) return Error{"heads", "expected LAYER:HEAD pairs like 1:2, 3:1, got nothing"};
    return heads;
}

std::vector<std::string> tokenTexts(const Trace& trace) {
    std::vector<std::string> out;
    for (const Token& t : trace.tokens) out.push_back(t.text);
    return out;
}

}  // namespace

CorefTab::CorefTab(QWidget* parent) : QWidget(parent) {
    setObjectName("corefTab");
    view_ = new CorefView(this);
    error_ = new QLabel(this);
    error_->setObjectName("corefError");
    error_->setWordWrap(true);
    theme::setThemedStyleSheet(error_, QStringLiteral("QLabel { color: {errorText}; font-weight: bold; }"));
    error_->hide();
    madeUp_ = new QLabel(this);  // words whose vectors a lesson made up: the links say nothing of them
    madeUp_->setObjectName("corefMadeUp");
    madeUp_->setWordWrap(true);
    theme::setThemedStyleSheet(madeUp_, QStringLiteral("QLabel { color: {errorText}; }"));
    madeUp_->hide();
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildControls());
    layout->addWidget(error_);
    layout->addWidget(madeUp_);
    layout->addWidget(view_, 1);
    viewB_ = new CorefView(this);
    viewB_->setObjectName("corefViewB");
    viewB_->setSentenceName(QString(), true);
    viewB_->hide();
    layout->addWidget(viewB_, 1);
    connect(view_, &CorefView::wordClicked, this, [this](int word) {
        mentionWord_ = word;
        emit changed();
    });
    updateMentionLabel();
}

QWidget* CorefTab::buildControls() {
    auto* row = new QWidget(this);
    scoring_ = new QComboBox(row);
    scoring_->setObjectName("corefScoring");
    scoring_->addItems({tr("Attention rollout"), tr("All heads of layer 1"), tr("Chosen heads")});
    scoring_->setToolTip(tr("Rollout multiplies every layer's head-averaged attention (plus the residual identity)"));
    heads_ = new QLineEdit(row);
    heads_->setObjectName("corefHeads");
    heads_->setPlaceholderText(tr("L:H, …"));
    heads_->setToolTip(tr("The heads to average, LAYER:HEAD counted from 1, e.g. 5:4, 6:1"));
    heads_->setMinimumWidth(heads_->fontMetrics().horizontalAdvance("10:12, 9:3") + 16);
    heads_->setMaximumWidth(240);
    heads_->setEnabled(false);
    mentionRow_ = new CorefMentionRow(row);
    // Two short rows: in model mode the predictions panel leaves the tab narrow.
    auto* scoringRow = new QHBoxLayout;
    scoringRow->addWidget(new QLabel(tr("Scores from:"), row));
    scoringRow->addWidget(scoring_);
    scoringRow->addWidget(heads_);
    scoringRow->addStretch(1);
    scoringRow->addWidget(buildExportButton());
    auto* layout = new QVBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(scoringRow);
    layout->addWidget(mentionRow_);
    connect(scoring_, &QComboBox::currentIndexChanged, this, [this](int index) {
        heads_->setEnabled(index == Heads);
        emit changed();
    });
    connect(heads_, &QLineEdit::editingFinished, this, &CorefTab::changed);
    connect(mentionRow_, &CorefMentionRow::cataphoraToggled, this, &CorefTab::changed);
    connect(mentionRow_, &CorefMentionRow::everyPronounRequested, this, &CorefTab::resolveEveryPronoun);
    return row;
}

QToolButton* CorefTab::buildExportButton() {
    auto* button = new QToolButton(this);
    button->setObjectName("corefExport");
    button->setText(tr("Export"));
    button->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(button);
    for (const double scale : {1.0, 2.0, 4.0})
        menu->addAction(tr("Arcs as PNG (%1×)…").arg(scale), this, [this, scale] { exportDialog(Export::Png, scale); });
    menu->addAction(tr("Arcs as SVG…"), this, [this] { exportDialog(Export::Svg, 1); });
    menu->addAction(tr("Arcs as PDF…"), this, [this] { exportDialog(Export::Pdf, 1); });
    menu->addSeparator();
    menu->addAction(tr("Scores as CSV…"), this, [this] { exportDialog(Export::Csv, 1); });
    menu->addAction(tr("Scores as JSON…"), this, [this] { exportDialog(Export::Json, 1); });
    button->setMenu(menu);
    return button;
}

std::optional<ResolveOptions> CorefTab::request(const Trace& trace, int layer, int head) {
    const std::vector<std::string> words = tokenTexts(trace);
    if (words != words_) mentionWord_.reset();  // word indices of another sentence mean nothing here
    words_ = words;
    scoring_->setItemText(Layer, tr("All heads of layer %1").arg(layer + 1));
    auto scoring = chosenScoring(trace, layer, head);
    if (!scoring) {
        setError(coreErrorText(scoring.error()));
        view_->showMessage(tr("Nothing drawn: the heads could not be read."));
        return std::nullopt;
    }
    return ResolveOptions{scoring.value(), mentionRow_->cataphora(), mentionWord_};
}

void CorefTab::showResolution(const Result<SentenceResolution>& resolved) {
    if (!resolved) {
        setError(coreErrorText(resolved.error()));
        madeUp_->hide();
        view_->showMessage(tr("Nothing drawn: the sentence could not be resolved."));
        return;
    }
    setError(QString());
    const QString note = qs(madeUpNote(resolved.value(), coreLanguage()));
    madeUp_->setText(note.isEmpty() ? note : QStringLiteral("⚠ ") + note);
    madeUp_->setVisible(!note.isEmpty());
    view_->showResolution(resolved.value());
    updateMentionLabel();
}

// "A: the animal … tired": the words as resolved.
static QString sentenceName(const QString& letter, const SentenceResolution& s) {
    QStringList words;
    for (const Word& w : s.words) words << qs(w.text);
    return letter + QStringLiteral(": ") + words.join(' ');
}

void CorefTab::showSecondResolution(const Result<SentenceResolution>* resolved) {
    viewB_->setVisible(resolved != nullptr);
    view_->setSentenceName(resolved ? sentenceName(QStringLiteral("A"), view_->resolution()) : QString(), false);
    if (!resolved) return;
    if (!resolved->ok()) return viewB_->showMessage(coreErrorText(resolved->error()));
    viewB_->setSentenceName(sentenceName(QStringLiteral("B"), resolved->value()), true);
    viewB_->showResolution(resolved->value());
}

Result<Scoring> CorefTab::chosenScoring(const Trace& trace, int layer, int head) {
    switch (scoring_->currentIndex()) {
        case Layer: return Scoring::wholeLayer(layer);
        case Heads: {
            if (heads_->text().trimmed().isEmpty()) heads_->setText(headList({{layer, head}}));
            auto heads = parseHeadList(heads_->text(), trace);
            if (!heads) return heads.error();
            return Scoring::headSet(std::move(heads).value());
        }
        default: return Scoring::rollout();
    }
}

void CorefTab::setHeads(const std::vector<HeadRef>& heads) {
    {
        const QSignalBlocker blocker(scoring_);
        scoring_->setCurrentIndex(Heads);
    }
    heads_->setEnabled(true);
    heads_->setText(headList(heads));
    emit changed();
}

void CorefTab::resolveEveryPronoun() {
    mentionWord_.reset();
    emit changed();
}

void CorefTab::updateMentionLabel() {
    if (!mentionWord_) return mentionRow_->showEveryPronoun();
    const SentenceResolution& r = view_->resolution();
    mentionRow_->showMention(r.mentions.empty() ? QString() : qs(r.mentions.front().mention.text));
}

void CorefTab::setError(const QString& text) {
    error_->setText(text);
    error_->setVisible(!text.isEmpty());
}

QString CorefTab::errorText() const { return error_->isVisible() ? error_->text() : QString(); }

Result<void> CorefTab::exportTo(const QString& path, Export kind, double scale) const {
    QByteArray bytes;
    switch (kind) {
        case Export::Png: bytes = pngBytes(view_->renderImage(scale)); break;
        case Export::Svg: bytes = view_->renderSvg(); break;
        case Export::Pdf: bytes = view_->renderPdf(); break;
        case Export::Csv: bytes = QByteArray::fromStdString(resolutionToCsv(view_->resolution())); break;
        case Export::Json: bytes = QByteArray::fromStdString(resolutionToJson(view_->resolution())); break;
    }
    if (bytes.isEmpty()) return Error{path.toStdString(), "nothing could be drawn to write"};
    return writeFileAtomically(path, bytes);  // the one writer: a reader never sees half a file
}

void CorefTab::exportDialog(Export kind, double scale) {
    static const char* const names[] = {"coreference.png", "coreference.svg", "coreference.pdf", "coreference.csv",
                                        "coreference.json"};
    static const char* const filters[] = {QT_TR_NOOP("PNG images (*.png)"), QT_TR_NOOP("SVG images (*.svg)"),
                                          QT_TR_NOOP("PDF documents (*.pdf)"), QT_TR_NOOP("CSV (*.csv)"),
                                          QT_TR_NOOP("JSON (*.json)")};
    const auto i = static_cast<std::size_t>(kind);
    const QString path = QFileDialog::getSaveFileName(this, tr("Export coreference"), names[i], tr(filters[i]));
    if (path.isEmpty()) return;
    if (const auto error = exportTo(path, kind, scale); !error.ok())
        QMessageBox::warning(this, tr("The file could not be written"), coreErrorText(error.error()));
}

}  // namespace attnscope
