// Pasted tables: each line is read on its own (a word and its numbers, a Markdown or
// tab-separated row, a row of numbers, a weight matrix's name), then the blocks are put into a
// copy of the lesson. Shape legend: d model width; a weight matrix is rows × cols.
#include "core/lesson/lesson_paste.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include "core/text/error_messages.hpp"

namespace attnscope {

namespace {

// Blogs mix in full-width punctuation and the minus sign; the rest of a line is ASCII syntax.
std::string normalised(std::string_view line) {
    static const std::pair<std::string_view, std::string_view> kSame[] = {
        {"−", "-"}, {"，", ","}, {"：", ":"}, {"＝", "="}, {"［", "["}, {"］", "]"}, {"（", "("}, {"）", ")"}, {"　", " "},
        {"“", "\""}, {"”", "\""}, {"「", "\""}, {"」", "\""}, {"\r", ""}};
    std::string out(line);
    for (const auto& [from, to] : kSame)
        for (std::size_t at = out.find(from); at != std::string::npos; at = out.find(from, at + to.size()))
            out.replace(at, from.size(), to);
    return out;
}

std::string_view trimmed(std::string_view s, std::string_view chars = " \t") {
    const auto first = s.find_first_not_of(chars);
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(chars) - first + 1);
}

std::optional<double> number(std::string_view cell) {
    cell = trimmed(cell);
    if (!cell.empty() && cell.front() == '+') cell.remove_prefix(1);
    double value = 0;
    const auto [end, error] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
    if (cell.empty() || error != std::errc() || end != cell.data() + cell.size() || !std::isfinite(value)) return std::nullopt;
    return value;
}

std::vector<std::string_view> split(std::string_view s, std::string_view separators) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= s.size(); ++i)
        if (i == s.size() || separators.find(s[i]) != std::string_view::npos) {
            if (const auto cell = trimmed(s.substr(start, i - start)); !cell.empty()) out.push_back(cell);
            start = i + 1;
        }
    return out;
}

// "W_Q", "WQ", "W^Q", "w_q", "W_O": a weight matrix's name.
std::optional<LessonMatrixKind> weightName(std::string_view name) {
    std::string key;
    for (const char c : trimmed(name, " \t\"'"))
        if (c != '_' && c != '^' && c != '{' && c != '}') key.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c));
    if (key == "wq") return LessonMatrixKind::WQ;
    if (key == "wk") return LessonMatrixKind::WK;
    if (key == "wv") return LessonMatrixKind::WV;
    if (key == "wo") return LessonMatrixKind::WO;
    return std::nullopt;
}

// What one line says.
struct Line {
    enum Kind { Skip, Heading, Row } kind = Skip;
    LessonMatrixKind heading = LessonMatrixKind::Embeddings;
    std::vector<PastedRow> rows;  // a heading may carry its rows: W_Q = [[1, 0], [0, 1]]
};

// "[[1, 0], [0, 1]]" → "1, 0" and "0, 1"; "[1, 0]" or "1 0" → itself.
std::vector<std::string_view> nestedRows(std::string_view text) {
    std::vector<std::string_view> rows;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '[' && ++depth == 2) start = i + 1;
        if (text[i] == ']' && depth-- == 2) rows.push_back(text.substr(start, i - start));
    }
    if (rows.empty()) rows.push_back(text);
    return rows;
}

using Where = ErrorText;

// The catalogue's own words: "expected a number, found the text "x"".
ErrorText notANumber(std::string_view cell) {
    return errorText(ErrorId::ExpectedFound, ErrorId::ANumber, errorText(ErrorId::JsonText, std::string(cell)));
}

Result<std::vector<double>> numbersOf(const std::vector<std::string_view>& cells, const Where& where) {
    std::vector<double> values;
    for (const std::string_view cell : cells) {
        const auto value = number(cell);
        if (!value) return Error{where, notANumber(cell)};
        values.push_back(*value);
    }
    return values;
}

bool onlyBrackets(std::string_view s) { return s.find_first_not_of(" \t[](){},;") == std::string_view::npos; }

// A word (or a matrix's name) and what follows it.
Result<Line> namedLine(std::string_view name, std::string_view rest, int lineNumber, const Where& where) {
    Line line;
    name = trimmed(name, " \t\"'");
    if (const auto weight = weightName(name)) {
        line.kind = Line::Heading;
        line.heading = *weight;
        if (onlyBrackets(rest)) return line;
        for (const std::string_view row : nestedRows(rest)) {
            auto values = numbersOf(split(row, " \t,;[]()"), where);
            if (!values) return values.error();
            line.rows.push_back({lineNumber, std::string(), std::move(values).value()});
        }
        return line;
    }
    if (onlyBrackets(rest)) {
        if (rest.find('{') != std::string_view::npos) return line;  // "embeddings": {  (a JSON object opens)
        return Error{errorText(ErrorId::WhereMessage, where, std::string(name)),
                     errorText(ErrorId::ExpectedFound, ErrorId::AListOfNumbers, ErrorId::Nothing)};
    }
    auto values = numbersOf(split(rest, " \t,;[]()"), where);
    if (!values) return values.error();
    line.kind = Line::Row;
    line.rows.push_back({lineNumber, std::string(name), std::move(values).value()});
    return line;
}

// Markdown (| a | 1 |), tab-separated or space/comma-separated cells: a header row of names only
// is skipped, a first cell that is no number is the row's word.
Result<Line> cellLine(const std::vector<std::string_view>& cells, bool table, int lineNumber, const Where& where) {
    const bool allNames = std::none_of(cells.begin(), cells.end(), [](std::string_view c) { return number(c).has_value(); });
    if (table && allNames && cells.size() > 1 && !weightName(cells[0])) return Line{};
    if (number(cells[0])) {
        auto values = numbersOf(cells, where);
        if (!values) return values.error();
        Line line;
        line.kind = Line::Row;
        line.rows.push_back({lineNumber, std::string(), std::move(values).value()});
        return line;
    }
    std::string rest;
    for (std::size_t i = 1; i < cells.size(); ++i) rest += std::string(cells[i]) + " ";
    return namedLine(cells[0], rest, lineNumber, where);
}

bool markdownRule(const std::vector<std::string_view>& cells) {
    return !cells.empty() && std::all_of(cells.begin(), cells.end(), [](std::string_view c) {
        return c.find_first_not_of(":- ") == std::string_view::npos && c.find('-') != std::string_view::npos;
    });
}

Result<Line> readLine(std::string_view raw, int lineNumber, const Where& where) {
    const std::string text = normalised(raw);
    const std::string_view line = trimmed(text);
    if (onlyBrackets(line)) return Line{};
    if (line.front() == '|') {
        const auto cells = split(line, "|");
        if (cells.empty() || markdownRule(cells)) return Line{};
        return cellLine(cells, true, lineNumber, where);
    }
    if (line.find('\t') != std::string_view::npos) return cellLine(split(line, "\t"), true, lineNumber, where);
    // 笔=[1,2,1], "记": [1, 1], W_Q = [[1, 0], [0, 1]]: a name before the first = or : (not a number).
    const auto separator = line.find_first_of("=:");
    if (separator != std::string_view::npos && line.substr(0, separator).find('[') == std::string_view::npos &&
        !trimmed(line.substr(0, separator), " \t\"'").empty())
        return namedLine(line.substr(0, separator), line.substr(separator + 1), lineNumber, where);
    return cellLine(split(line, " \t,;[]()"), false, lineNumber, where);
}

Where lineOf(const ErrorText& source, int line) { return errorText(ErrorId::WhereLine, source, line); }

}  // namespace

Result<std::vector<PastedBlock>> parsePastedTable(std::string_view text, const ErrorText& source) {
    std::vector<PastedBlock> blocks;
    int index = 0;
    for (std::size_t start = 0; start <= text.size(); ++index) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const Where where = lineOf(source, index + 1);
        auto line = readLine(text.substr(start, end - start), index + 1, where);
        start = end + 1;
        if (!line) return line.error();
        if (line.value().kind == Line::Skip) continue;
        if (line.value().kind == Line::Heading || blocks.empty())
            blocks.push_back({line.value().kind == Line::Heading ? line.value().heading : LessonMatrixKind::Embeddings,
                              index + 1, {}});
        for (PastedRow& row : line.value().rows) blocks.back().rows.push_back(std::move(row));
    }
    const bool none = std::all_of(blocks.begin(), blocks.end(), [](const PastedBlock& b) { return b.rows.empty(); });
    if (none) return Error{source, errorText(ErrorId::ExpectedFound, ErrorId::AListOfNumbers, ErrorId::Nothing)};
    return blocks;
}

namespace {

// The first number of a row as it was written (shortest form): "1", "0.5".
std::string formatted(const std::vector<double>& values) {
    char text[32] = "";
    if (!values.empty()) *std::to_chars(text, text + sizeof text - 1, values.front()).ptr = '\0';
    return text;
}

std::string matrixName(LessonMatrixKind kind) {
    switch (kind) {
        case LessonMatrixKind::WQ: return "W_Q";
        case LessonMatrixKind::WK: return "W_K";
        case LessonMatrixKind::WV: return "W_V";
        case LessonMatrixKind::WO: return "W_O";
        case LessonMatrixKind::Positional: return "P";
        case LessonMatrixKind::NormGamma: case LessonMatrixKind::FinalNormGamma: return "γ";
        case LessonMatrixKind::NormBeta: case LessonMatrixKind::FinalNormBeta: return "β";
        case LessonMatrixKind::FfnGate: return "W_gate";
        case LessonMatrixKind::FfnIn: return "W_1";
        case LessonMatrixKind::FfnOut: return "W_2";
        case LessonMatrixKind::Vocab: return "W_vocab";
        case LessonMatrixKind::Embeddings: break;
    }
    return "E";
}

Result<void> checkLength(const PastedRow& row, Eigen::Index expected, const std::string& what, const ErrorText& source) {
    if (static_cast<Eigen::Index>(row.values.size()) == expected) return {};
    return Error{lineOf(source, row.line), errorText(ErrorId::ExpectedFoundNote, errorText(ErrorId::CountNumbers, expected),
                                                    row.values.size(), what)};
}

Result<void> pasteWords(Lesson& lesson, const PastedBlock& block, const ErrorText& source) {
    for (const PastedRow& row : block.rows) {
        if (auto e = checkLength(row, lesson.dModel, "d_model", source); !e.ok()) return e;
        if (!lesson.findEmbedding(row.word)) {
            auto added = addLessonWord(lesson, row.word);
            if (!added) return Error{lineOf(source, row.line), added.error().messageForm()};
            lesson = std::move(added).value();
        }
        RowVec& vector = *lesson.findEmbedding(row.word);
        for (int c = 0; c < lesson.dModel; ++c) vector(0, c) = row.values[static_cast<std::size_t>(c)];
    }
    return {};
}

Result<void> pasteMatrix(Lesson& lesson, const PastedBlock& block, const LessonMatrixRef& target, const ErrorText& source) {
    const std::string name = matrixName(target.kind);
    Mat* m = lessonMatrix(lesson, target);
    if (!m) return Error{errorText(ErrorId::WhereMessage, lineOf(source, block.line), name), ErrorId::IsMissing};
    if (static_cast<Eigen::Index>(block.rows.size()) != m->rows())
        return Error{lineOf(source, block.line), errorText(ErrorId::ExpectedFoundNote, errorText(ErrorId::CountRows, m->rows()),
                                                          block.rows.size(), name)};
    for (std::size_t r = 0; r < block.rows.size(); ++r) {
        const PastedRow& row = block.rows[r];
        if (auto e = checkLength(row, m->cols(), name, source); !e.ok()) return e;
        for (Eigen::Index c = 0; c < m->cols(); ++c) (*m)(static_cast<Eigen::Index>(r), c) = row.values[static_cast<std::size_t>(c)];
    }
    return {};
}

// Rows of the first block without words go to the selected weight matrix; words go to the table.
Result<void> pasteBlock(Lesson& lesson, const PastedBlock& block, const LessonMatrixRef& selected, const ErrorText& source) {
    if (block.kind != LessonMatrixKind::Embeddings)
        return pasteMatrix(lesson, block, {block.kind, selected.layer, selected.head, selected.part}, source);
    const auto wordless = std::find_if(block.rows.begin(), block.rows.end(), [](const PastedRow& r) { return r.word.empty(); });
    if (wordless == block.rows.end()) return pasteWords(lesson, block, source);
    // A row of the table must start with its word; a row of a matrix with a number.
    if (selected.kind == LessonMatrixKind::Embeddings || wordless != block.rows.begin())
        return Error{lineOf(source, wordless->line),
                     errorText(ErrorId::ExpectedFound, ErrorId::AWord, errorText(ErrorId::JsonNumber, formatted(wordless->values)))};
    const auto worded = std::find_if(block.rows.begin(), block.rows.end(), [](const PastedRow& r) { return !r.word.empty(); });
    if (worded != block.rows.end()) return Error{lineOf(source, worded->line), notANumber(worded->word)};
    return pasteMatrix(lesson, block, selected, source);
}

}  // namespace

Result<Lesson> pasteIntoLesson(const Lesson& lesson, const std::vector<PastedBlock>& blocks, const LessonMatrixRef& selected,
                               const ErrorText& source) {
    Lesson out = lesson;
    for (const PastedBlock& block : blocks)
        if (auto e = pasteBlock(out, block, selected, source); !e.ok()) return e.error();
    if (auto e = validateLesson(out, out.title.in("")); !e.ok()) return e.error();
    return out;
}

}  // namespace attnscope
