#include "core/analysis/qk_space.hpp"
#include "core/export/table_format.hpp"

#include <Eigen/Eigenvalues>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/analysis/coreference.hpp"
#include "core/pipeline/steps.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/messages.hpp"

namespace attnscope {

namespace {

// Every row of `m` stacked under `into`.
void appendRows(Mat& into, const Mat& m) {
    const Eigen::Index top = into.rows();
    into.conservativeResize(top + m.rows(), m.cols());
    into.bottomRows(m.rows()) = m;
}

double meanRowNorm(const Mat& m) { return m.rows() == 0 ? 0.0 : m.rowwise().norm().mean(); }

// All sentences' queries (or keys) as one matrix, sentence after sentence.
Mat stacked(const std::vector<QkSentence>& sentences, QkKind kind) {
    Mat all(0, sentences.empty() ? 0 : sentences[0].q.cols());
    for (const QkSentence& s : sentences) appendRows(all, kind == QkKind::Query ? s.q : s.k);
    return all;
}

// The normalised points: every sentence's a·q rows, then its (k + c)/a rows, in points order.
Mat normalisedPoints(const std::vector<QkSentence>& sentences, const QkNormalisation& n) {
    Mat all(0, sentences[0].q.cols());
    for (const QkSentence& s : sentences) {
        appendRows(all, s.q * n.scale);
        appendRows(all, (s.k.rowwise() + n.translation) / n.scale);
    }
    return all;
}

// The top two principal components of the rows of `points` (N×d_k): coordinates N×2 and the
// share of variance each explains. Signs: each eigenvector's largest-|value| entry positive.
Mat principalPlane(const Mat& points, double explained[2]) {
    const Mat centred = points.rowwise() - points.colwise().mean();
    const Mat covariance = centred.transpose() * centred / std::max<double>(1.0, double(points.rows() - 1));
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(covariance);
    const Eigen::VectorXd values = solver.eigenvalues();  // ascending
    const double total = values.cwiseMax(0.0).sum();
    Mat plane = Mat::Zero(points.rows(), 2);
    const Eigen::Index d = values.size();
    for (int c = 0; c < 2 && c < d; ++c) {
        Eigen::VectorXd axis = solver.eigenvectors().col(d - 1 - c);
        Eigen::Index largest = 0;
        axis.cwiseAbs().maxCoeff(&largest);
        if (axis(largest) < 0) axis = -axis;
        plane.col(c) = centred * axis;
        explained[c] = total > 0 ? std::max(0.0, values(d - 1 - c)) / total : 0.0;
    }
    return plane;
}

double pearson(const std::vector<double>& a, const std::vector<double>& b) {
    const auto n = static_cast<double>(a.size());
    if (a.size() < 2) return 0.0;
    double ma = 0, mb = 0;
    for (std::size_t i = 0; i < a.size(); ++i) ma += a[i] / n, mb += b[i] / n;
    double sab = 0, saa = 0, sbb = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        sab += (a[i] - ma) * (b[i] - mb);
        saa += (a[i] - ma) * (a[i] - ma);
        sbb += (b[i] - mb) * (b[i] - mb);
    }
    return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : 0.0;
}

// Distance in the plane against the normalised dot product, for each allowed (query, key) pair.
double distanceDotCorrelation(const std::vector<QkSentence>& sentences, const Mat& normalised, const Mat& plane) {
    std::vector<double> distances, dots;
    Eigen::Index first = 0;  // the sentence's first query row in `normalised`
    for (const QkSentence& s : sentences) {
        const Eigen::Index keys = first + s.q.rows();
        for (Eigen::Index i = 0; i < s.q.rows(); ++i)
            for (Eigen::Index j = 0; j < s.k.rows(); ++j) {
                if (s.mask.size() > 0 && !std::isfinite(s.mask(i, j))) continue;
                distances.push_back((plane.row(first + i) - plane.row(keys + j)).norm());
                dots.push_back(normalised.row(first + i).dot(normalised.row(keys + j)));
            }
        first = keys + s.k.rows();
    }
    return pearson(distances, dots);
}

void addPoints(const QkSentence& s, int sentence, QkKind kind, std::vector<QkPoint>& points) {
    const std::vector<Token>& tokens = kind == QkKind::Query ? s.queryTokens : s.keyTokens;
    for (int t = 0; t < static_cast<int>(tokens.size()); ++t)
        points.push_back({kind, sentence, t, tokens[static_cast<std::size_t>(t)].text,
                          tokenKindOf(tokens[static_cast<std::size_t>(t)]), 0.0, 0.0});
}

Result<void> checkSentences(const std::vector<QkSentence>& sentences) {
    if (sentences.empty())
        return Error{ErrorId::WhereQueriesAndKeys, errorText(ErrorId::ExpectedFound, ErrorId::AtLeastOneSentence, ErrorId::NoneFound)};
    const Eigen::Index width = sentences[0].q.cols();
    for (std::size_t i = 0; i < sentences.size(); ++i) {
        const QkSentence& s = sentences[i];
        const ErrorText where = errorText(ErrorId::WhereQueriesAndKeysSentence, i + 1);
        if (s.q.cols() != width || s.k.cols() != width)
            return Error{where, errorText(ErrorId::ExpectedFound, errorText(ErrorId::VectorsOfWidth, width),
                                          errorText(ErrorId::AndList, s.q.cols(), s.k.cols()))};
        if (s.q.rows() != static_cast<Eigen::Index>(s.queryTokens.size()) ||
            s.k.rows() != static_cast<Eigen::Index>(s.keyTokens.size()) || s.weights.rows() != s.q.rows() ||
            s.weights.cols() != s.k.rows())
            return Error{where, errorText(ErrorId::ExpectedWhat, ErrorId::QkShapes)};
        if (s.q.rows() == 0 || s.k.rows() == 0)
            return Error{where, errorText(ErrorId::ExpectedFound, ErrorId::AtLeastOneToken, ErrorId::NoneFound)};
    }
    return {};
}

}  // namespace

Result<QkSentence> qkSentenceOf(const Trace& trace, int layer, int head) {
    if (layer < 0 || layer >= trace.layerCount())
        return Error{"layer", errorText(ErrorId::ExpectedFound, errorText(ErrorId::ALayerFrom, trace.layerCount()), layer + 1)};
    const LayerTrace& l = trace.layers[static_cast<std::size_t>(layer)];
    if (head < 0 || head >= static_cast<int>(l.heads.size()))
        return Error{"head", errorText(ErrorId::ExpectedFound, errorText(ErrorId::AHeadFrom, l.heads.size()), head + 1)};
    const HeadTrace& h = l.heads[static_cast<std::size_t>(head)];
    if (h.q.rows() != trace.tokenCount() || h.k.rows() != trace.keyCount())
        return Error{errorText(ErrorId::WhereLayerCommaHead, layer + 1, head + 1), ErrorId::QkNotKept};
    const bool masked = h.mask.size() > 0 && !h.mask.allFinite();
    return QkSentence{trace.tokens, trace.columnTokens(), h.q, h.k, h.weights.toMat(), masked ? h.mask : Mat(),
                      trace.scaleDivisor};
}

QkNormalisation qkNormalisation(const std::vector<QkSentence>& sentences) {
    const Mat queries = stacked(sentences, QkKind::Query), keys = stacked(sentences, QkKind::Key);
    QkNormalisation n;
    n.translation = queries.colwise().mean() - keys.colwise().mean();
    const double queryNorm = meanRowNorm(queries), keyNorm = meanRowNorm(keys.rowwise() + n.translation);
    // mean‖a·q‖ = mean‖(k + c)/a‖ ⇔ a² = mean‖k + c‖ / mean‖q‖ (1 when either is all zeros).
    n.scale = queryNorm > 0 && keyNorm > 0 ? std::sqrt(keyNorm / queryNorm) : 1.0;
    return n;
}

double qkSoftmaxCheck(const QkSentence& s, const QkNormalisation& n) {
    if (s.q.rows() == 0 || s.k.rows() == 0) return 0.0;
    const Mat q = s.q * n.scale;
    const Mat k = (s.k.rowwise() + n.translation) / n.scale;
    Mat scores = q * k.transpose() / s.scaleDivisor;
    if (s.mask.size() > 0) scores += s.mask;
    const Mat recomputed = softmaxRows(scores, nullptr);
    return (recomputed - s.weights).cwiseAbs().maxCoeff();
}

Result<QkSpace> qkSpace(const std::vector<QkSentence>& sentences, const QkOptions& options) {
    if (auto ok = checkSentences(sentences); !ok) return ok.error();
    const QkNormalisation n = qkNormalisation(sentences);
    QkSpace space;
    space.scale = n.scale;
    for (int i = 0; i < static_cast<int>(sentences.size()); ++i) {
        const QkSentence& s = sentences[static_cast<std::size_t>(i)];
        addPoints(s, i, QkKind::Query, space.points);
        addPoints(s, i, QkKind::Key, space.points);
        space.weights.push_back(s.weights);
        space.softmaxMaxDifference = std::max(space.softmaxMaxDifference, qkSoftmaxCheck(s, n));
    }
    const Mat normalised = normalisedPoints(sentences, n);
    Mat plane = principalPlane(normalised, space.explained);
    if (options.layout == QkLayout::Tsne) {
        auto embedded = tsne(normalised, options.tsne, options.cancel);
        if (!embedded) return embedded.error();
        plane = std::move(embedded).value();
        space.layout = QkLayout::Tsne;
        space.perplexity = options.tsne.perplexity;
    }
    for (std::size_t p = 0; p < space.points.size(); ++p) {
        space.points[p].x = plane(static_cast<Eigen::Index>(p), 0);
        space.points[p].y = plane(static_cast<Eigen::Index>(p), 1);
    }
    space.distanceDotCorrelation = distanceDotCorrelation(sentences, normalised, plane);
    return space;
}

int QkSpace::queryCount() const {
    int n = 0;
    for (const QkPoint& p : points) n += p.kind == QkKind::Query;
    return n;
}

int QkSpace::keyCount() const { return static_cast<int>(points.size()) - queryCount(); }

TokenKind tokenKindOf(const Token& token) {
    if (token.special) return TokenKind::Special;
    return isPunctuationToken(token) ? TokenKind::Punctuation : TokenKind::Word;
}

const char* qkKindName(QkKind kind) { return kind == QkKind::Query ? "query" : "key"; }

const char* tokenKindName(TokenKind kind) {
    switch (kind) {
        case TokenKind::Special: return "special";
        case TokenKind::Punctuation: return "punctuation";
        case TokenKind::Word: return "word";
    }
    return "word";
}

std::string qkSpaceToJson(const QkSpace& space, HeadRef head) {
    using Json = nlohmann::ordered_json;
    Json points = Json::array();
    for (const QkPoint& p : space.points)
        points.push_back({{"kind", qkKindName(p.kind)}, {"sentence", p.sentence + 1}, {"token", p.token + 1},
                          {"text", p.text}, {"token_kind", tokenKindName(p.tokenKind)}, {"x", p.x}, {"y", p.y}});
    const Json out = {{"format", "attnscope-qk"},
                      {"version", 2},  // the unversioned output before it counted sentence and token from 0
                      {"layer", head.layer + 1},
                      {"head", head.head + 1},
                      {"sentences", space.weights.size()},
                      {"queries", space.queryCount()},
                      {"keys", space.keyCount()},
                      {"layout", space.layout == QkLayout::Pca ? "pca" : "tsne"},
                      {"perplexity", space.layout == QkLayout::Pca ? Json(nullptr) : Json(space.perplexity)},
                      {"explained_variance", {space.explained[0], space.explained[1]}},
                      {"distance_dot_correlation", space.distanceDotCorrelation},
                      {"scale", space.scale},
                      {"softmax_max_difference", space.softmaxMaxDifference},
                      {"points", points}};
    return out.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string qkSpaceToCsv(const QkSpace& space) {
    std::string out = "kind,sentence,token,text,token_kind,x,y\n";
    for (const QkPoint& p : space.points)
        out += std::string(qkKindName(p.kind)) + "," + std::to_string(p.sentence + 1) + "," + std::to_string(p.token + 1) +
               "," + csvField(p.text) + "," + tokenKindName(p.tokenKind) + "," + shortestNumber(p.x) + "," + shortestNumber(p.y) + "\n";
    return out;
}

std::string qkSummary(const QkSpace& space, Language language) {
    const auto printed = [](const char* format, double value) {
        char text[32];
        std::snprintf(text, sizeof text, format, value);
        return std::string(text);
    };
    const std::string layout = space.layout == QkLayout::Tsne
                                   ? fillMessage(message(MessageId::QkTsne, language), {printed("%g", space.perplexity)})
                                   : std::string();
    return fillMessage(message(MessageId::QkSummary, language),
                       {std::to_string(space.queryCount()), std::to_string(space.keyCount()), layout,
                        printed("%.1f", 100 * space.explained[0]), printed("%.1f", 100 * space.explained[1]),
                        printed("%.3f", space.distanceDotCorrelation), printed("%.1e", space.softmaxMaxDifference)});
}

}  // namespace attnscope
