#pragma once
// The Heads panel's top row: which coreference set to evaluate (built-in ones, files chosen
// before, "Other file…"), the random-weights control and the seed, Evaluate / Cancel, the
// progress and a message line.
#include <QString>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace attnscope {

class JobProgress;

class CorefSetRow : public QWidget {
    Q_OBJECT
public:
    explicit CorefSetRow(QWidget* parent = nullptr);

    // A choice in the set box: `source` is what evaluateRequested carries (a path or ":/…").
    void addSource(const QString& label, const QString& source);
    void chooseSource(const QString& source);  // adds a file entry when new
    QString source() const;                    // empty while "Other file…" is chosen

    void setEvaluating(bool running);
    void setUnavailable(const QString& why);  // Evaluate off, `why` its tooltip; empty: on again
    QString unavailable() const { return unavailable_; }
    void setProgress(int done, int total);
    void showMessage(const QString& text);
    QString messageText() const;

    QPushButton* evaluateButton() const { return evaluate_; }
    QCheckBox* controlBox() const { return control_; }  // "Random-weights control"
    // The seed of the intervals' bootstrap and of the control's shuffle (heads --seed): 1 unless changed.
    QSpinBox* seedBox() const { return seed_; }

signals:
    void evaluateRequested(const QString& source);
    void cancelRequested();

private:
    void onChosen(int index);
    static QString evaluateTip();

    QComboBox* sets_ = nullptr;
    QCheckBox* control_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QPushButton* evaluate_ = nullptr;
    JobProgress* progress_ = nullptr;  // "evaluationProgress" and "cancelEvaluation"
    QLabel* message_ = nullptr;
    bool running_ = false;
    QString unavailable_;  // why Evaluate is off; empty while it is offered
};

}  // namespace attnscope
