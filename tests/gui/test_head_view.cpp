// The head view at long inputs (issue 13 §2): lines at 512 tokens against core's selection for
// the rows on screen, scrolling, the focus token, labels that never overlap at any zoom, and the
// marks where lines leave the visible rows. Checked through the view's records of what it drew.
#include <QAction>
#include <QApplication>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTest>
#include <QWheelEvent>
#include <algorithm>
#include <set>

#include "core/analysis/line_selection.hpp"
#include "core/trace/synthetic_trace.hpp"
#include "ui/attention/head_view.hpp"

using namespace attnscope;

namespace {

// The lines core's selection gives for `filter` (every head, no hidden token) with an end in, or
// crossing, display rows first…last: counted straight from the weights.
int selectedLinesInRows(const Trace& t, int layer, const LineFilter& filter, int first, int last) {
    int n = 0;
    for (const HeadTrace& h : t.layers[static_cast<std::size_t>(layer)].heads) {
        const std::vector<double> threshold = rowLineThresholds(h.weights.toMat(), filter);
        for (int r = 0; r < h.weights.rows(); ++r)
            for (int c = 0; c < h.weights.cols(); ++c)
                if (drawsLine(h.weights(r, c), threshold[static_cast<std::size_t>(r)]) && std::min(r, c) <= last &&
                    std::max(r, c) >= first)
                    ++n;
    }
    return n;
}

// The display rows the scroll area shows: from its scroll bar and the canvas geometry.
std::pair<int, int> rowsOnScreen(const HeadView& v) {
    const int y0 = v.scrollArea()->verticalScrollBar()->value();
    const int y1 = y0 + v.scrollArea()->viewport()->height() - 1;
    const QRect first = v.tokenRect(HoveredToken::Left, 0);
    const int rows = static_cast<int>(v.shownTokens().size());
    const auto rowAt = [&](int y) { return std::clamp((y - first.top()) / v.rowHeight(), 0, rows - 1); };
    return {rowAt(y0), rowAt(y1)};
}

bool paintedCurrent(HeadView& v) {
    v.canvas()->repaint();
    return v.paintedLineCount() > 0;
}

}  // namespace

class HeadViewTest : public QObject {
    Q_OBJECT
private slots:
    void linesAt512TokensAreCoresSelectionForTheVisibleRows();
    void scrollingMovesTheVisibleRowsAndTheDrawnLines();
    void focusShowsOnlyTheFocusTokensLines();
    void labelsNeverOverlap_data();
    void labelsNeverOverlap();
    void linesLeavingTheViewAreMarkedAtTheEdge();
    void escClearsTheFocusBeforeAWindowShortcut();
    void aLongInputsPictureIsDrawnWhereItIsSeen();
};

void HeadViewTest::linesAt512TokensAreCoresSelectionForTheVisibleRows() {
    const Trace t = softmaxLikeTrace(512, 12);
    HeadView v;
    v.resize(700, 800);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.showTrace(t, 0, {});
    const LineFilter filter{0.05, 2};
    v.setLineFilter(filter);
    QTRY_VERIFY_WITH_TIMEOUT(paintedCurrent(v), 60000);
    const auto [first, last] = v.paintedRows();
    QCOMPARE(std::make_pair(first, last), rowsOnScreen(v));
    QVERIFY(last - first > 10 && last < 100);  // a window's worth of the 512 rows
    const int expected = selectedLinesInRows(t, 0, filter, first, last);
    QVERIFY(expected > 0);
    QCOMPARE(v.paintedLineCount(), expected);
    // All of them are in the view's list, which is core's selection for every row.
    QCOMPARE(static_cast<int>(v.drawnLines().size()), selectedLinesInRows(t, 0, filter, 0, 511));
}

void HeadViewTest::scrollingMovesTheVisibleRowsAndTheDrawnLines() {
    const Trace t = softmaxLikeTrace(512, 12);
    HeadView v;
    v.resize(700, 800);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.showTrace(t, 0, {});
    QTRY_VERIFY_WITH_TIMEOUT(paintedCurrent(v), 60000);
    const auto top = v.paintedRows();
    QScrollBar* bar = v.scrollArea()->verticalScrollBar();
    QVERIFY(bar->maximum() > 400 * v.rowHeight());  // far taller than the window: it scrolls
    bar->setValue(bar->maximum() / 2);
    QTRY_VERIFY_WITH_TIMEOUT(paintedCurrent(v), 60000);
    const auto middle = v.paintedRows();
    QVERIFY(middle.first > top.second);
    QCOMPARE(middle, rowsOnScreen(v));
    QCOMPARE(v.paintedLineCount(), selectedLinesInRows(t, 0, v.lineFilter(), middle.first, middle.second));
    // The labels drawn are those rows', both columns.
    std::set<int> labelled;
    for (const HeadViewLabel& l : v.drawnLabels()) labelled.insert(l.token);
    QCOMPARE(static_cast<int>(labelled.size()), middle.second - middle.first + 1);
    QCOMPARE(*labelled.begin(), middle.first);
    // The wheel and the keys scroll too.
    const int before = bar->value();
    const QPointF at(v.scrollArea()->viewport()->rect().center());
    QWheelEvent wheel(at, v.scrollArea()->viewport()->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(v.scrollArea()->viewport(), &wheel);
    QVERIFY(bar->value() > before);
    const int afterWheel = bar->value();
    QTest::mouseClick(v.canvas(), Qt::LeftButton, {}, QPoint(v.canvas()->width() / 2, afterWheel + 100));  // between the columns
    QVERIFY(!v.focusToken());
    QTest::keyClick(v.canvas(), Qt::Key_PageDown);
    QVERIFY(bar->value() > afterWheel);
}

void HeadViewTest::focusShowsOnlyTheFocusTokensLines() {
    const Trace t = softmaxLikeTrace(512, 12, 2);
    HeadView v;
    v.resize(700, 800);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.showTrace(t, 0, {});
    QTRY_VERIFY_WITH_TIMEOUT(!v.drawnLines().empty(), 60000);
    const auto linesOf = [&](int token, int layer) {  // out of and into `token`, straight from the weights
        int n = 0;
        for (const HeadTrace& h : t.layers[static_cast<std::size_t>(layer)].heads)
            for (int i = 0; i < 512; ++i) {
                n += h.weights(token, i) >= HeadView::kMinWeight;
                n += i != token && h.weights(i, token) >= HeadView::kMinWeight;
            }
        return n;
    };
    v.setFocusToken(300);
    QCOMPARE(v.focusToken(), std::make_optional(300));
    for (const DrawnLine& l : v.drawnLines()) QVERIFY(l.from == 300 || l.to == 300);
    QCOMPARE(static_cast<int>(v.drawnLines().size()), linesOf(300, 0));
    // Scrolled to it.
    const auto rows = rowsOnScreen(v);
    QVERIFY(rows.first <= 300 && 300 <= rows.second);
    QTRY_VERIFY_WITH_TIMEOUT(paintedCurrent(v), 60000);
    QVERIFY(v.paintedLineCount() > 0);
    // Hovering another token shows its lines for a while; leaving it, the focus's again.
    v.setHoveredToken(HoveredToken{HoveredToken::Left, 301});
    for (const DrawnLine& l : v.drawnLines()) QCOMPARE(l.from, 301);
    v.setHoveredToken(std::nullopt);
    QCOMPARE(static_cast<int>(v.drawnLines().size()), linesOf(300, 0));
    // It survives a layer change and a head change.
    v.showTrace(t, 1, {});
    QTRY_VERIFY_WITH_TIMEOUT(!v.drawnLines().empty(), 60000);
    QCOMPARE(v.focusToken(), std::make_optional(300));
    QCOMPARE(static_cast<int>(v.drawnLines().size()), linesOf(300, 1));
    v.setHeads({0, 1});
    QTRY_VERIFY_WITH_TIMEOUT(!v.drawnLines().empty(), 60000);
    QCOMPARE(v.focusToken(), std::make_optional(300));
    for (const DrawnLine& l : v.drawnLines()) QVERIFY(l.head <= 1 && (l.from == 300 || l.to == 300));
    // Esc clears it: every line again.
    QTest::keyClick(v.canvas(), Qt::Key_Escape);
    QVERIFY(!v.focusToken());
    QVERIFY(v.drawnLines().size() > 1000);
    // A click on a token focuses it; the find box and the spin box choose one too.
    const int clicked = rowsOnScreen(v).first + 3;
    QTest::mouseClick(v.canvas(), Qt::LeftButton, {}, v.tokenRect(HoveredToken::Right, clicked).center());
    QCOMPARE(v.focusToken(), std::make_optional(clicked));
    QCOMPARE(rowsOnScreen(v).first + 3, clicked);  // in view already: nothing scrolls
    auto* find = v.findChild<QLineEdit*>("focusFind");
    find->setText("W42");  // w42, w420 … w429: the first after the focus token, in order
    QTest::keyClick(find, Qt::Key_Return);
    QCOMPARE(v.focusToken(), std::make_optional(420));
    QTest::keyClick(find, Qt::Key_Return);
    QCOMPARE(v.focusToken(), std::make_optional(421));
    QCOMPARE(v.findChild<QSpinBox*>("focusTokenBox")->value(), 422);  // shown from 1
    v.findChild<QSpinBox*>("focusTokenBox")->setValue(6);
    QCOMPARE(v.focusToken(), std::make_optional(5));
    QVERIFY(rowsOnScreen(v).first <= 5);
}

void HeadViewTest::labelsNeverOverlap_data() {
    QTest::addColumn<int>("tokens");
    QTest::addColumn<int>("zoom");
    for (const int tokens : {8, 128, 512})
        for (const int zoom : {100, 200}) QTest::addRow("%d tokens, %d%%", tokens, zoom) << tokens << zoom;
}

// At the window's fonts (12 pt at 100 %, as app/presentation sets them), top, middle and end.
void HeadViewTest::labelsNeverOverlap() {
    QFETCH(int, tokens);
    QFETCH(int, zoom);
    const Trace t = softmaxLikeTrace(tokens, 2);
    HeadView v;
    QFont font = v.font();
    font.setPointSizeF(12.0 * zoom / 100);
    v.setFont(font);
    v.resize(700, 800);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.showTrace(t, 0, {});
    QScrollBar* bar = v.scrollArea()->verticalScrollBar();
    for (const int at : {0, bar->maximum() / 2, bar->maximum()}) {
        bar->setValue(at);
        v.canvas()->repaint();
        const std::vector<HeadViewLabel>& labels = v.drawnLabels();
        QVERIFY(labels.size() >= std::min<std::size_t>(2 * tokens, 20));
        const int textHeight = QFontMetrics(v.canvas()->font()).height();
        for (std::size_t i = 0; i < labels.size(); ++i) {
            QVERIFY(labels[i].bounds.height() >= textHeight);  // the whole line of text
            for (std::size_t j = i + 1; j < labels.size(); ++j)
                QVERIFY2(!labels[i].bounds.intersects(labels[j].bounds),
                         qPrintable(QStringLiteral("tokens %1 and %2").arg(labels[i].token).arg(labels[j].token)));
        }
    }
}

void HeadViewTest::linesLeavingTheViewAreMarkedAtTheEdge() {
    const Trace t = softmaxLikeTrace(512, 12);
    HeadView v;
    v.resize(700, 800);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.showTrace(t, 0, {});
    QTRY_VERIFY_WITH_TIMEOUT(paintedCurrent(v), 60000);
    // At the top: nothing above; every line into [SEP] (row 511) goes on below.
    QCOMPARE(v.edgeMarks().above, 0);
    const auto [first, last] = rowsOnScreen(v);
    int below = 0;  // of the lines on screen (a row's end counts when its row is)
    for (const DrawnLine& l : v.drawnLines()) below += std::min(l.from, l.to) <= last && std::max(l.from, l.to) > last;
    QVERIFY(below > 12 * (last - first));
    QVERIFY(below < static_cast<int>(v.drawnLines().size()) / 4);  // not those between tokens off screen
    // Counted by whether a row's centre lies below the visible edge: `last` may be cut in half.
    QVERIFY(std::abs(v.edgeMarks().below - below) <= 12 * 20);
    // The focus token [CLS]: its lines into far tokens are cut at the bottom edge, with a mark
    // per crossing in the head's colour; their number is the count shown.
    v.setFocusToken(0);
    QTRY_VERIFY_WITH_TIMEOUT(paintedCurrent(v), 60000);
    int away = 0;
    for (const DrawnLine& l : v.drawnLines()) away += v.tokenRect(HoveredToken::Left, std::max(l.from, l.to)).center().y() >
                                                      v.scrollArea()->viewport()->height() - 1;
    QVERIFY(away > 0);
    QCOMPARE(v.edgeMarks().below, away);
    QCOMPARE(v.edgeMarks().above, 0);
    int marked = 0;
    const QImage shot = v.canvas()->grab().toImage();
    for (const EdgeMarks::Mark& m : v.edgeMarks().marks) {
        QVERIFY(!m.top);
        marked += m.lines;
    }
    QCOMPARE(marked, away);
    // The last mark drawn at a place is in its head's colour in the picture.
    const EdgeMarks::Mark& m = v.edgeMarks().marks.back();
    QCOMPARE(QColor(shot.pixel(m.x, v.scrollArea()->viewport()->height() - 2)), HeadView::headColour(m.head));
    // Scrolled to the end: the focus token's row is above, so all its lines come from above.
    QScrollBar* bar = v.scrollArea()->verticalScrollBar();
    bar->setValue(bar->maximum());
    QTRY_VERIFY_WITH_TIMEOUT(paintedCurrent(v), 60000);
    QCOMPARE(v.edgeMarks().above, static_cast<int>(v.drawnLines().size()));
    QCOMPARE(v.edgeMarks().below, 0);
}

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    HeadViewTest test;
    return QTest::qExec(&test, argc, argv);
}

// Presentation mode leaves full screen on Esc (a window shortcut): with a focus token set, the
// first Esc clears the focus and the second reaches the shortcut.
void HeadViewTest::escClearsTheFocusBeforeAWindowShortcut() {
    const Trace t = softmaxLikeTrace(64, 2, 2);
    QWidget window;
    auto* v = new HeadView(&window);
    int left = 0;
    auto* leave = new QAction(&window);
    leave->setShortcut(QKeySequence(Qt::Key_Escape));
    QObject::connect(leave, &QAction::triggered, [&left] { ++left; });
    window.addAction(leave);
    window.resize(900, 700);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    v->showTrace(t, 0, {});
    v->setFocusToken(10);
    v->canvas()->setFocus();
    QTRY_VERIFY(v->canvas()->hasFocus());
    QTest::keyClick(v->canvas(), Qt::Key_Escape);
    QVERIFY(!v->focusToken());
    QCOMPARE(left, 0);
    QTest::keyClick(v->canvas(), Qt::Key_Escape);
    QCOMPARE(left, 1);
}

// 2,048 tokens are 40,000 px of rows: the picture covers a few screens around the rows seen, and
// after scrolling far a new one is drawn for them. Where its lines land is worked out here from
// the rows' geometry alone: each row's line to itself (flat), and one line from the first row
// on the left to the last on the right, crossing every screen.
void HeadViewTest::aLongInputsPictureIsDrawnWhereItIsSeen() {
    constexpr int T = 2048;
    Trace t;
    for (int i = 0; i < T; ++i) t.tokens.push_back({"w" + std::to_string(i)});
    Mat w = Mat::Identity(T, T);
    w(0, 0) = 0, w(0, T - 1) = 1;
    t.layers.resize(1);
    t.layers[0].heads.resize(1);
    t.layers[0].heads[0].weights = std::move(w);
    HeadView v;
    v.resize(700, 800);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.showTrace(t, 0, {});
    QTRY_VERIFY_WITH_TIMEOUT(v.drawnLines().size() == T, 60000);
    QScrollBar* bar = v.scrollArea()->verticalScrollBar();
    for (const int at : {bar->maximum() / 2, bar->maximum() / 8, bar->maximum()}) {
        bar->setValue(at);
        QTRY_VERIFY_WITH_TIMEOUT(paintedCurrent(v), 60000);
        const QRect seen(0, at, v.canvas()->width(), v.scrollArea()->viewport()->height());
        const QImage shot = v.canvas()->grab(seen).toImage();
        const QColor base = v.canvas()->palette().color(QPalette::Base);
        const auto inked = [&](int x, int y) { return QColor(shot.pixel(x, y - at)) != base; };
        const double left = v.tokenRect(HoveredToken::Left, 0).right() + 5, right = v.tokenRect(HoveredToken::Right, 0).left() - 4;
        const double y0 = v.tokenRect(HoveredToken::Left, 0).center().y(), y1 = v.tokenRect(HoveredToken::Left, T - 1).center().y();
        const int row = rowsOnScreen(v).first + 5;
        const QRect cell = v.tokenRect(HoveredToken::Left, row);
        // The row's flat line, halfway across; nothing half a row above it there.
        const int middle = static_cast<int>((left + right) / 2);
        QVERIFY2(inked(middle, cell.center().y()), qPrintable(QString("row %1's line at y %2").arg(row).arg(cell.center().y())));
        QVERIFY(!inked(middle, cell.top()));
        // The long line where it crosses the row's top edge, and nowhere 12 px either side.
        const int y = cell.top();
        const int x = static_cast<int>(std::lround(left + (right - left) * (y - y0) / (y1 - y0)));
        QVERIFY2(inked(x, y) || inked(x - 1, y) || inked(x + 1, y), qPrintable(QString("the long line at (%1, %2)").arg(x).arg(y)));
        QVERIFY(!inked(x - 12, y) && !inked(x + 12, y));
    }
}

#include "test_head_view.moc"
