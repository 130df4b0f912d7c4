// Loading and binding: config.json → TransformerConfig through the family's row, the files'
// sizes checked against the config, the row's binder, and no tensor left unexplained.
//
// Shape legend: d model width, H heads, V vocabulary, P positions, L layers.
#include "core/model/transformer.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <set>

#include "core/io/text_file.hpp"
#include "core/model/checkpoint_files.hpp"
#include "core/model/hf_config.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/message_id.hpp"

namespace attnscope {

namespace {

std::optional<Activation> activationOf(const std::string& name) {
    if (name == "gelu") return Activation::GeluErf;
    if (name == "gelu_new" || name == "gelu_pytorch_tanh" || name == "gelu_fast") return Activation::GeluTanh;
    if (name == "relu") return Activation::Relu;
    if (name == "silu" || name == "swish") return Activation::Silu;
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

// ------------------------------------------------ the config against what the weights hold
// A config.json can claim sizes no file holds (num_hidden_layers 10⁹ would bind layers for
// minutes); these are checked on the safetensors header alone, before anything is allocated.

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
    const std::string marker = config.family->layerMarker;
    std::set<int> held;
    for (const std::string& name : store.names())
        if (const auto n = layerIndexOf(name, marker)) held.insert(*n);
    if (config.layers <= static_cast<int>(held.size())) return {};
    const std::string field = configLabel + ": " + config.family->fields.layers;
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
    const FamilyRow& row = config.family.row();
    const TensorInfo* words = findByTail(store, row.wordsTable);
    const TensorInfo* positions = row.positionsTable.empty() ? nullptr : findByTail(store, row.positionsTable);
    const SizeFieldNames& fields = row.fields;
    const std::string at = configLabel + ": ";
    if (auto e = checkTableSize(words, 1, config.width, at + fields.width, ErrorId::WordEmbeddingTable); !e.ok()) return e;
    if (auto e = checkTableSize(words, 0, config.vocabSize, at + "vocab_size", ErrorId::WordEmbeddingTable); !e.ok()) return e;
    return checkTableSize(positions, 0, config.positions, at + fields.positions, ErrorId::ThePositionTable);
}

}  // namespace

std::string familyName(ModelFamily family) { return family->name; }

// ---------------------------------------------------------------- config

Result<TransformerConfig> parseTransformerConfig(std::string_view jsonText, std::string_view where,
                                                 const FamilyTable& families) {
    const std::string file(where);
    std::vector<std::string> types;
    for (const FamilyRow* row : families) types.insert(types.end(), row->modelTypes.begin(), row->modelTypes.end());
    auto parsed = parseHfConfig(jsonText, file, types);
    if (!parsed) return parsed.error();
    const HfConfig& hf = parsed.value();
    const FamilyRow* row = findFamily(families, hf.modelType);
    if (!row) return Error{file + ": model_type", errorText(ErrorId::Unsupported, hf.modelType)};
    const auto activation = activationOf(hf.hiddenAct);
    if (!activation) return Error{file + ": activation", errorText(ErrorId::UnsupportedActivation, hf.hiddenAct)};

    TransformerConfig c;
    c.family = ModelFamily(row);
    c.modelType = hf.modelType;
    c.vocabSize = static_cast<int>(hf.vocabSize);
    c.width = static_cast<int>(hf.hiddenSize);
    c.layers = static_cast<int>(hf.numLayers);
    c.heads = static_cast<int>(hf.numHeads);
    c.feedForward = static_cast<int>(hf.intermediateSize);
    c.positions = static_cast<int>(hf.maxPositions);
    c.layerNormEps = static_cast<float>(hf.layerNormEps);
    c.activation = *activation;
    if (row->configure)
        if (auto error = row->configure(hf, file, c); !error.ok()) return error.error();
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
    const std::string configLabel = (std::filesystem::path(model.source) / "config.json").string();
    if (auto error = checkConfigFitsWeights(config, *model.store, configLabel); !error.ok()) return error.error();
    const FamilyRow& row = config.family.row();
    auto bound = row.bind(*model.store, config, model.source);
    if (!bound) return bound.error();
    model.weights = std::move(bound).value();
    model.notices = model.weights->notices;
    const auto knownUnused = [&](const std::string& n) { return row.knownUnused && row.knownUnused(n, config); };
    if (auto error = checkNoUnexpected(*model.store, model.weights->usedNames, knownUnused, row.name); !error.ok())
        return error.error();
    model.store->releaseAll();  // also the pages neighbouring tensors share (refuseNonFinite released each)
    return model;
}

Result<LoadedModel> withShuffledWeights(const LoadedModel& model, std::uint32_t seed) {
    return bindModel(model.config, std::make_shared<const TensorStore>(TensorStore::shuffledCopy(*model.store, seed)),
                     model.source);
}

Result<LoadedModel> loadModel(const std::filesystem::path& folder, const FamilyTable& families) {
    auto files = findCheckpointFiles(folder);  // refuses pickle-only folders by name
    if (!files) return files.error();
    const std::filesystem::path& configPath = files.value().config;
    const auto text = readTextFile(configPath);  // a regular file of at most 16 MiB
    if (!text) return text.error();
    auto config = parseTransformerConfig(text.value(), configPath.string(), families);
    if (!config) return config.error();
    auto store = TensorStore::open(files.value().weights);
    if (!store) return store.error();
    return bindModel(config.value(), std::make_shared<const TensorStore>(std::move(store).value()),
                     folder.string());
}

}  // namespace attnscope
