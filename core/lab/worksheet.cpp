#include "core/lab/worksheet.hpp"

#include "core/export/table_format.hpp"
#include "core/lab/multi_head_lab.hpp"
#include "core/lab/rope_lab.hpp"
#include "core/lab/worksheet_writer.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/messages.hpp"
#include "core/trace/explain.hpp"
#include "core/trace/kv_cost.hpp"
#include "core/trace/token_names.hpp"

namespace attnscope {

namespace {

// The step's table with each hidden cell replaced by `blank` (questions) or left (answers).
Table stepTable(const Trace& trace, const Exercise& e, const std::string* blank) {
    const ExerciseSpec& s = e.spec;
    Table t = tableOf(trace, s.step, s.layer, s.head, s.decimals);
    if (blank)
        for (const Blank& b : e.blanks) t.cells[static_cast<std::size_t>(b.cell.row)][static_cast<std::size_t>(b.cell.col)] = *blank;
    return t;
}

std::string stepHeading(const Trace& trace, Step step, int layer, int head, Language language) {
    const std::string title = stepTitleIn(trace, step, layer, language);
    if (!isPerHead(step) || trace.headCount() < 2) return title;
    return fillMessage(message(MessageId::TitleOfHead, language), {title, std::to_string(head + 1)});
}

void writeQuestions(WorksheetWriter& w, const Trace& trace, const Exercise& e, const std::string& title,
                    const WorksheetPhrases& p) {
    const ExerciseSpec& s = e.spec;
    w.heading(title, 1);
    w.paragraph(p.tokens + ": " + tokenLine(trace.tokens, " · "));
    if (const auto costs = keyValueCostLines(trace, p.language); !costs.empty()) {  // grouped-query runs
        w.paragraph(costs.front());
        w.lines({costs.begin() + 1, costs.end()});
    }
    w.heading(p.given, 2);
    for (const Operand& o : operandsOf(trace, s.step, s.layer)) {
        w.heading(stepHeading(trace, o.step, o.layer, s.head, p.language), 3);
        w.table(tableOf(trace, o.step, o.layer, s.head, s.decimals));
    }
    w.heading(p.compute + ": " + stepHeading(trace, s.step, s.layer, s.head, p.language), 2);
    w.paragraph(withDecimals(p.decimals, s.decimals));
    w.table(stepTable(trace, e, &p.blank));
}

void writeAnswers(WorksheetWriter& w, const Trace& trace, const Exercise& e, const std::string& title,
                  const WorksheetPhrases& p) {
    const ExerciseSpec& s = e.spec;
    w.heading(title + " — " + p.answerKey, 1);
    w.heading(stepHeading(trace, s.step, s.layer, s.head, p.language), 2);
    w.table(stepTable(trace, e, nullptr));
    w.heading(p.howComputed, 2);
    for (const Blank& b : e.blanks) {
        auto explanation = explainCell(trace, b.cell, s.decimals, p.language);
        if (explanation) w.lines(explanation.value().lines);
    }
}

// One vector turned at one position, pair by pair: what the student writes in a table's row.
struct TurnedPairs {
    RowVec angle, cos, sin;  // 1×h
    RowVec turned;           // 1×d_k  the pipeline's applyRope at that position
};

TurnedPairs turnAt(const RowVec& x, int position, const RowVec& theta) {
    const RopeTables<double> all = ropeTables<double>(position + 1, theta);  // (position+1)×h
    const RopeTables<double> one{all.cos.bottomRows(1), all.sin.bottomRows(1)};
    Mat turned = x;  // 1×d_k
    applyRope<double>(turned, one);
    return TurnedPairs{theta * static_cast<double>(position), one.cos.row(0), one.sin.row(0), turned.row(0)};
}

// Rows: the pairs; columns: θ_i, the angle, cos, sin and the turned pair (blanks but θ_i when asked).
Table pairTable(const TurnedPairs& t, const RowVec& theta, const char* position, const char* name, int decimals,
                const RopeSheetPhrases& p, bool blanks) {
    const std::string x(name);
    Table table{{"θ_i", std::string(position) + "·θ_i", std::string("cos(") + position + "·θ_i)",
                 std::string("sin(") + position + "·θ_i)", x + "′[i]", x + "′[i + d_k/2]"}, {}, {}};
    const Eigen::Index h = theta.size();
    for (Eigen::Index i = 0; i < h; ++i) {
        table.rows.push_back(fillMessage(p.pair, {std::to_string(i + 1)}));
        std::vector<std::string> cells{formatNumber(theta(i), decimals)};
        for (const double v : {t.angle(i), t.cos(i), t.sin(i), t.turned(i), t.turned(i + h)})
            cells.push_back(blanks ? p.sheet.blank : formatNumber(v, decimals));
        table.cells.push_back(std::move(cells));
    }
    return table;
}

}  // namespace

WorksheetPhrases worksheetPhrases(Language language) {
    WorksheetPhrases p;
    p.tokens = message(MessageId::WorksheetTokens, language);
    p.given = message(MessageId::WorksheetGiven, language);
    p.compute = message(MessageId::WorksheetCompute, language);
    p.decimals = fillMessage(message(MessageId::WorksheetDecimals, language), {"{n}"});
    p.answerKey = message(MessageId::WorksheetAnswerKey, language);
    p.howComputed = message(MessageId::WorksheetHowComputed, language);
    p.language = language;
    return p;  // the blank stays ____: a line to write on reads the same in both languages
}

WorksheetPhrases chineseWorksheetPhrases() { return worksheetPhrases(Language::Chinese); }

Result<Worksheet> exerciseWorksheet(const Trace& trace, const Exercise& exercise, WorksheetFormat format,
                                    const std::string& title, const WorksheetPhrases& phrases) {
    if (exercise.blanks.empty()) return Error{ErrorId::WhereWorksheet, ErrorId::ExerciseHidesNoCell};
    WorksheetWriter questions{format, {}}, answers{format, {}};
    writeQuestions(questions, trace, exercise, title, phrases);
    writeAnswers(answers, trace, exercise, title, phrases);
    return Worksheet{questions.finish(), answers.finish()};
}

Result<Worksheet> groupedQueryWorksheet(const GroupedQueryRun& run, int decimals, WorksheetFormat format,
                                        Language language) {
    const int head = run.trace.headCount() > 1 ? 1 : 0;  // query head 2 shares head 1's K and V when H_kv < H
    ExerciseSpec spec;
    spec.step = Step::Scores;
    spec.head = head;
    spec.decimals = decimals;
    auto exercise = makeExercise(run.trace, spec);
    if (!exercise) return exercise.error();
    const std::string title = stepHeading(run.trace, Step::Scores, 0, head, language) +
                              kvSharingText(run.trace, 0, head, language, true);
    return exerciseWorksheet(run.trace, exercise.value(), format, title, worksheetPhrases(language));
}

Result<Worksheet> ropeWorksheet(const RopeSheetInput& in, WorksheetFormat format, const RopeSheetPhrases& p) {
    auto demo = ropeShiftDemo(in.q, in.k, in.m, in.n, in.shift, in.base);  // checks the widths and positions
    if (!demo) return demo.error();
    const RowVec theta = ropeFrequencies(static_cast<int>(in.q.size()), in.base);  // 1×h
    const TurnedPairs q = turnAt(in.q, in.m, theta), k = turnAt(in.k, in.n, theta);
    const std::string m = std::to_string(in.m), n = std::to_string(in.n);
    const std::string score = fillMessage(p.score, {m, n});
    const std::string shifted = fillMessage(p.shifted, {std::to_string(in.shift), std::to_string(in.m + in.shift),
                                                        std::to_string(in.n + in.shift)});
    const auto write = [&](WorksheetWriter& w, bool blanks) {
        w.heading(blanks ? p.title : p.title + " — " + p.sheet.answerKey, 1);
        if (blanks)
            w.paragraph(fillMessage(p.rule, {vectorText(in.q, in.decimals), vectorText(in.k, in.decimals),
                                             std::to_string(in.q.size()), formatNumber(in.base, 0)}));
        if (blanks) w.paragraph(p.sheet.compute + ". " + withDecimals(p.sheet.decimals, in.decimals));
        w.heading(fillMessage(p.queryAt, {m}), 2);
        w.table(pairTable(q, theta, "m", "q", in.decimals, p, blanks));
        w.heading(fillMessage(p.keyAt, {n}), 2);
        w.table(pairTable(k, theta, "n", "k", in.decimals, p, blanks));
        const auto value = [&](double v) { return blanks ? p.sheet.blank : formatNumber(v, in.decimals); };
        w.paragraph(score + " = " + value(demo.value().rows.front().ropeScore));
        w.paragraph(shifted + " = " + value(demo.value().rows.back().ropeScore));
        w.paragraph(blanks ? p.why : p.because);
    };
    WorksheetWriter questions{format, {}}, answers{format, {}};
    write(questions, true);
    write(answers, false);
    return Worksheet{questions.finish(), answers.finish()};
}

}  // namespace attnscope
