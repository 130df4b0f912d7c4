#include "core/analysis/compare.hpp"

#include <algorithm>
#include <cctype>

#include "core/analysis/coreference.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope {

namespace {

struct Unit {
    std::string text;
    std::vector<int> tokens;
};

// wordsOf's words, with each special token a unit of its own at its place.
std::vector<Unit> unitsOf(const std::vector<Token>& tokens) {
    std::vector<Unit> units;
    for (const Word& w : wordsOf(tokens)) units.push_back({w.text, w.tokens});
    for (int t = 0; t < static_cast<int>(tokens.size()); ++t)
        if (tokens[static_cast<std::size_t>(t)].special) units.push_back({tokens[static_cast<std::size_t>(t)].text, {t}});
    std::sort(units.begin(), units.end(), [](const Unit& x, const Unit& y) { return x.tokens.front() < y.tokens.front(); });
    return units;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// Pairs (i, j) of a longest common subsequence of the lower-cased texts, in order.
std::vector<std::pair<int, int>> commonSubsequence(const std::vector<Unit>& a, const std::vector<Unit>& b) {
    const std::size_t n = a.size(), m = b.size();
    std::vector<std::vector<int>> length(n + 1, std::vector<int>(m + 1, 0));  // of a[i:], b[j:]
    for (std::size_t i = n; i-- > 0;)
        for (std::size_t j = m; j-- > 0;)
            length[i][j] = lower(a[i].text) == lower(b[j].text) ? length[i + 1][j + 1] + 1
                                                                 : std::max(length[i + 1][j], length[i][j + 1]);
    std::vector<std::pair<int, int>> pairs;
    for (std::size_t i = 0, j = 0; i < n && j < m;) {
        if (lower(a[i].text) == lower(b[j].text)) pairs.emplace_back(int(i++), int(j++));
        else if (length[i + 1][j] >= length[i][j + 1]) ++i;
        else ++j;
    }
    return pairs;
}

void addUnit(Alignment& out, const Unit& a, const Unit& b) { out.units.push_back({a.text, b.text, a.tokens, b.tokens}); }

// The words strictly between two matches: paired in order when both gaps are as long, else left out.
void alignGap(Alignment& out, const std::vector<Unit>& a, const std::vector<Unit>& b, int a0, int a1, int b0, int b1) {
    if (a1 - a0 == b1 - b0) {
        for (int k = 0; k < a1 - a0; ++k) addUnit(out, a[std::size_t(a0 + k)], b[std::size_t(b0 + k)]);
        return;
    }
    for (int i = a0; i < a1; ++i) out.onlyInA.push_back(a[std::size_t(i)].text);
    for (int j = b0; j < b1; ++j) out.onlyInB.push_back(b[std::size_t(j)].text);
}

Alignment alignByWord(const std::vector<Token>& ta, const std::vector<Token>& tb) {
    const std::vector<Unit> a = unitsOf(ta), b = unitsOf(tb);
    Alignment out{Alignment::By::Word, {}, {}, {}};
    int i = 0, j = 0;
    for (const auto& [mi, mj] : commonSubsequence(a, b)) {
        alignGap(out, a, b, i, mi, j, mj);
        addUnit(out, a[std::size_t(mi)], b[std::size_t(mj)]);
        i = mi + 1, j = mj + 1;
    }
    alignGap(out, a, b, i, int(a.size()), j, int(b.size()));
    return out;
}

// `crossExpected`: A's kind; B must be the same (an encoder–decoder's stage in both).
Result<const AttentionWeights*> weightsOf(const Trace& trace, HeadRef head, const char* which, bool crossExpected) {
    const ErrorText where = errorText(ErrorId::WhereSentenceNamed, which);
    if (trace.isCrossAttention() != crossExpected)
        return Error{where, errorText(ErrorId::ExpectedFound, ErrorId::SelfAttention, ErrorId::ACrossAttentionTrace)};
    if (head.layer < 0 || head.layer >= static_cast<int>(trace.layers.size()))
        return Error{where, errorText(ErrorId::HasNoLayer, head.layer + 1)};
    const LayerTrace& layer = trace.layers[std::size_t(head.layer)];
    if (head.head < 0 || head.head >= static_cast<int>(layer.heads.size()))
        return Error{where, errorText(ErrorId::HasNoHead, std::to_string(head.layer + 1) + ":" + std::to_string(head.head + 1))};
    const AttentionWeights& w = layer.heads[std::size_t(head.head)].weights;
    if (w.rows() != trace.tokenCount() || w.cols() != trace.keyCount())
        return Error{where, errorText(ErrorId::ExpectedFound, ErrorId::TheHeadsTxTWeights,
                                      std::to_string(w.rows()) + "×" + std::to_string(w.cols()))};
    return &w;
}

}  // namespace

Alignment alignTokens(const std::vector<Token>& a, const std::vector<Token>& b) {
    if (a.size() != b.size()) return alignByWord(a, b);
    Alignment out;
    for (int t = 0; t < static_cast<int>(a.size()); ++t)
        out.units.push_back({a[std::size_t(t)].text, b[std::size_t(t)].text, {t}, {t}});
    return out;
}

std::string unitLabel(const AlignedUnit& unit) {
    return unit.textA == unit.textB ? unit.textA : unit.textA + " | " + unit.textB;
}

Mat unitAttention(GridRef weights, const std::vector<AlignedUnit>& units, bool sideA) {
    return unitAttention(weights, units, units, sideA);
}

Mat unitAttention(GridRef weights, const std::vector<AlignedUnit>& rows, const std::vector<AlignedUnit>& columns, bool sideA) {
    const auto n = static_cast<Eigen::Index>(rows.size()), m = static_cast<Eigen::Index>(columns.size());
    Mat out = Mat::Zero(n, m);
    for (Eigen::Index u = 0; u < n; ++u) {
        const std::vector<int>& from = sideA ? rows[std::size_t(u)].tokensA : rows[std::size_t(u)].tokensB;
        for (Eigen::Index v = 0; v < m; ++v) {
            const std::vector<int>& to = sideA ? columns[std::size_t(v)].tokensA : columns[std::size_t(v)].tokensB;
            double sum = 0;
            for (int q : from)
                for (int k : to) sum += weights(q, k);
            out(u, v) = sum / static_cast<double>(from.size());
        }
    }
    return out;
}

std::optional<CellRef> alignedCellInB(const Alignment& alignment, const CellRef& cell) {
    return alignedCellInB(alignment, alignment, cell);
}

std::optional<CellRef> alignedCellInB(const Alignment& rows, const Alignment& columns, const CellRef& cell) {
    const auto partnerIn = [](const Alignment& alignment, int tokenA) -> std::optional<int> {
        for (const AlignedUnit& u : alignment.units)
            if (std::find(u.tokensA.begin(), u.tokensA.end(), tokenA) != u.tokensA.end()) return u.tokensB.front();
        return std::nullopt;
    };
    const bool tokenRows = !(cell.step == Step::WQ || cell.step == Step::WK || cell.step == Step::WV || cell.step == Step::WO);
    if (!tokenRows) return cell;
    // K, V (and their input) have a row per key token: a cross-attention's source words.
    const bool keyRows = cell.step == Step::Key || cell.step == Step::KeyBeforeRope || cell.step == Step::Value ||
                         cell.step == Step::SourceInput;
    CellRef out = cell;
    const auto row = partnerIn(keyRows ? columns : rows, cell.row);
    if (!row) return std::nullopt;
    out.row = *row;
    if (isTokenByToken(cell.step)) {
        const auto col = partnerIn(columns, cell.col);
        if (!col) return std::nullopt;
        out.col = *col;
    }
    return out;
}

Result<HeadComparison> compareHead(const Trace& a, const Trace& b, HeadRef head) {
    auto wa = weightsOf(a, head, "A", a.isCrossAttention());
    if (!wa) return wa.error();
    auto wb = weightsOf(b, head, "B", a.isCrossAttention());
    if (!wb) return wb.error();
    HeadComparison c{head, alignTokens(a.columnTokens(), b.columnTokens()), {}, {}, {}, alignTokens(a.tokens, b.tokens)};
    c.a = unitAttention(*wa.value(), c.rows.units, c.alignment.units, true);
    c.b = unitAttention(*wb.value(), c.rows.units, c.alignment.units, false);
    c.difference = c.a - c.b;
    return c;
}

}  // namespace attnscope
