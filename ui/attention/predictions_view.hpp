#pragma once
// The model's own output: for each prediction (a [MASK] for BERT, the next token for GPT-2) the
// top-k tokens with their probabilities as bars. It renders ModelRun::predictions only; the
// window supplies how a vocabulary id reads (the tokenizer lives in app/).
#include <QWidget>
#include <functional>
#include <string>
#include <vector>

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
    };
    struct Group {
        QString heading;  // "[MASK] at position 3" or "Next token after “sat”"
        std::vector<Row> rows;
    };

    explicit PredictionsView(QWidget* parent = nullptr);

    // nextToken: GPT-2 style headings; else masked-token headings.
    void showPredictions(const ModelRun& run, bool nextToken, const Labeler& label);
    void clear();

    // What is drawn, for tests.
    const std::vector<Group>& groups() const { return groups_; }
    int itemCount() const;  // rows over all groups
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    int rowHeight() const;
    int contentHeight() const;

    std::vector<Group> groups_;
    QString emptyText_;
};

}  // namespace attnscope
