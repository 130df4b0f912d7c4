// What attention did to each word (see token_movement.hpp).
//
// Shape legend: T tokens (T_q queries, T_k keys), d model width, H heads, d_v value width, L layers.
#include "core/analysis/token_movement.hpp"

#include <algorithm>

#include "core/analysis/norm_attention.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope {

namespace {

Error movementError(ErrorText message) { return Error{ErrorText(ErrorId::WhereTokenMovement), std::move(message)}; }

Error noLayer(int layer, int layers) { return movementError(errorText(ErrorId::HasNoLayerOf, layer + 1, layers)); }

Result<void> checkToken(int token, const Mat& states, ErrorId where, const char* sentence) {
    if (token >= 0 && token < states.rows()) return {};
    ErrorText place = sentence ? errorText(ErrorId::WithNote, where, errorText(ErrorId::WhereSentenceNamed, sentence))
                               : ErrorText(where);
    return Error{place, errorText(ErrorId::HasNoTokenOf, token + 1, static_cast<int>(states.rows()))};
}

}  // namespace

double cosineOf(const RowVec& a, const RowVec& b) {
    const double norms = a.norm() * b.norm();
    return norms > 0 ? a.dot(b) / norms : 0;
}

Result<std::vector<Mat>> residualStates(const Trace& trace) {
    if (trace.layers.empty()) return movementError(ErrorText(ErrorId::HasNoLayers));
    std::vector<Mat> states;
    for (const LayerTrace& layer : trace.layers) states.push_back(layer.input);  // T×d each
    const LayerTrace& last = trace.layers.back();
    states.push_back(trace.residual ? Mat(last.input + last.output) : last.output);  // T×d
    return states;
}

std::vector<Mat> residualStates(const ModelRun& run) {
    std::vector<Mat> states;
    for (const MatF& h : run.hiddenStates) states.push_back(h.cast<double>());  // T×d
    return states;
}

Result<Mat> sourceContributions(const Trace& trace, int layer, int token) {
    const auto& heads = trace.layers.at(static_cast<std::size_t>(layer)).heads;
    Mat c;  // T_k×d, row j = c_ij
    for (int h = 0; h < static_cast<int>(heads.size()); ++h) {
        auto f = transformedValues(trace, layer, h);  // T_k×d
        if (!f) return f.error();
        if (c.size() == 0) c = Mat::Zero(f.value().rows(), f.value().cols());
        if (heads[static_cast<std::size_t>(h)].ablated) continue;  // its α were multiplied by 0
        const GridRef alpha = heads[static_cast<std::size_t>(h)].weights;  // T_q×T_k
        for (Eigen::Index j = 0; j < c.rows(); ++j) c.row(j) += alpha(token, j) * f.value().row(j);
    }
    return c;
}

std::vector<TokenMove> movesBetween(const Mat& x, const Mat& y) {
    std::vector<TokenMove> moves;
    for (Eigen::Index i = 0; i < x.rows(); ++i)
        moves.push_back(TokenMove{static_cast<int>(i), (y.row(i) - x.row(i)).norm(), cosineOf(x.row(i), y.row(i)), {}});
    return moves;
}

namespace {

std::vector<SourceContribution> rankedSources(const Mat& c) {  // c: T_k×d
    std::vector<SourceContribution> sources;
    double total = 0;
    for (Eigen::Index j = 0; j < c.rows(); ++j) {
        sources.push_back(SourceContribution{static_cast<int>(j), c.row(j).norm(), c.row(j)});
        total += sources.back().norm;
    }
    for (SourceContribution& s : sources) s.share = total > 0 ? s.norm / total : 0;
    std::stable_sort(sources.begin(), sources.end(), [](const auto& a, const auto& b) { return a.norm > b.norm; });
    return sources;
}

Result<void> checkStates(const Trace& trace, const std::vector<Mat>& states) {
    const int expected = trace.layerCount() + 1;
    if (static_cast<int>(states.size()) != expected)
        return movementError(errorText(ErrorId::ExpectedFound, errorText(ErrorId::StatesPerLayer, expected),
                                       static_cast<int>(states.size())));
    for (const Mat& s : states)
        if (s.rows() != trace.tokenCount() || s.cols() != states.front().cols())
            return movementError(errorText(ErrorId::ExpectedFound, errorText(ErrorId::CountRows, trace.tokenCount()),
                                           errorText(ErrorId::CountRows, static_cast<int>(s.rows()))));
    return {};
}

}  // namespace

Result<TokenMovement> tokenMovement(const Trace& trace, const std::vector<Mat>& states, std::optional<int> layer) {
    if (trace.layers.empty()) return movementError(ErrorText(ErrorId::HasNoLayers));
    if (layer && (*layer < 0 || *layer >= trace.layerCount())) return noLayer(*layer, trace.layerCount());
    if (auto ok = checkStates(trace, states); !ok.ok()) return ok.error();
    const std::size_t from = layer ? static_cast<std::size_t>(*layer) : 0;
    const std::size_t to = layer ? from + 1 : states.size() - 1;
    TokenMovement out{layer, states[from], states[to], movesBetween(states[from], states[to])};
    if (!layer) return out;
    for (TokenMove& move : out.tokens) {
        auto c = sourceContributions(trace, *layer, move.token);
        if (!c) return c.error();
        move.sources = rankedSources(c.value());
    }
    return out;
}

Result<std::vector<double>> sameTokenCosines(const std::vector<Mat>& statesA, int tokenA,
                                             const std::vector<Mat>& statesB, int tokenB) {
    if (statesA.empty() || statesB.empty())
        return Error{ErrorText(ErrorId::WhereSameWord), ErrorText(ErrorId::HasNoLayers)};
    if (statesA.size() != statesB.size())
        return Error{ErrorText(ErrorId::WhereSameWord),
                     errorText(ErrorId::ExpectedFound, errorText(ErrorId::StatesPerLayer, static_cast<int>(statesA.size())),
                               static_cast<int>(statesB.size()))};
    if (auto ok = checkToken(tokenA, statesA.front(), ErrorId::WhereSameWord, "A"); !ok.ok()) return ok.error();
    if (auto ok = checkToken(tokenB, statesB.front(), ErrorId::WhereSameWord, "B"); !ok.ok()) return ok.error();
    std::vector<double> cosines;
    for (std::size_t l = 0; l < statesA.size(); ++l) {
        if (statesA[l].cols() != statesB[l].cols())
            return Error{ErrorText(ErrorId::WhereSameWord),
                         errorText(ErrorId::ExpectedFound, errorText(ErrorId::CountNumbers, static_cast<int>(statesA[l].cols())),
                                   errorText(ErrorId::CountNumbers, static_cast<int>(statesB[l].cols())))};
        cosines.push_back(cosineOf(statesA[l].row(tokenA), statesB[l].row(tokenB)));
    }
    return cosines;
}

}  // namespace attnscope
