#include "core/lab/worksheet.hpp"

#include <sstream>

#include "core/export/table_format.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/messages.hpp"
#include "core/trace/explain.hpp"
#include "core/trace/token_names.hpp"

namespace attnscope {

namespace {

struct Writer {
    WorksheetFormat format;
    std::ostringstream out;

    bool latex() const { return format == WorksheetFormat::Latex; }
    std::string text(const std::string& s) const { return latex() ? latexEscape(s) : markdownEscape(s); }
    void heading(const std::string& s, int level) {
        if (latex()) out << (level == 1 ? "\\section*{" : "\\subsection*{") << text(s) << "}\n\n";
        else out << std::string(static_cast<std::size_t>(level), '#') << " " << text(s) << "\n\n";
    }
    void paragraph(const std::string& s) { out << text(s) << "\n\n"; }
    void table(const Table& t) { out << (latex() ? latexTable(t) : markdownTable(t)) << "\n"; }
    void lines(const std::vector<std::string>& ls) {
        if (latex()) {
            out << "\\begin{itemize}\n";
            for (const std::string& l : ls) out << "\\item " << latexEscape(l) << "\n";
            out << "\\end{itemize}\n\n";
        } else {
            for (const std::string& l : ls) out << "    " << l << "\n";
            out << "\n";
        }
    }
    std::string finish() {
        if (!latex()) return out.str();
        return "\\documentclass{article}\n\\usepackage[margin=2cm]{geometry}\n\\begin{document}\n\n" + out.str() +
               "\\end{document}\n";
    }
};

std::string withDecimals(std::string phrase, int decimals) {
    const auto at = phrase.find("{n}");
    if (at != std::string::npos) phrase.replace(at, 3, std::to_string(decimals));
    return phrase;
}

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

void writeQuestions(Writer& w, const Trace& trace, const Exercise& e, const std::string& title,
                    const WorksheetPhrases& p) {
    const ExerciseSpec& s = e.spec;
    w.heading(title, 1);
    w.paragraph(p.tokens + ": " + tokenLine(trace.tokens, " · "));
    w.heading(p.given, 2);
    for (const Operand& o : operandsOf(trace, s.step, s.layer)) {
        w.heading(stepHeading(trace, o.step, o.layer, s.head, p.language), 3);
        w.table(tableOf(trace, o.step, o.layer, s.head, s.decimals));
    }
    w.heading(p.compute + ": " + stepHeading(trace, s.step, s.layer, s.head, p.language), 2);
    w.paragraph(withDecimals(p.decimals, s.decimals));
    w.table(stepTable(trace, e, &p.blank));
}

void writeAnswers(Writer& w, const Trace& trace, const Exercise& e, const std::string& title,
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
    Writer questions{format, {}}, answers{format, {}};
    writeQuestions(questions, trace, exercise, title, phrases);
    writeAnswers(answers, trace, exercise, title, phrases);
    return Worksheet{questions.finish(), answers.finish()};
}

}  // namespace attnscope
