#pragma once
// Lab ▸ Masks & cross-attention (issue 5 §3), three sub-tabs:
//   Causal mask — the scaled scores, the mask M itself (0 / −∞), S + M and the weights (upper
//     triangle exactly 0) of the lesson run with the causal mask on;
//   Padding mask — the lesson's sentence and a second one as a batch: both padded weight
//     matrices ([PAD] columns exactly 0) and the padded sentence's mask;
//   Cross-attention — queries from the lesson's sentence, keys and values from a typed source
//     sentence: the rectangular T_q×T_k weights; a click on a cell explains it.
// Every matrix and check comes from core (core/lab/masks_lab, runCrossAttention, explainCell).
// Bad input (an empty or over-long sentence) shows a message and keeps what was drawn.
#include <QWidget>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/lesson/lesson.hpp"
#include "core/trace/trace.hpp"
#include "ui/lab/lab_panel.hpp"

class QCustomPlot;
class QLabel;
class QLayout;
class QLineEdit;
class QMouseEvent;
class QPlainTextEdit;
class QSpinBox;
class QTabWidget;

namespace attnscope {

class MatrixPlotBuilder;

class MasksPanel : public QWidget, public LabPanel {
    Q_OBJECT
public:
    enum SubPage { CausalPage, PaddingPage, CrossPage };
    void setInput(const LabInput& input) override { setLesson(input.lesson, input.sentence); }

    explicit MasksPanel(QWidget* parent = nullptr);
    ~MasksPanel() override;
    // The lesson and its sentence (the target of cross-attention, the first of the batch). A new
    // sentence resets the typed second sentences to their defaults.
    void setLesson(const Lesson& lesson, const std::string& sentence);
    void showSubPage(SubPage page);
    void selectCrossCell(int row, int col);  // as a click on the cross-attention heatmap

    // For tests and screenshots.
    QTabWidget* subPages() const { return pages_; }
    QLineEdit* secondSentenceEdit() const { return second_; }
    QLineEdit* sourceEdit() const { return source_; }
    QSpinBox* headBox() const { return head_; }  // the head every sub-tab shows (layer 1)
    const MatrixPlotBuilder& causalScoresPlot() const { return *causalPlots_[0]; }
    const MatrixPlotBuilder& causalMaskPlot() const { return *causalPlots_[1]; }
    const MatrixPlotBuilder& causalMaskedPlot() const { return *causalPlots_[2]; }
    const MatrixPlotBuilder& causalWeightsPlot() const { return *causalPlots_[3]; }
    const MatrixPlotBuilder& paddedWeightsPlot(int sentence) const { return *paddingPlots_.at(sentence); }
    const MatrixPlotBuilder& paddingMaskPlot() const { return *paddingPlots_[2]; }
    const MatrixPlotBuilder& crossWeightsPlot() const { return *crossPlot_; }
    const Trace& crossTrace() const { return crossTrace_; }
    QString causalCheckText() const;
    QString paddingCheckText() const;
    QString crossCheckText() const;
    QString paddingMessage() const;
    QString crossMessage() const;
    QString explanationText() const;

private:
    // The lines every page has around its plots: why it was not updated, and the check of its numbers.
    struct PageTexts {
        QLabel* message = nullptr;
        QLabel* check = nullptr;
    };
    QWidget* assemblePage(QWidget* page, const QString& intro, QLayout* inputs, QLayout* plots, PageTexts& texts);
    QWidget* buildCausalPage();
    QWidget* buildPaddingPage();
    QWidget* buildCrossPage();
    QWidget* plotCard(QWidget* parent, std::unique_ptr<MatrixPlotBuilder>& builder, const QString& name);
    std::vector<QWidget*> selfAttentionCards(QWidget* parent, std::vector<std::unique_ptr<MatrixPlotBuilder>>& plots,
                                             const QStringList& names);
    void refreshAll();
    int head() const;  // 0-based
    void refreshCausal();
    void refreshPadding();
    void refreshCross();
    void onCrossClick(QMouseEvent* event);

    struct Input {
        Lesson lesson;
        std::string sentence;
    };
    std::optional<Input> input_;  // none until setLesson
    Trace crossTrace_;
    QTabWidget* pages_ = nullptr;
    QSpinBox* head_ = nullptr;
    QLineEdit* second_ = nullptr;
    QLineEdit* source_ = nullptr;
    PageTexts causal_, padding_, cross_;
    QLabel* target_ = nullptr;
    QPlainTextEdit* explanation_ = nullptr;
    std::vector<std::unique_ptr<MatrixPlotBuilder>> causalPlots_;   // scaled, mask, masked, weights
    std::vector<std::unique_ptr<MatrixPlotBuilder>> paddingPlots_;  // weights 1, weights 2, mask
    std::unique_ptr<MatrixPlotBuilder> crossPlot_;
};

}  // namespace attnscope
