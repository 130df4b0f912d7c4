#pragma once
// "The same word in two contexts" (issue 29 §5), the lower part of the X → Y tab: one token of
// sentence A and one of the Compare tab's sentence B, and the cosine of their vectors entering each
// layer and leaving the last, as a curve. It shows core's SameWordCurve; it computes nothing.
#include <QWidget>
#include <memory>

#include "core/analysis/token_movement_export.hpp"

class QComboBox;
class QLabel;

namespace attnscope {

class CurvePlotBuilder;

class SameWordPanel : public QWidget {
    Q_OBJECT
public:
    explicit SameWordPanel(QWidget* parent = nullptr);
    ~SameWordPanel() override;

    // Why there is no curve (no sentence B yet, B running, an error): the curve is cleared.
    void showMessage(const QString& message);
    // The tokens of A and B to choose from, and the chosen pair (0-based); no signal.
    void setTokens(const QStringList& a, const QStringList& b, int chosenA, int chosenB);
    // The curve: `states` names its L+1 points ("entering layer 1", …, "leaving layer L").
    void showCurve(const SameWordCurve& curve, const QStringList& states, const QString& sentenceB, int decimals);

    int chosenA() const;
    int chosenB() const;
    const CurvePlotBuilder& builder() const { return *builder_; }
    QString caption() const;
    QString toolTipOfCaption() const;  // names sentence B

signals:
    void tokensChosen(int a, int b);  // 0-based

private:
    QLabel* caption_ = nullptr;
    QComboBox* tokenA_ = nullptr;
    QComboBox* tokenB_ = nullptr;
    std::unique_ptr<CurvePlotBuilder> builder_;
};

}  // namespace attnscope
