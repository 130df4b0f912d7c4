#pragma once
// The coreference view: the sentence's words on wrapped lines, an arc from each mention to each
// of its candidate antecedents (thickness and opacity proportional to the score, the chosen one
// in a strong colour), the baselines' choices as labelled markers under their words, and a
// legend naming what produced the scores. Hover an arc for its numbers; click it to list the
// per-head contributions beside the picture; click a word to ask for it as the mention
// (wordClicked — the window resolves it).
//
// It renders a const SentenceResolution as it is: every score, the choice, the baselines and the
// per-head distributions come from core/analysis/coreference.hpp. The picture is painted by one
// widget (no widget per word) so 100+ words cost one paint; exports reuse the same painting.
#include <QImage>
#include <QPainterPath>
#include <QRectF>
#include <QWidget>
#include <optional>
#include <vector>

#include "core/analysis/coreference.hpp"

class QLabel;
class QScrollArea;
class QTableWidget;

namespace attnscope {

class CorefCanvas;

// One word as drawn. `rect` is the word's box in canvas() coordinates.
struct DrawnWord {
    int word = 0;            // index into SentenceResolution::words
    QString text;
    QRectF rect;
    int line = 0;            // wrapped line, from 0
    bool mention = false;    // part of a resolved mention
    bool candidate = false;  // a candidate of at least one mention
};

// One arc, mention → candidate. `path` is in canvas() coordinates.
struct DrawnArc {
    int mention = 0;    // index into SentenceResolution::mentions
    int candidate = 0;  // index into that Resolution's candidates
    int fromWord = 0;   // the mention's first word
    int toWord = 0;     // the candidate word
    double score = 0;
    int rank = 1;       // 1 = highest score of its mention (ties share a rank)
    bool chosen = false;
    double width = 0;    // pen width, px
    double opacity = 0;  // 0..1
    QPainterPath path;
};

// A baseline's choice, drawn as a labelled marker under the word it picked; with several
// mentions, also each mention's number under its word ("#2", and "nearest #2").
struct DrawnMarker {
    enum Kind { Nearest, Rule, MentionNumber };
    Kind kind = Nearest;
    int mention = 0;
    int word = 0;
    QString label;
    QRectF rect;
};

class CorefView : public QWidget {
    Q_OBJECT
public:
    explicit CorefView(QWidget* parent = nullptr);
    ~CorefView() override;

    // Keeps a copy: the resolution is small and the window recomputes it on every change.
    void showResolution(const SentenceResolution& resolved);
    // Nothing to draw: `message` says why (no trace yet, a bad head set, …).
    void showMessage(const QString& message);
    // Beside the Compare tab's second sentence: the legend's first line starts with `name`
    // ("A: …", "B: …"); `second` draws the arcs in other colour-blind-safe colours (Okabe–Ito
    // bluish green and reddish purple for A's red and blue) and dashed, so they read apart in grey too.
    void setSentenceName(const QString& name, bool second);
    bool secondSentence() const { return second_; }
    QColor chosenArcColour() const;
    QColor otherArcColour() const;
    Qt::PenStyle arcPenStyle() const;
    // The colours a word and a marker tag are drawn in, in the current theme (for tests too).
    QColor wordFill(const DrawnWord& word) const;
    QColor wordInk(const DrawnWord& word) const;
    QColor tagColour(DrawnMarker::Kind kind) const;

    // What is drawn, for tests (canvas() coordinates).
    const std::vector<DrawnWord>& drawnWords() const { return words_; }
    const std::vector<DrawnArc>& drawnArcs() const { return arcs_; }
    const std::vector<DrawnMarker>& drawnMarkers() const { return markers_; }
    QString legendText() const;
    QString renormalisedText() const;  // the scores are renormalised: over which share of the attention
    QString message() const { return message_; }
    const SentenceResolution& resolution() const { return resolved_; }
    std::optional<int> arcAt(QPointF canvasPoint) const;   // index into drawnArcs()
    std::optional<int> wordAt(QPointF canvasPoint) const;  // word index
    QString arcToolTip(int arc) const;

    // The arc whose per-head contributions the side panel lists (index into drawnArcs()).
    void selectArc(int arc);
    std::optional<int> selectedArc() const { return selected_; }
    QTableWidget* contributionsTable() const { return contributions_; }
    QString detailText() const;
    QWidget* canvas() const;

    // The picture (legend, words, arcs, markers) at its current layout width, for exports.
    QSize figureSize() const;
    QImage renderImage(double scale) const;  // white background
    QByteArray renderSvg() const;
    QByteArray renderPdf() const;

signals:
    void wordClicked(int word);
    void arcSelected(int arc);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;  // re-wraps on viewport resize
    void changeEvent(QEvent* event) override;                    // re-lays out on font change

private:
    friend class CorefCanvas;
    struct Line {
        double top = 0, wordTop = 0;
    };
    // One item of the legend's key: a sample (line or marker) and its caption.
    struct LegendEntry {
        enum Sample { ChosenArc, OtherArc, NearestMarker, RuleMarker, None } sample = None;
        QRectF sampleRect, textRect;
        QString text;
    };
    void relayout();
    double layoutLegend(double width);
    double layoutKey(double width, double y);
    void layoutWords(double width, double top);
    void layoutMarkers();
    void layoutArcs();
    QPainterPath arcPath(QPointF from, QPointF to, bool sameLine) const;
    QPointF mentionAnchor(const Resolution& r) const;
    QPointF wordAnchor(int word) const;
    const DrawnWord* drawnWord(int word) const;
    void paintScene(QPainter& painter, const QRectF& exposed, bool interactive) const;
    void paintLegend(QPainter& painter) const;
    void paintWords(QPainter& painter, const QRectF& exposed) const;
    void paintArcs(QPainter& painter) const;
    void paintArc(QPainter& painter, const DrawnArc& arc, bool highlighted) const;
    void paintMarkers(QPainter& painter) const;
    void paintChosenScores(QPainter& painter) const;
    void setHoveredArc(std::optional<int> arc);
    void showContributions();
    QFont smallFont() const;
    double arcBand() const;

    SentenceResolution resolved_;
    QString message_;
    QString name_;         // names the sentence in the legend (empty: no name)
    bool second_ = false;  // B's colours and dashes
    std::vector<DrawnWord> words_;
    std::vector<DrawnArc> arcs_;  // painting order: weakest first, so strong arcs lie on top
    std::vector<DrawnMarker> markers_;
    std::vector<Line> lines_;
    std::vector<int> slotOfWord_;  // word index → index into words_ (-1: not drawn)
    std::vector<LegendEntry> legend_;
    QRectF scoringRect_, messageRect_;
    double legendHeight_ = 0;
    double lineWidth_ = 0;
    QSize sceneSize_;
    std::optional<int> hovered_, selected_;

    QScrollArea* scroll_ = nullptr;
    CorefCanvas* canvas_ = nullptr;
    QLabel* detail_ = nullptr;
    QTableWidget* contributions_ = nullptr;
};

}  // namespace attnscope
