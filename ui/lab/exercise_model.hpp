#pragma once
// Thin table adapter over an exercise (core/lab/exercise): the step's matrix with token labels,
// every hidden cell blank and editable until answered, then the typed answer with its verdict as a
// colour AND a mark (✓ right, ✗ wrong, ? not a number), so it reads without colour too.
// It never checks anything: the panel runs core's checkAnswer and hands the verdict back.
#include <QAbstractTableModel>
#include <optional>
#include <string>
#include <vector>

#include "core/lab/exercise.hpp"

namespace attnscope {

class ExerciseTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static inline const QString kRightMark = QStringLiteral("✓");
    static inline const QString kWrongMark = QStringLiteral("✗");
    static inline const QString kNotANumberMark = QStringLiteral("?");

    explicit ExerciseTableModel(QObject* parent = nullptr);

    // Shows `exercise` on `trace` (both must outlive the model or the next show/clear); answers reset.
    void show(const Trace* trace, const Exercise* exercise);
    void clear();
    // The blank at a cell, or -1 when the cell is shown.
    int blankAt(int row, int col) const;
    QModelIndex indexOfBlank(int blank) const;
    // What the student typed for a blank and core's verdict on it.
    void setAnswer(int blank, const QString& typed, Verdict verdict);
    std::optional<Verdict> verdictOf(int blank) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

signals:
    // The student committed text in a blank (the delegate's editor closed with Enter or a click away).
    void answerTyped(int blank, const QString& typed);

private:
    struct Answer {
        QString typed;
        std::optional<Verdict> verdict;
    };
    QVariant blankData(int blank, int role) const;

    const Trace* trace_ = nullptr;
    const Exercise* exercise_ = nullptr;
    std::vector<int> blankOfCell_;  // row-major, -1 for shown cells
    std::vector<Answer> answers_;
    std::vector<std::string> rowLabels_, colLabels_;
};

}  // namespace attnscope
