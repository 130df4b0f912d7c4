// Common parts of the real models: config, loading, float32 building blocks, multi-head
// attention with Trace recording, the run entry point.
//
// Shape legend: T tokens, d model width, H heads, d_k = d / H, V vocabulary, P positions, L layers.
#include "core/model/transformer.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <set>

#include "core/model/bert.hpp"
#include "core/model/checkpoint_files.hpp"
#include "core/model/gpt2.hpp"
#include "core/model/hf_config.hpp"
#include "core/model/sgemm.hpp"
#include "core/model/simd_kernels.hpp"
#include "core/io/text_file.hpp"
#include "core/pipeline/attention_kernel.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/message_id.hpp"
#include "core/trace/ablation.hpp"

#ifdef ATTNSCOPE_HAVE_OPENBLAS
#include <cblas.h>  // OpenBLAS: CPU-dispatched SGEMM kernels (see the top-level CMakeLists.txt)
#endif

namespace attnscope {

namespace {


std::optional<ModelFamily> familyOf(const std::string& modelType) {
    if (modelType == "bert") return ModelFamily::Bert;
    if (modelType == "roberta") return ModelFamily::Roberta;
    if (modelType == "distilbert") return ModelFamily::DistilBert;
    if (modelType == "gpt2") return ModelFamily::Gpt2;
    return std::nullopt;
}

std::optional<Activation> activationOf(const std::string& name) {
    if (name == "gelu") return Activation::GeluErf;
    if (name == "gelu_new" || name == "gelu_pytorch_tanh" || name == "gelu_fast") return Activation::GeluTanh;
    if (name == "relu") return Activation::Relu;
    return std::nullopt;
}

// Every tensor of the file must be a bound weight or a known unused tensor.
Result<void> checkNoUnexpected(const TensorStore& store, const std::vector<std::string>& used,
                                       const std::function<bool(const std::string&)>& knownUnused,
                                       const std::string& familyName) {
    const std::set<std::string> bound(used.begin(), used.end());
    for (const std::string& name : store.names()) {
        if (bound.count(name) || knownUnused(name)) continue;
        const TensorInfo* info = store.find(name);
        std::string shape = "[";
        for (std::size_t i = 0; i < info->shape.size(); ++i) shape += (i ? ", " : "") + std::to_string(info->shape[i]);
        return Error{errorText(ErrorId::WhereTensor, info->file, "\"" + name + "\""),
                     errorText(ErrorId::UnexpectedTensor, shape + "]", familyName)};
    }
    return {};
}

bool isEncoder(ModelFamily family) { return family != ModelFamily::Gpt2; }

// ------------------------------------------------ the config against what the weights hold
// A config.json can claim sizes no file holds (num_hidden_layers 10⁹ would bind layers for
// minutes); these are checked on the safetensors header alone, before anything is allocated.

// config.json's own spelling of each size, per family (see hf_config.hpp for the aliases).
struct SizeFieldNames {
    const char *layers, *width, *positions;
};
SizeFieldNames sizeFieldNames(ModelFamily family) {
    if (family == ModelFamily::Gpt2) return {"n_layer", "n_embd", "n_positions"};
    if (family == ModelFamily::DistilBert) return {"n_layers", "dim", "max_position_embeddings"};
    return {"num_hidden_layers", "hidden_size", "max_position_embeddings"};
}

// "encoder.layer." (BERT, RoBERTa), "transformer.layer." (DistilBERT), "h." (GPT-2).
std::string layerMarker(ModelFamily family) {
    if (family == ModelFamily::Gpt2) return "h.";
    return family == ModelFamily::DistilBert ? "transformer.layer." : "encoder.layer.";
}

// The layer number in a tensor name such as "bert.encoder.layer.11.output.dense.weight":
// the marker at the start of the name or after a '.', then digits and a '.'.
std::optional<int> layerIndexOf(const std::string& name, const std::string& marker) {
    for (std::size_t at = name.find(marker); at != std::string::npos; at = name.find(marker, at + 1)) {
        if (at > 0 && name[at - 1] != '.') continue;
        const std::size_t first = at + marker.size();
        std::size_t end = first;
        while (end < name.size() && end - first < 9 && std::isdigit(static_cast<unsigned char>(name[end]))) ++end;
        if (end > first && end < name.size() && name[end] == '.') return std::stoi(name.substr(first, end - first));
    }
    return std::nullopt;
}

// The name of the weights in messages: "model.safetensors", or the number of shards.
ErrorText weightFilesLabel(const TensorStore& store) {
    std::set<std::string> files;
    for (const std::string& name : store.names())
        files.insert(std::filesystem::path(store.find(name)->file).filename().string());
    if (files.size() == 1) return ErrorText::verbatim(*files.begin());
    return errorText(ErrorId::ShardsLabel, files.size());
}

// The tensor whose name is `tail` or ends with "." + tail (any model prefix), if there is one.
const TensorInfo* findByTail(const TensorStore& store, const std::string& tail) {
    if (const TensorInfo* bare = store.find(tail)) return bare;
    for (const std::string& name : store.names())
        if (name.size() > tail.size() && name.compare(name.size() - tail.size(), tail.size(), tail) == 0 &&
            name[name.size() - tail.size() - 1] == '.')
            return store.find(name);
    return nullptr;
}

Result<void> checkLayerCount(const TransformerConfig& config, const TensorStore& store,
                                     const std::string& configLabel) {
    const std::string marker = layerMarker(config.family);
    std::set<int> held;
    for (const std::string& name : store.names())
        if (const auto n = layerIndexOf(name, marker)) held.insert(*n);
    if (config.layers <= static_cast<int>(held.size())) return {};
    const std::string field = configLabel + ": " + sizeFieldNames(config.family).layers;
    const ErrorText files = weightFilesLabel(store);
    if (held.empty()) return Error{field, errorText(ErrorId::HoldsNoLayer, config.layers, files, marker)};
    if (held.size() == 1)
        return Error{field, errorText(ErrorId::HoldsOneLayer, config.layers, files, marker, *held.begin(), *held.rbegin())};
    return Error{field, errorText(ErrorId::HoldsLayers, config.layers, files, held.size(), marker, *held.begin(), *held.rbegin())};
}

// One size of the config against one dimension of a 2-D table of the file.
Result<void> checkTableSize(const TensorInfo* table, int dimension, std::int64_t claimed,
                                    const std::string& field, ErrorId what) {
    if (!table || table->shape.size() != 2 || table->shape[static_cast<std::size_t>(dimension)] == claimed)
        return {};  // missing or odd tensors are named by the binder
    return Error{field, errorText(dimension == 0 ? ErrorId::TableHasRows : ErrorId::TableHasColumns, claimed, what, table->name,
                                  std::filesystem::path(table->file).filename().string(),
                                  table->shape[static_cast<std::size_t>(dimension)])};
}

Result<void> checkConfigFitsWeights(const TransformerConfig& config, const TensorStore& store,
                                            const std::string& configLabel) {
    if (auto error = checkLayerCount(config, store, configLabel); !error.ok()) return error;
    const bool gpt2 = config.family == ModelFamily::Gpt2;
    const TensorInfo* words = findByTail(store, gpt2 ? "wte.weight" : "embeddings.word_embeddings.weight");
    const TensorInfo* positions = findByTail(store, gpt2 ? "wpe.weight" : "embeddings.position_embeddings.weight");
    const SizeFieldNames fields = sizeFieldNames(config.family);
    const std::string at = configLabel + ": ";
    if (auto e = checkTableSize(words, 1, config.width, at + fields.width, ErrorId::WordEmbeddingTable); !e.ok()) return e;
    if (auto e = checkTableSize(words, 0, config.vocabSize, at + "vocab_size", ErrorId::WordEmbeddingTable); !e.ok()) return e;
    return checkTableSize(positions, 0, config.positions, at + fields.positions, ErrorId::ThePositionTable);
}

// Tokens for the Trace: the caller's, or the ids as text.
Result<std::vector<Token>> labelTokens(const std::vector<int>& ids, const std::vector<Token>& tokens) {
    if (!tokens.empty() && tokens.size() != ids.size())
        return Error{ErrorId::WhereModelInput, errorText(ErrorId::IdsButLabels, ids.size(), tokens.size())};
    if (!tokens.empty()) return tokens;
    std::vector<Token> labels;
    for (int id : ids) labels.push_back(Token{std::to_string(id), true, id, -1, false});
    return labels;
}

Result<void> checkIds(const std::vector<int>& ids, int vocabSize) {
    if (ids.empty()) return Error{ErrorId::WhereModelInput, ErrorId::NoTokensToRun};
    for (std::size_t i = 0; i < ids.size(); ++i)
        if (ids[i] < 0 || ids[i] >= vocabSize)
            return Error{errorText(ErrorId::WhereModelInputToken, i), errorText(ErrorId::IdOutsideVocabulary, ids[i], vocabSize - 1)};
    return {};
}

}  // namespace

std::string familyName(ModelFamily family) {
    switch (family) {
        case ModelFamily::Bert: return "BERT";
        case ModelFamily::Roberta: return "RoBERTa";
        case ModelFamily::DistilBert: return "DistilBERT";
        case ModelFamily::Gpt2: return "GPT-2";
    }
    return "?";
}

// ---------------------------------------------------------------- config

Result<TransformerConfig> parseTransformerConfig(std::string_view jsonText, std::string_view where) {
    const std::string file(where);
    auto parsed = parseHfConfig(jsonText, file, {"bert", "roberta", "distilbert", "gpt2"});
    if (!parsed) return parsed.error();
    const HfConfig& hf = parsed.value();
    const std::string modelType = hf.modelType;
    const auto family = familyOf(modelType);
    if (!family) return Error{file + ": model_type", errorText(ErrorId::Unsupported, modelType)};
    const auto activation = activationOf(hf.hiddenAct);
    if (!activation) return Error{file + ": activation", errorText(ErrorId::UnsupportedActivation, hf.hiddenAct)};

    TransformerConfig c;
    c.family = *family;
    c.modelType = modelType;
    c.vocabSize = static_cast<int>(hf.vocabSize);
    c.width = static_cast<int>(hf.hiddenSize);
    c.layers = static_cast<int>(hf.numLayers);
    c.heads = static_cast<int>(hf.numHeads);
    c.feedForward = static_cast<int>(hf.intermediateSize);
    c.positions = static_cast<int>(hf.maxPositions);
    c.typeVocabSize = c.family == ModelFamily::Bert || c.family == ModelFamily::Roberta
                          ? static_cast<int>(std::max<std::int64_t>(hf.typeVocabSize, 1)) : 0;
    c.layerNormEps = static_cast<float>(hf.layerNormEps);
    c.activation = *activation;
    // RoBERTa numbers positions from padding_idx + 1 (create_position_ids_from_input_ids).
    if (c.family == ModelFamily::Roberta) c.positionOffset = static_cast<int>(hf.padTokenId.value_or(1)) + 1;
    if (c.maxTokens() < 1) return Error{file + ": max_position_embeddings", ErrorId::NoRoomForToken};
    return c;
}

// ---------------------------------------------------------------- loading

Result<LoadedModel> bindModel(const TransformerConfig& config, std::shared_ptr<const TensorStore> store,
                              std::string source) {
    LoadedModel model;
    model.config = config;
    model.source = std::move(source);
    model.store = std::move(store);
    std::vector<std::string> used;
    std::function<bool(const std::string&)> knownUnused;
    const std::string configLabel = (std::filesystem::path(model.source) / "config.json").string();
    if (auto error = checkConfigFitsWeights(config, *model.store, configLabel); !error.ok()) return error.error();
    if (isEncoder(config.family)) {
        auto bound = bindEncoder(*model.store, config, model.source);
        if (!bound) return bound.error();
        used = bound.value().usedNames;
        if (bound.value().mlm && bound.value().mlm->tied)
            model.notices.push_back(Notice{MessageId::NoticeDecoderTied, {}});
        model.encoder = std::make_shared<const EncoderWeights>(std::move(bound).value());
        knownUnused = [&config](const std::string& n) { return isKnownUnusedEncoderTensor(n, config); };
    } else {
        auto bound = bindGpt2(*model.store, config, model.source);
        if (!bound) return bound.error();
        used = bound.value().usedNames;
        model.gpt2 = std::make_shared<const Gpt2Weights>(std::move(bound).value());
        knownUnused = [](const std::string& n) { return isKnownUnusedGpt2Tensor(n); };
    }
    if (auto error = checkNoUnexpected(*model.store, used, knownUnused, familyName(config.family)); !error.ok()) return error.error();
    model.store->releaseAll();  // also the pages neighbouring tensors share (refuseNonFinite released each)
    return model;
}

Result<LoadedModel> loadModel(const std::filesystem::path& folder) {
    auto files = findCheckpointFiles(folder);  // refuses pickle-only folders by name
    if (!files) return files.error();
    const std::filesystem::path& configPath = files.value().config;
    const auto text = readTextFile(configPath);  // a regular file of at most 16 MiB
    if (!text) return text.error();
    auto config = parseTransformerConfig(text.value(), configPath.string());
    if (!config) return config.error();
    auto store = TensorStore::open(files.value().weights);
    if (!store) return store.error();
    return bindModel(config.value(), std::make_shared<const TensorStore>(std::move(store).value()),
                     folder.string());
}

// ---------------------------------------------------------------- float32 building blocks

namespace {

// Row-major single-precision product C = A·op(B) + beta·C with leading dimensions (the row
// strides), so head slices of Q, K, V and of the context are used in place. A: m×k; op(B): k×n
// (B stored n×k when transB); C: m×n.
[[maybe_unused]] void gemmEigen(Eigen::Index m, Eigen::Index n, Eigen::Index k, const float* A, Eigen::Index lda, const float* B,
               Eigen::Index ldb, bool transB, float beta, float* C, Eigen::Index ldc) {
    using Stride = Eigen::OuterStride<>;
    const Eigen::Map<const MatF, 0, Stride> a(A, m, k, Stride(lda));
    Eigen::Map<MatF, 0, Stride> c(C, m, n, Stride(ldc));
    if (beta == 0.0f) c.setZero();
    if (transB)
        c.noalias() += a * Eigen::Map<const MatF, 0, Stride>(B, n, k, Stride(ldb)).transpose();
    else
        c.noalias() += a * Eigen::Map<const MatF, 0, Stride>(B, k, n, Stride(ldb));
}

// The same for the large products (the projections and the feed-forward layers): OpenBLAS when the
// build found it (its kernel chosen for the running CPU at load time, threaded), else Eigen. The
// per-head attention products use it too (multiHeadAttentionInto).
void gemm(Eigen::Index m, Eigen::Index n, Eigen::Index k, const float* A, Eigen::Index lda, const float* B,
          Eigen::Index ldb, bool transB, float beta, float* C, Eigen::Index ldc) {
#ifdef ATTNSCOPE_HAVE_OPENBLAS
    cblas_sgemm(CblasRowMajor, CblasNoTrans, transB ? CblasTrans : CblasNoTrans, static_cast<blasint>(m),
                static_cast<blasint>(n), static_cast<blasint>(k), 1.0f, A, static_cast<blasint>(lda), B,
                static_cast<blasint>(ldb), beta, C, static_cast<blasint>(ldc));
#else
    gemmEigen(m, n, k, A, lda, B, ldb, transB, beta, C, ldc);
#endif
}

int productThreads() { return productThreadCount(); }  // one setting governs every product (bench/README.md)

// Y += X·op(W) for the projections and feed-forward layers: our own kernel where it beats
// OpenBLAS (sgemm.hpp, ownSgemmWins), else gemm. Y holds the bias.
void weightProduct(const MatF& X, const MatrixRef& W, bool transB, MatF& Y) {
    const SgemmArgs args{X.rows(), Y.cols(), X.cols(), X.data(), X.cols(), W.data, W.cols, transB, Y.data(), Y.cols()};
    const int threads = productThreads();
    if (ownSgemmWins(args.m, args.n, args.k, transB, threads) && ownSgemm(args, threads)) return;
    gemm(args.m, args.n, args.k, args.a, args.lda, args.b, args.ldb, transB, 1.0f, args.c, args.ldc);
}

}  // namespace

void linearInto(const MatF& X, const LinearRef& layer, MatF& Y) {
    Y.resize(X.rows(), layer.weight.rows);  // T×out; no reallocation when the buffer already fits
    Y.rowwise() = layer.bias.view();        // the bias first, then Y += X·Wᵀ (W out×in)
    weightProduct(X, layer.weight, true, Y);
}

void conv1dInto(const MatF& X, const LinearRef& layer, MatF& Y) {
    Y.resize(X.rows(), layer.weight.cols);  // T×out
    Y.rowwise() = layer.bias.view();        // then Y += X·W (W in×out)
    weightProduct(X, layer.weight, false, Y);
}

MatF logitsOf(const MatF& X, const MatrixRef& table, const std::function<void(const float*, std::size_t)>& releasePages) {
    MatF logits = MatF::Zero(X.rows(), table.rows);  // n×V, no bias: the products add to it
    if (!releasePages) {
        weightProduct(X, table, true, logits);
        return logits;
    }
    constexpr Eigen::Index kBlockRows = 8192;  // 24 MB of a 768-wide table
    MatF block;
    for (Eigen::Index r0 = 0; r0 < table.rows; r0 += kBlockRows) {
        const Eigen::Index rows = std::min(kBlockRows, table.rows - r0);
        const float* part = table.data + r0 * table.cols;
        block.setZero(X.rows(), rows);  // n×rows of the logits
        weightProduct(X, MatrixRef{part, rows, table.cols}, true, block);
        logits.middleCols(r0, rows) = block;
        releasePages(part, static_cast<std::size_t>(rows * table.cols));
    }
    return logits;
}

MatF linear(const MatF& X, const LinearRef& layer) {
    MatF Y;
    linearInto(X, layer, Y);
    return Y;
}

MatF conv1d(const MatF& X, const LinearRef& layer) {
    MatF Y;
    conv1dInto(X, layer, Y);
    return Y;
}

LayerBuffers& threadLayerBuffers() {
    thread_local LayerBuffers buffers;  // the window's model worker keeps its own across runs
    return buffers;
}

// The element-wise steps run on the SIMD level chosen at start-up (core/model/simd_kernels.hpp):
// Eigen here is compiled for SSE2 only (no -march).
void layerNorm(MatF& X, const LayerNormRef& norm, float eps) {
    const SimdLevel level = activeSimdLevel();
    const auto n = static_cast<std::size_t>(X.cols());
    for (Eigen::Index r = 0; r < X.rows(); ++r)  // X is row-major: each row contiguous
        layerNormRow(level, X.row(r).data(), n, norm.gamma.data, norm.beta.data, eps);
}

// Both GELUs use Eigen's erf / tanh approximations (a few float ulp from std::erf / std::tanh),
// vectorised: the scalar std::erf took 33 ms of a 400 ms bert-base forward pass (docs/models.md).
void geluErf(MatF& X) { geluErfInPlace(activeSimdLevel(), X.data(), static_cast<std::size_t>(X.size())); }

void geluTanh(MatF& X) { geluTanhInPlace(activeSimdLevel(), X.data(), static_cast<std::size_t>(X.size())); }

void activate(MatF& X, Activation activation) {
    switch (activation) {
        case Activation::GeluErf: geluErf(X); return;
        case Activation::GeluTanh: geluTanh(X); return;
        case Activation::Relu: X = X.cwiseMax(0.0f); return;
    }
}

void softmaxRows(MatF& X) { softmaxRowsInPlace(X, nullptr); }  // the lessons' softmax, in float

MatF gatherRows(const MatrixRef& table, const std::vector<int>& rows) {
    const auto M = table.view();
    MatF out(static_cast<Eigen::Index>(rows.size()), M.cols());
    for (std::size_t i = 0; i < rows.size(); ++i) out.row(static_cast<Eigen::Index>(i)) = M.row(rows[i]);
    return out;
}

Mat toDouble(const MatF& m) { return m.cast<double>(); }

Prediction predictionFrom(int position, RowVecF logits, int topK) {
    Prediction p;
    p.position = position;
    const float top = logits.maxCoeff();
    const double total = (logits.array() - top).cast<double>().exp().sum();
    std::vector<int> order(static_cast<std::size_t>(logits.size()));
    std::iota(order.begin(), order.end(), 0);
    const auto k = std::min<std::size_t>(static_cast<std::size_t>(std::max(topK, 0)), order.size());
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                      [&](int a, int b) { return logits(a) > logits(b) || (logits(a) == logits(b) && a < b); });
    for (std::size_t i = 0; i < k; ++i) {
        const float logit = logits(order[i]);
        p.top.push_back(TokenScore{order[i], static_cast<float>(std::exp(double(logit - top)) / total), logit});
    }
    p.logits = std::move(logits);
    return p;
}

Result<void> checkCancelled(const RunControl& control) {
    if (control.cancel && control.cancel->load()) return Error{ErrorId::WhereModelRun, ErrorId::Cancelled};
    return {};
}

void reportProgress(const RunControl& control, int layersDone, int layerCount) {
    if (control.progress) control.progress(layersDone, layerCount);
}

// ---------------------------------------------------------------- binding by name

std::optional<Eigen::Index> firstNonFinite(const float* data, Eigen::Index n) {
    // x·0 is 0 for every finite x and NaN for NaN and ±∞, so a block's sum of x·0 is 0 exactly
    // when the block is finite: one vectorised pass (Eigen packets), memory-bound. Only a bad
    // block is searched element by element.
    constexpr Eigen::Index kBlock = 4096;
    for (Eigen::Index start = 0; start < n; start += kBlock) {
        const Eigen::Index size = std::min(kBlock, n - start);
        const Eigen::Map<const Eigen::ArrayXf> block(data + start, size);
        if ((block * 0.0f).sum() == 0.0f) continue;
        for (Eigen::Index i = 0; i < size; ++i)
            if (!std::isfinite(block[i])) return start + i;
    }
    return std::nullopt;
}

namespace {

std::string nonFiniteName(float x) { return std::isnan(x) ? "NaN" : x > 0 ? "+inf" : "-inf"; }

}  // namespace

// A weight that is NaN or ±∞ would make every attention weight and prediction NaN without a
// word; the whole tensor is checked once, when it is bound.
bool WeightBinder::refuseNonFinite(const std::string& name, const float* data, Eigen::Index rows, Eigen::Index cols) {
    const Eigen::Index count = rows < 0 ? cols : rows * cols;
    const auto bad = firstNonFinite(data, count);
    // The check read every page: let them go again, so loading never holds the whole file (a run
    // reads each back from the page cache as it needs it).
    store_.releasePages(data, static_cast<std::size_t>(count));
    if (!bad) return false;
    const std::string index = rows < 0 ? std::to_string(*bad)  // a vector: one index
                                       : std::to_string(*bad / cols) + ", " + std::to_string(*bad % cols);
    const TensorInfo* info = store_.find(name);
    const std::string file = info ? std::filesystem::path(info->file).filename().string() + ": " : "";
    const std::string quoted = "\"" + name + "\"";
    error_ = Error{file.empty() ? errorText(ErrorId::WhereTensorAlone, quoted)
                                : errorText(ErrorId::WhereTensor, file.substr(0, file.size() - 2), quoted),
                   errorText(ErrorId::HoldsNonFinite, nonFiniteName(data[*bad]), index)};
    return true;
}

MatrixRef WeightBinder::matrix(const std::string& name, Eigen::Index rows, Eigen::Index cols) {
    if (!error_.ok()) return {};
    auto m = store_.matrix(name, rows, cols);
    if (!m) {
        error_ = m.error();
        return {};
    }
    if (refuseNonFinite(name, m.value().data(), rows, cols)) return {};
    used_.push_back(name);
    return MatrixRef{m.value().data(), rows, cols};
}

VectorRef WeightBinder::vector(const std::string& name, Eigen::Index n) {
    if (!error_.ok()) return {};
    auto v = store_.vector(name, n);
    if (!v) {
        error_ = v.error();
        return {};
    }
    if (refuseNonFinite(name, v.value().data(), -1, n)) return {};
    used_.push_back(name);
    return VectorRef{v.value().data(), n};
}

LinearRef WeightBinder::linear(const std::string& name, Eigen::Index out, Eigen::Index in) {
    return LinearRef{matrix(name + ".weight", out, in), vector(name + ".bias", out)};
}

LinearRef WeightBinder::conv1d(const std::string& name, Eigen::Index in, Eigen::Index out) {
    return LinearRef{matrix(name + ".weight", in, out), vector(name + ".bias", out)};
}

LayerNormRef WeightBinder::layerNorm(const std::string& name, Eigen::Index n) {
    // Checkpoints converted from the original TensorFlow BERT say gamma/beta.
    const bool old = !has(name + ".weight") && has(name + ".gamma");
    return LayerNormRef{vector(name + (old ? ".gamma" : ".weight"), n), vector(name + (old ? ".beta" : ".bias"), n)};
}

// ---------------------------------------------------------------- attention

namespace {

// One thread's products for heads that run side by side (multiHeadAttentionInto): our own
// kernels on one thread at the SIMD level in force, never OpenBLAS's pool (two threads calling it
// at once were 2–3× slower, bench/README.md); Eigen where no kernel of ours runs. The scores are
// Q_h·(K_hᵀ) with K_hᵀ copied out first, so both products take the A·B kernel's broadcast tiles
// (as dot products of d_k = 64 terms each, adding up the partial sums would cost as much).
struct OneThreadProducts {
    SimdLevel level = SimdLevel::Sse2;

    void scores(const ConstHeadView<float>& q, const ConstHeadView<float>& k, MatF& out) const {
        thread_local MatF keysT;  // d_k×T_k
        keysT = k.transpose();
        out.setZero(q.rows(), k.rows());  // T_q×T_k; the kernels add to C
        product({q.rows(), k.rows(), q.cols(), q.data(), q.outerStride(), keysT.data(), keysT.cols(), false,
                 out.data(), out.cols()});
    }
    void weightedSum(const MatF& weights, const ConstHeadView<float>& v, HeadOutView<float> out) const {
        out.setZero();  // T×d_k, A_h·V_h
        product({weights.rows(), v.cols(), weights.cols(), weights.data(), weights.cols(), v.data(), v.outerStride(),
                 false, out.data(), out.outerStride()});
    }
    void product(const SgemmArgs& p) const {
        if (sgemmOnLevel(level, p)) return;
        gemmEigen(p.m, p.n, p.k, p.a, p.lda, p.b, p.ldb, p.transB, 1.0f, p.c, p.ldc);
    }
};

// The models' arithmetic for the attention kernel: float, each head's two products as one SGEMM
// on the head's columns of Q, K, V and of the context in place (`product`: gemm, or `oneThread`'s
// when heads run side by side); no hand-rounding.
struct ModelArithmetic {
    decltype(&gemm) product;
    std::optional<OneThreadProducts> oneThread;

    void scores(const ConstHeadView<float>& q, const ConstHeadView<float>& k, MatF& out) const {
        if (oneThread) return oneThread->scores(q, k, out);
        out.resize(q.rows(), k.rows());  // T×T = Q_h·K_hᵀ
        product(q.rows(), k.rows(), q.cols(), q.data(), q.outerStride(), k.data(), k.outerStride(), true, 0.0f,
                out.data(), out.cols());
    }
    void weightedSum(const MatF& weights, const ConstHeadView<float>& v, HeadOutView<float> out) const {
        if (oneThread) return oneThread->weightedSum(weights, v, out);
        product(weights.rows(), v.cols(), weights.cols(), weights.data(), weights.cols(), v.data(), v.outerStride(),
                false, 0.0f, out.data(), out.outerStride());  // T×T · T×d_k → T×d_k, A_h·V_h
    }
    template <typename M>
    void round(M&&) const {}

    // softmax(scores/√d_k + mask) with the scaling and the mask folded into one vectorised pass
    // a row, for both records (the Full record's scaled and masked scores are computed apart, to
    // be shown), so a layer shows the same weights however much of it the Trace keeps. A causal
    // mask is known by its shape: row i keeps columns 0…i.
    bool causal = false;
    SimdLevel level = SimdLevel::Sse2;

    void weightsFromScores(const HeadInput<float>& in, HeadScratch<float>& s) const {
        const auto cols = static_cast<std::size_t>(s.scores.cols());  // T_q×T_k, in place
        const bool otherMask = !causal && in.mask.size() > 0;  // none today: the general steps
        for (Eigen::Index i = 0; i < s.scores.rows(); ++i) {
            if (otherMask) {
                softmaxRowInGeneral(in, s.scores, i);
                continue;
            }
            const std::size_t valid = causal ? std::min(cols, static_cast<std::size_t>(i) + 1) : cols;
            if (!softmaxRowScaled(level, s.scores.row(i).data(), cols, valid, 1.0f / in.divisor))
                softmaxRowInGeneral(in, s.scores, i);
        }
        s.weights.swap(s.scores);
    }
    // A row without a finite maximum (a NaN, ±∞): the kernel's own steps, for that row only.
    static void softmaxRowInGeneral(const HeadInput<float>& in, MatF& weights, Eigen::Index i) {
        MatF row = weights.row(i) / in.divisor;  // 1×T_k
        if (in.mask.size() > 0) row += in.mask.row(i);
        softmaxRowsInPlace(row, nullptr);
        weights.row(i) = row;
    }
};

}  // namespace

namespace {

// The heads' T×T scratch and the causal mask: kept by the calling thread across layers and runs
// (the mask rebuilt only when T changes), so no layer allocates or page-faults them again.
struct AttentionScratch {
    HeadScratch<float> head;
    MatF causalMask;
};

AttentionScratch& threadScratch() {
    thread_local AttentionScratch scratch;  // each head thread has its own
    return scratch;
}

const MatF& causalMaskOf(AttentionScratch& scratch, Eigen::Index T) {
    if (scratch.causalMask.rows() != T) scratch.causalMask = causalMask<float>(static_cast<int>(T));  // T×T
    return scratch.causalMask;
}

}  // namespace

namespace {

// Heads side by side from this many tokens, one thread each at a time (heads h ≡ part mod parts):
// below it a head is a few microseconds and OpenBLAS's own threads inside each product serve.
constexpr Eigen::Index kHeadThreadsFrom = 128;

}  // namespace

int headThreadsFor(Eigen::Index tokens, int heads) {
    const int threads = productThreads();
    if (threads < 2 || tokens < kHeadThreadsFrom || activeSimdLevel() == SimdLevel::Sse2) return 1;
    return std::min(threads, heads);
}

void multiHeadAttentionInto(const MatF& Q, const MatF& K, const MatF& V, int heads, bool causal, LayerDetail detail,
                            LayerTrace& layer, const std::vector<bool>& ablated, MatF& context) {
    const Eigen::Index T = Q.rows(), d = Q.cols(), dk = d / heads;
    const float divisor = std::sqrt(static_cast<float>(dk));
    const HeadRecord record = detail == LayerDetail::Full ? HeadRecord::Everything : HeadRecord::WeightsOnly;
    static const MatF noMask;
    const MatF& mask = causal ? causalMaskOf(threadScratch(), T) : noMask;  // T×T; none for the encoders
    context.resize(T, d);                                                  // T×d
    layer.heads.assign(static_cast<std::size_t>(heads), HeadTrace{});
    const RowNotices rows{};  // a row always keeps its own token, so the softmax has nothing to say
    // Each head writes only its own HeadTrace and context columns, and its thread's scratch.
    const auto attend = [&](int h, const ModelArithmetic& arithmetic) {
        const Eigen::Index c0 = h * dk;  // head h: columns c0…c0+d_k of Q, K, V and the context
        const HeadInput<float> in{Q.middleCols(c0, dk), K.middleCols(c0, dk), V.middleCols(c0, dk), mask, divisor,
                                  !ablated.empty() && ablated[static_cast<std::size_t>(h)]};
        attendHead(in, arithmetic, threadScratch().head, context.middleCols(c0, dk), record,
                   layer.heads[static_cast<std::size_t>(h)], rows);
    };
    const int parts = headThreadsFor(T, heads);
    const ModelArithmetic alone{&gemm, std::nullopt, causal, activeSimdLevel()};
    const ModelArithmetic sideBySide{&gemm, OneThreadProducts{activeSimdLevel()}, causal, activeSimdLevel()};
    const std::function<void(int)> part = [&](int index) {
        for (int h = index; h < heads; h += parts) attend(h, sideBySide);
    };
    if (parts > 1 && runOnColumnPool(parts, part)) return;
    // Heads one after the other, each product through gemm (OpenBLAS, threaded inside).
    for (int h = 0; h < heads; ++h) attend(h, alone);
}

MatF multiHeadAttention(const MatF& Q, const MatF& K, const MatF& V, int heads, bool causal,
                        LayerDetail detail, LayerTrace& layer, const std::vector<bool>& ablated) {
    MatF context;
    multiHeadAttentionInto(Q, K, V, heads, causal, detail, layer, ablated, context);
    return context;
}

// ---------------------------------------------------------------- running

namespace {

std::vector<LayerDetail> detailPolicy(int layers, int T, const RunControl& control) {
    std::vector<LayerDetail> detail(static_cast<std::size_t>(layers), LayerDetail::Full);
    if (T <= control.fullDetailMaxTokens) return detail;
    for (int n = 0; n < layers; ++n)
        if (n != control.detailLayer) detail[static_cast<std::size_t>(n)] = LayerDetail::WeightsOnly;
    return detail;
}

void setTraceFlags(Trace& trace, const TransformerConfig& config) {
    trace.positionalKind = PositionalKind::Table;
    trace.projections = true;
    trace.scaled = true;
    trace.scaleDivisor = std::sqrt(static_cast<double>(config.headWidth()));
    trace.causal = config.family == ModelFamily::Gpt2;
    trace.hasOutputProjection = true;
}

}  // namespace

namespace {

// Each layer's mapped weights leave the resident memory once the layer has run (after every
// layer runLayers reports progress): issue 16's memory bound, core/model/tensor_store.hpp.
void releaseEachLayer(const TensorStore& store, const RunControl& control, RunControl& effective) {
    effective.progress = [&store, report = control.progress](int done, int count) {
        store.releaseLayer(done - 1);
        if (report) report(done, count);
    };
}

}  // namespace

Result<ModelRun> runModel(const LoadedModel& model, const std::vector<int>& ids, const std::vector<Token>& tokens,
                          const RunControl& control) {
    const TransformerConfig& config = model.config;
    if (auto error = checkIds(ids, config.vocabSize); !error.ok()) return error.error();
    auto labels = labelTokens(ids, tokens);
    if (!labels) return labels.error();

    ModelRun run;
    std::vector<int> input = ids;
    run.trace.tokens = std::move(labels).value();
    const auto limit = static_cast<std::size_t>(config.maxTokens());
    if (input.size() > limit) {
        run.trace.notices.push_back(Notice{MessageId::NoticeModelTruncated, {std::to_string(input.size()), std::to_string(limit)}});
        input.resize(limit);
        run.trace.tokens.resize(limit);
    }
    setTraceFlags(run.trace, config);
    run.detail = detailPolicy(config.layers, static_cast<int>(input.size()), control);
    RunControl effective = control;
    if (effective.predictAt.empty()) {
        if (isEncoder(config.family)) {
            for (std::size_t i = 0; i < run.trace.tokens.size(); ++i)
                if (run.trace.tokens[i].text == "[MASK]" || run.trace.tokens[i].text == "<mask>")
                    effective.predictAt.push_back(static_cast<int>(i));
        } else {
            effective.predictAt.push_back(static_cast<int>(input.size()) - 1);
        }
    }
    if (auto error = checkHeadsExist(control.ablate, config.layers, config.heads, ErrorId::WhereAblate); !error.ok())
        return error.error();
    if (!control.ablate.empty()) run.trace.notices.push_back(ablationNotice(control.ablate));
    for (int p : effective.predictAt)
        if (p < 0 || p >= static_cast<int>(input.size()))
            return Error{ErrorId::WhereModelRun, errorText(ErrorId::PositionOutsideInput, p)};
    const bool release = static_cast<int>(input.size()) >= control.releaseWeightPagesFrom;
    if (release) {
        releaseEachLayer(*model.store, control, effective);
        effective.releasePages = [store = model.store](const float* data, std::size_t count) {
            store->releasePages(data, count);
        };
    }
    const auto error = model.encoder ? runEncoder(*model.encoder, config, input, effective, run)
                                     : runGpt2(*model.gpt2, config, input, effective, run);
    if (release) model.store->releaseAll();  // the embeddings and the LM head
    if (!error.ok()) return error.error();
    return run;
}

Result<LayerTrace> traceLayerInDetail(const LoadedModel& model, const ModelRun& run, int layer) {
    if (layer < 0 || layer >= model.config.layers || static_cast<std::size_t>(layer) + 1 >= run.hiddenStates.size())
        return Error{ErrorId::WhereModelRun, errorText(ErrorId::NoLayerNumber, layer)};
    const MatF& X = run.hiddenStates[static_cast<std::size_t>(layer)];  // T×d entering the layer
    LayerTrace trace;
    const std::vector<bool> ablated = layerHeadMask(ablatedHeads(run.trace), layer, model.config.heads);  // as the run
    if (model.encoder)
        encoderLayer(X, model.encoder->layers[static_cast<std::size_t>(layer)], model.config, LayerDetail::Full, trace,
                     ablated);
    else
        gpt2Block(X, model.gpt2->blocks[static_cast<std::size_t>(layer)], model.config, LayerDetail::Full, trace,
                  ablated);
    return trace;
}

// ---------------------------------------------------------------- special tokens

std::vector<int> wrapIds(ModelFamily family, const std::vector<int>& ids, const WrapperTokens& special) {
    if (family == ModelFamily::Gpt2) return ids;
    std::vector<int> wrapped;
    wrapped.reserve(ids.size() + 2);
    wrapped.push_back(special.cls.id);
    wrapped.insert(wrapped.end(), ids.begin(), ids.end());
    wrapped.push_back(special.sep.id);
    return wrapped;
}

std::vector<Token> wrapTokens(ModelFamily family, const std::vector<Token>& tokens, const WrapperTokens& special) {
    if (family == ModelFamily::Gpt2) return tokens;
    const auto specialToken = [](const SpecialToken& s) { return Token{s.text, true, s.id, -1, true}; };
    std::vector<Token> wrapped;
    wrapped.reserve(tokens.size() + 2);
    wrapped.push_back(specialToken(special.cls));
    wrapped.insert(wrapped.end(), tokens.begin(), tokens.end());
    wrapped.push_back(specialToken(special.sep));
    return wrapped;
}

}  // namespace attnscope
