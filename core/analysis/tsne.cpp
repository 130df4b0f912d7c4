#include "core/analysis/tsne.hpp"

#include <cmath>
#include <cstdio>

#include "core/lab/random.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope {

namespace {

constexpr int kExaggeratedIterations = 250;
constexpr double kExaggeration = 12.0;

Mat squaredDistances(const Mat& x) {
    const Eigen::VectorXd norms = x.rowwise().squaredNorm();
    Mat d = (-2.0 * x * x.transpose()).colwise() + norms;
    d.rowwise() += norms.transpose();
    return d.cwiseMax(0.0);
}

// p(· | i) for precision β (the diagonal left 0) and its entropy in nats.
double rowAt(const Mat& distances, Eigen::Index i, double beta, Eigen::Ref<RowVec> row) {
    const double nearest = [&] {
        double m = INFINITY;
        for (Eigen::Index j = 0; j < distances.cols(); ++j)
            if (j != i) m = std::min(m, distances(i, j));
        return m;
    }();
    double sum = 0, weighted = 0;
    for (Eigen::Index j = 0; j < distances.cols(); ++j) {
        row(j) = j == i ? 0.0 : std::exp(-beta * (distances(i, j) - nearest));  // shifted: no underflow
        sum += row(j);
        weighted += row(j) * (distances(i, j) - nearest);
    }
    row /= sum;
    return std::log(sum) + beta * weighted / sum;
}

Mat jointProbabilities(const Mat& points, double perplexity) {
    const Mat conditional = tsneConditionalRows(points, perplexity);
    Mat p = (conditional + conditional.transpose()) / (2.0 * double(points.rows()));
    return p.cwiseMax(1e-12);
}

// ∂C/∂Y = 4 Σ_j (p_ij − q_ij) · num_ij · (y_i − y_j), num_ij = 1 / (1 + ‖y_i − y_j‖²),
// q_ij = num_ij / Σ num, P scaled by `exaggeration`. Two passes over the pairs i < j; `num` is an
// N×N buffer kept between iterations (no N×N temporaries: at 2,000 points each is 32 MB).
void gradient(const Mat& p, double exaggeration, const Mat& y, Mat& num, Mat& grad) {
    const Eigen::Index n = y.rows();
    double total = 0;
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = i + 1; j < n; ++j) {
            const double dx = y(i, 0) - y(j, 0), dy = y(i, 1) - y(j, 1);
            num(i, j) = 1.0 / (1.0 + dx * dx + dy * dy);
            total += 2 * num(i, j);
        }
    grad.setZero();
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = i + 1; j < n; ++j) {
            const double q = std::max(num(i, j) / total, 1e-12);
            const double force = 4.0 * (exaggeration * p(i, j) - q) * num(i, j);
            const double fx = force * (y(i, 0) - y(j, 0)), fy = force * (y(i, 1) - y(j, 1));
            grad(i, 0) += fx, grad(i, 1) += fy;
            grad(j, 0) -= fx, grad(j, 1) -= fy;
        }
}

// `value` printed with the printf `format` of one number ("%g", "%.4g").
std::string printed(const char* format, double value) {
    char text[32];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

Result<void> checkInput(int n, const TsneOptions& options) {
    if (n > kMaxTsnePoints) return Error{"t-SNE", errorText(ErrorId::TsneTooManyPoints, kMaxTsnePoints, n)};
    if (n < 4) return Error{"t-SNE", errorText(ErrorId::ExpectedFound, errorText(ErrorId::AtLeastNPoints, 4), n)};
    if (!(options.perplexity >= 1.0) || options.perplexity > largestPerplexity(n))
        return Error{"t-SNE", errorText(ErrorId::ExpectedFound,
                                        errorText(ErrorId::APerplexityFrom, printed("%.4g", largestPerplexity(n)), n),
                                        printed("%g", options.perplexity))};
    if (options.iterations < 1) return Error{"t-SNE", errorText(ErrorId::ExpectedWhat, ErrorId::AtLeastOneIteration)};
    return {};
}

}  // namespace

double largestPerplexity(int points) { return (points - 1) / 3.0; }

Mat tsneConditionalRows(const Mat& points, double perplexity) {
    const Mat distances = squaredDistances(points);
    const double target = std::log(perplexity);  // entropy in nats
    Mat rows = Mat::Zero(points.rows(), points.rows());
    for (Eigen::Index i = 0; i < points.rows(); ++i) {
        double beta = 1.0, low = 0.0, high = INFINITY;
        for (int step = 0; step < 200; ++step) {
            const double entropy = rowAt(distances, i, beta, rows.row(i));
            if (std::abs(entropy - target) < 1e-5 * std::log(2.0)) break;
            if (entropy > target) low = beta, beta = std::isinf(high) ? beta * 2 : (beta + high) / 2;
            else high = beta, beta = (beta + low) / 2;
        }
    }
    return rows;
}

Result<Mat> tsne(const Mat& points, const TsneOptions& options, const std::atomic<bool>* cancel) {
    const int n = static_cast<int>(points.rows());
    if (auto ok = checkInput(n, options); !ok) return ok.error();
    const Mat p = jointProbabilities(points, options.perplexity);
    LabRandom random(options.seed);
    Mat y = random.normalMatrix(n, 2) * 1e-4;
    Mat update = Mat::Zero(n, 2), gains = Mat::Ones(n, 2), grad(n, 2), num(n, n);
    const double rate = std::max(double(n) / kExaggeration / 4.0, 50.0);
    for (int it = 0; it < options.iterations; ++it) {
        if (cancel && it % 50 == 0 && cancel->load()) return Error{"t-SNE", ErrorId::Cancelled};
        const bool early = it < kExaggeratedIterations;
        gradient(p, early ? kExaggeration : 1.0, y, num, grad);
        for (Eigen::Index i = 0; i < grad.size(); ++i) {
            // Grow a gain while the step keeps its direction against the gradient, shrink it otherwise.
            const bool sameSign = (grad(i) > 0) == (update(i) > 0);
            gains(i) = std::max(sameSign ? gains(i) * 0.8 : gains(i) + 0.2, 0.01);
        }
        update = (early ? 0.5 : 0.8) * update - rate * gains.cwiseProduct(grad);
        y += update;
        y.rowwise() -= y.colwise().mean();
    }
    return y;
}

}  // namespace attnscope
