#include "ui/lab/permutation_demo_box.hpp"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include "core/lab/positional_lab.hpp"
#include "ui/lab/control_row.hpp"
#include "ui/lab/lab_plots.hpp"
#include "ui/lab/plot_cards.hpp"
#include "ui/common/core_error_text.hpp"

namespace attnscope {

namespace {
const QSize kCardSize(260, 220);  // as the Positional panel's other cards
}

PermutationDemoBox::PermutationDemoBox(QWidget* parent) : QWidget(parent) {
    auto* demo = new QVBoxLayout(this);
    demo->setContentsMargins(0, 0, 0, 0);
    demo->addWidget(buildControls());
    auto* pair = new QHBoxLayout;
    pair->addWidget(matrixCard(this, original_, "permutation-original", kCardSize));
    pair->addWidget(matrixCard(this, shuffled_, "permutation-shuffled", kCardSize));
    demo->addLayout(pair, 1);
    order_ = new QLabel(this);
    order_->setWordWrap(true);  // fourteen numbers and more: never wider than the screen
    check_ = new QLabel(this);
    check_->setWordWrap(true);
    demo->addWidget(order_);
    demo->addWidget(check_);
    setVisible(false);
}

PermutationDemoBox::~PermutationDemoBox() = default;

QWidget* PermutationDemoBox::buildControls() {
    ControlRow row(this);
    auto* title = new QLabel(tr("<b>Permutation demo</b> on the lesson's sentence (layer 1, head 1)"), row.box());
    seed_ = spinBox(row.box(), 0, 1'000'000, 7);
    keep_ = new QCheckBox(tr("keep positional encoding (and the causal mask)"), row.box());
    row.add(title).add(tr("Shuffle seed"), seed_).add(keep_);
    connect(seed_, &QSpinBox::valueChanged, this, &PermutationDemoBox::refresh);
    connect(keep_, &QCheckBox::toggled, this, &PermutationDemoBox::refresh);
    return row.done();
}

void PermutationDemoBox::setLesson(const Lesson& lesson, const std::string& sentence) {
    input_.emplace(lesson, sentence);
    setVisible(true);
    refresh();
}

void PermutationDemoBox::refresh() {
    if (!input_) return;
    const auto demo = permutationDemo(input_->first, input_->second, static_cast<std::uint64_t>(seed_->value()),
                                      keep_->isChecked());
    if (!demo) {
        check_->setText(tr("No demo: %1").arg(coreErrorText(demo.error())));
        return;
    }
    const PermutationDemo& p = demo.value();
    original_->build(p.original.layers.at(0).heads.at(0).weights.exact(), tr("Original order"), tokenLabels(p.original),
                     tokenLabels(p.original), {0, 1}, tr("attention weight"));
    shuffled_->build(p.shuffled.layers.at(0).heads.at(0).weights.exact(), tr("Shuffled"), tokenLabels(p.shuffled),
                     tokenLabels(p.shuffled), {0, 1}, tr("attention weight"));
    QStringList order;
    for (const int i : p.order) order << QString::number(i);
    order_->setText(tr("Order: shuffled token i is original token [%1]").arg(order.join(", ")));
    const QString difference = QString::number(p.largestDifference, 'e', 1);
    if (!p.positional)
        check_->setText(tr("Without positional encoding, A′(i, j) = A(order[i], order[j]) for every layer, "
                           "head, i, j: largest difference %1 — shuffling only permutes rows and columns.")
                            .arg(difference));
    else if (p.largestDifference > 1e-9)
        check_->setText(tr("With positional encoding kept, A′(i, j) = A(order[i], order[j]) breaks: largest "
                           "difference %1 — the model sees word order.").arg(difference));
    else
        check_->setText(tr("This lesson has no positional encoding or causal mask, so even kept the check "
                           "holds: largest difference %1. Try the causal-mask lesson.").arg(difference));
}

QString PermutationDemoBox::orderText() const { return order_->text(); }
QString PermutationDemoBox::checkText() const { return check_->text(); }

}  // namespace attnscope
