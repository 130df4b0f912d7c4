#pragma once
// "Most important heads", under the predictions: which prediction to explain, Rank heads (Cancel
// while it runs), its progress, and the heads ranked by how far switching each off moves the
// predicted token's probability (core/analysis/head_effect.hpp). Double-clicking a head asks to
// switch it off. It renders what the controller hands it; it computes nothing.
#include <QStringList>
#include <QWidget>
#include <vector>

#include "core/analysis/head_effect.hpp"
#include "ui/attention/predictions_view.hpp"

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;

namespace attnscope {

class JobProgress;

class HeadEffectBox : public QWidget {
    Q_OBJECT
public:
    using Labeler = PredictionsView::Labeler;  // how a vocabulary id reads
    struct Entry {
        HeadRef head;
        double after = 0;
        QString text;  // as listed: "2:2   0.298 → 0.015 (−0.283)   then “dog”"
    };

    explicit HeadEffectBox(QWidget* parent = nullptr);

    void setPredictions(const QStringList& headings);  // a new run: its predictions, results cleared
    void showProgress(int done, int total);
    void showEffects(const HeadEffects& effects, const Labeler& label);
    void showMessage(const QString& message);  // a failure or "cancelled"; the list is cleared
    int chosenPrediction() const;

    const std::vector<Entry>& entries() const { return entries_; }  // what is listed, best first
    QPushButton* rankButton() const { return rank_; }
    QListWidget* list() const { return list_; }

signals:
    void rankRequested(int prediction);
    void cancelRequested();
    void switchOffRequested(attnscope::HeadRef head);

private:
    void setRunning(bool running);
    void buildRankRow();

    std::vector<Entry> entries_;
    QComboBox* prediction_ = nullptr;  // which prediction, then Rank heads; JobProgress while it runs
    QPushButton* rank_ = nullptr;
    JobProgress* progress_ = nullptr;
    QLabel* caption_ = nullptr;
    QListWidget* list_ = nullptr;
};

}  // namespace attnscope
