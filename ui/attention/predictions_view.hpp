#pragma once
// The model's own output: for each prediction (a [MASK] for BERT, the next token for GPT-2) the
// top-k tokens with their probabilities as bars. It renders ModelRun::predictions only; the
// window supplies how a vocabulary id reads (the tokenizer lives in app/).
#include <QWidget>
#include <functional>
#include <string>
#include <vector>

#include "core/analysis/head_effect.hpp"
#include "core/model/transformer.hpp"

namespace attnscope {

class PredictionsView : public QWidget {
    Q_OBJECT
public:
    using Labeler = std::function<std::string(int id)>;

    struct Row {
        QString token;
        double probability = 0;
        int id = -1;
        double before = -1;  // with every head on, when heads are off (else -1): "before → after"
    };
    struct Group {
        QString heading;  // "[MASK] at position 3" or "Next token after “sat”"
        std::vector<Row> rows;
    };

    explicit PredictionsView(QWidget* parent = nullptr);

    // nextToken: GPT-2 style headings; else masked-token headings.
    void showPredictions(const ModelRun& run, bool nextToken, const Labeler& label);
    // An ablated run: its top-k with each token's probability before the heads went off
    // (comparePredictions of the plain and the ablated run).
    void showChanges(const ModelRun& run, const std::vector<PredictionChange>& changes, bool nextToken,
                     const Labeler& label);
    void clear();

    // What is drawn, for tests.
    const std::vector<Group>& groups() const { return groups_; }
    int itemCount() const;  // rows over all groups
    bool hasChanges() const;  // some row shows before → after
    QSize sizeHint() const override;
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;  // the headings wrap

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    int rowHeight() const;
    QFont headingFont() const;
    int headingHeight(const Group& group, int width) const;
    int contentHeight(int width) const;

    std::vector<Group> groups_;
    QString emptyText_;
};

}  // namespace attnscope
