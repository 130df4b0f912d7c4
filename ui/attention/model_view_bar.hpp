#pragma once
// The model view's controls above the thumbnails: which layers and heads to show ("1-3,7") and
// the statistic that orders the heads within each layer, plus a line for a refused filter.
// It only passes on what the user typed or chose: ModelView parses, the app orders.
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;

namespace attnscope {

class ModelViewBar : public QWidget {
    Q_OBJECT
public:
    explicit ModelViewBar(QWidget* parent = nullptr);

    QLineEdit* layerEdit() const { return filters_.layers; }
    QLineEdit* headEdit() const { return filters_.heads; }
    // Entry 0: head number; entry i ≥ 1: HeadSortKey(i − 1) (core/analysis/head_order.hpp).
    QComboBox* orderBox() const { return order_; }
    void showMessage(const QString& text);  // empty: hidden
    QString message() const;

signals:
    void layerFilterEntered(const QString& text);
    void headFilterEntered(const QString& text);
    void orderChosen(int entry);

private:
    // The two filters the user types, "1-3,7" each.
    struct Filters {
        QLineEdit* layers = nullptr;
        QLineEdit* heads = nullptr;
    };
    Filters filters_;
    QComboBox* order_ = nullptr;
    QLabel* message_ = nullptr;
};

}  // namespace attnscope
