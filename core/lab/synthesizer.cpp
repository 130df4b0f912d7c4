// Shape legend: T tokens, d model width, ℓ maximum length, a·b = ℓ the factors, r the rank.
#include "core/lab/synthesizer.hpp"

#include <algorithm>
#include <cmath>

#include "core/lab/random.hpp"
#include "core/pipeline/steps.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/messages.hpp"

namespace attnscope {

namespace {

Mat relu(const Mat& m) { return m.cwiseMax(0.0); }

Mat drawn(LabRandom& random, Eigen::Index rows, Eigen::Index cols, Eigen::Index fanIn) {
    return random.normalMatrix(rows, cols) / std::sqrt(static_cast<double>(fanIn));
}

}  // namespace

Result<SynthesizerWeights> makeSynthesizerWeights(int d, int length, int factorA, int rank, std::uint64_t seed) {
    if (d < 1 || length < 1 || rank < 1)
        return Error{ErrorId::WhereSynthesizer, errorText(ErrorId::SynthesizerSizes, d, length, rank)};
    if (factorA < 1 || length % factorA != 0)
        return Error{ErrorId::WhereSynthesizerFactor, errorText(ErrorId::ADivisorOf, length, factorA)};
    SynthesizerWeights w{length, factorA, length / factorA, rank, seed, {}, {}, {}, {}, {}, {}, {}, {}, {}};
    LabRandom random(seed);
    w.w1 = drawn(random, d, d, d);
    w.b1 = drawn(random, 1, d, d);
    w.w2 = drawn(random, d, length, d);
    w.b2 = drawn(random, 1, length, d);
    w.random = drawn(random, length, length, 1);
    w.wA = drawn(random, d, w.factorA, d);
    w.wB = drawn(random, d, w.factorB, d);
    w.r1 = drawn(random, length, rank, rank);
    w.r2 = drawn(random, length, rank, 1);
    return w;
}

Mat denseScores(const Mat& X, const SynthesizerWeights& w) {
    const Mat hidden = relu(project(X, w.w1, w.b1));  // T×d, each row from its own token
    const Mat B = project(hidden, w.w2, w.b2);        // T×ℓ
    return B.leftCols(X.rows());                      // T×T
}

Mat randomScores(int T, const SynthesizerWeights& w) { return w.random.topLeftCorner(T, T); }

Mat factorizedDenseScores(const Mat& X, const SynthesizerWeights& w) {
    const Mat A = relu(X * w.wA);  // T×a
    const Mat Bf = relu(X * w.wB); // T×b
    Mat B(X.rows(), w.length);     // T×ℓ: column j = A[j mod a] · B[j div a]
    for (int j = 0; j < w.length; ++j) B.col(j) = A.col(j % w.factorA).cwiseProduct(Bf.col(j / w.factorA));
    return B.leftCols(X.rows());   // T×T
}

Mat factorizedRandomScores(int T, const SynthesizerWeights& w) {
    return w.r1.topRows(T) * w.r2.topRows(T).transpose();  // T×r · r×T
}

std::vector<double> normalizedAlphas(const std::vector<double>& positions) {
    double total = 0;
    for (const double p : positions) total += std::max(p, 0.0);
    std::vector<double> alphas;
    for (const double p : positions)
        alphas.push_back(total > 0 ? std::max(p, 0.0) / total : 1.0 / static_cast<double>(positions.size()));
    return alphas;
}

Result<Mat> mixtureScores(const std::vector<Mat>& scores, const std::vector<double>& alphas) {
    if (scores.empty() || alphas.size() != scores.size())
        return Error{ErrorId::WhereMixtureAlpha, errorText(ErrorId::OneWeightPerVariant, scores.size(), alphas.size())};
    double total = 0;
    for (double a : alphas) {
        if (!std::isfinite(a) || a < 0) return Error{ErrorId::WhereMixtureAlpha, errorText(ErrorId::FiniteWeights, std::to_string(a))};
        total += a;
    }
    if (std::abs(total - 1.0) > 1e-9)
        return Error{ErrorId::WhereMixtureAlpha, errorText(ErrorId::WeightsSumToOne, std::to_string(total))};
    Mat mix = Mat::Zero(scores[0].rows(), scores[0].cols());
    for (std::size_t i = 0; i < scores.size(); ++i) mix += alphas[i] * scores[i];
    return mix;
}

Result<std::vector<SynthesizerVariant>> synthesizerVariants(const Mat& X, const Mat& dotProductScores,
                                                            const Mat& mask, const SynthesizerWeights& w,
                                                            const std::vector<double>& alphas, Language language) {
    const int T = static_cast<int>(X.rows());
    if (T > w.length)
        return Error{ErrorId::WhereSynthesizer, errorText(ErrorId::SentenceTooLongForModel, T, w.length)};
    const auto name = [language](MessageId id) { return std::string(message(id, language)); };
    std::vector<SynthesizerVariant> variants{{name(MessageId::SynthesizerDotProduct), dotProductScores, {}},
                                             {name(MessageId::SynthesizerDense), denseScores(X, w), {}},
                                             {name(MessageId::SynthesizerRandom), randomScores(T, w), {}},
                                             {name(MessageId::SynthesizerFactorizedDense), factorizedDenseScores(X, w), {}},
                                             {name(MessageId::SynthesizerFactorizedRandom), factorizedRandomScores(T, w), {}}};
    std::vector<Mat> all;
    for (const SynthesizerVariant& v : variants) all.push_back(v.scores);
    auto mix = mixtureScores(all, alphas);
    if (!mix) return mix.error();
    variants.push_back({name(MessageId::SynthesizerMixture), std::move(mix).value(), {}});
    // A causal lesson hides later tokens from every variant, as a decoder's Synthesizer does.
    const bool masked = mask.rows() == T && mask.cols() == T;
    for (SynthesizerVariant& v : variants) v.weights = softmaxRows(masked ? Mat(v.scores + mask) : v.scores, nullptr);
    return variants;
}

}  // namespace attnscope
