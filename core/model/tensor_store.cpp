// TensorStore: named tensors from memory-mapped safetensors files (format: safetensors.hpp).
// F32 tensors whose data is 4-byte aligned are zero-copy views into the mapping; storedMatrix
// hands 16-bit matrices out as their words. Everything else readable through matrix()/vector()
// (F16, BF16, misaligned F32) is converted to float on its first lookup and cached in
// storage owned by the store; a mutex guards that cache, so concurrent lookups are safe, and a
// cached buffer is never reallocated, so returned views stay valid as long as the store lives.
#include "core/model/tensor_store.hpp"

#include "core/io/text_file.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>

#include "core/model/checkpoint_files.hpp"
#include "core/model/mapped_file.hpp"
#include "core/model/safetensors.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope {

namespace {

struct StoredTensor {
    TensorInfo info;
    const std::uint8_t* bytes = nullptr;  // its data inside the mapping
    // Owned float copy when not zero-copy: filled once under Impl::conversionMutex, then never
    // reallocated. Mutable because filling this cache does not change what the store holds.
    mutable std::vector<float> converted;
    mutable bool convertedReady = false;
};

std::string fileLabel(const std::filesystem::path& path) { return path.filename().string(); }

std::string inQuotes(std::string_view name) { return "\"" + std::string(name) + "\""; }

std::string shapeText(const std::vector<std::int64_t>& shape) {
    std::string text = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + "]";
}

std::int64_t elementCount(const TensorInfo& info) {
    std::int64_t count = 1;
    for (const auto size : info.shape) count *= size;  // the parser proved bytes = count × size fit
    return count;
}

bool isFloatAligned(const std::uint8_t* p) { return reinterpret_cast<std::uintptr_t>(p) % alignof(float) == 0; }

template <class Convert>
void convertEach(const std::uint8_t* bytes, std::size_t width, std::vector<float>& out, Convert convert) {
    for (std::size_t i = 0; i < out.size(); ++i) {
        std::uint16_t bits16 = 0;
        std::uint32_t bits32 = 0;
        if (width == 2) std::memcpy(&bits16, bytes + 2 * i, 2);
        if (width == 4) std::memcpy(&bits32, bytes + 4 * i, 4);
        out[i] = convert(bits16, bits32);
    }
}

void convertToFloat(const StoredTensor& t) {
    t.converted.assign(static_cast<std::size_t>(elementCount(t.info)), 0.0f);
    switch (t.info.dtype) {
        case DType::F16:
            convertEach(t.bytes, 2, t.converted, [](std::uint16_t h, std::uint32_t) { return halfToFloat(h); });
            break;
        case DType::BF16:
            convertEach(t.bytes, 2, t.converted, [](std::uint16_t b, std::uint32_t) { return bfloat16ToFloat(b); });
            break;
        default:  // misaligned F32: memcpy copes with any alignment
            if (!t.converted.empty()) std::memcpy(t.converted.data(), t.bytes, t.converted.size() * sizeof(float));
    }
    t.convertedReady = true;
}

}  // namespace

struct TensorStore::Impl {
    std::string label;  // the file named in lookup errors: model.safetensors or the index
    std::vector<MappedFile> files;
    std::map<std::string, StoredTensor, std::less<>> tensors;
    std::vector<std::vector<std::uint8_t>> owned;  // shuffledCopy's data (moving the outer vector keeps each buffer)
    mutable std::mutex conversionMutex;

    // Parses one mapped file; returns its header so the caller can pick which tensors to keep.
    Result<SafetensorsHeader> addFile(const std::filesystem::path& path);
    Result<void> openSingle(const std::filesystem::path& path);
    Result<void> openSharded(const std::filesystem::path& indexPath);
    void addTensor(const TensorInfo& info, const MappedFile& file, std::uint64_t dataStart);
    Result<const StoredTensor*> checked(std::string_view name, const std::vector<std::int64_t>& expectedShape) const;
    Result<const float*> floats(std::string_view name, const std::vector<std::int64_t>& expectedShape) const;
    const float* floatData(const StoredTensor& t) const;
    // visit(file, bytes, size) for each tensor of `layer` lying in a mapped file.
    template <class Visit>
    void eachMappedTensorOf(int layer, const Visit& visit) const;
};

Result<SafetensorsHeader> TensorStore::Impl::addFile(const std::filesystem::path& path) {
    auto mapped = MappedFile::open(path);
    if (!mapped) return mapped.error();
    auto header = parseSafetensors(mapped.value().data(), mapped.value().size(), fileLabel(path));
    if (header) files.push_back(std::move(mapped).value());  // the pages do not move with the object
    return header;
}

void TensorStore::Impl::addTensor(const TensorInfo& info, const MappedFile& file, std::uint64_t dataStart) {
    StoredTensor stored{info, file.data() + dataStart + info.begin, {}, false};
    stored.info.file = file.path().string();
    tensors.insert_or_assign(info.name, std::move(stored));
}

const float* TensorStore::Impl::floatData(const StoredTensor& t) const {
    if (t.info.dtype == DType::F32 && isFloatAligned(t.bytes)) return reinterpret_cast<const float*>(t.bytes);
    std::lock_guard lock(conversionMutex);
    if (!t.convertedReady) convertToFloat(t);
    return t.converted.data();
}

Result<const StoredTensor*> TensorStore::Impl::checked(std::string_view name,
                                                       const std::vector<std::int64_t>& expectedShape) const {
    const auto it = tensors.find(name);
    if (it == tensors.end()) return Error{label, errorText(ErrorId::TensorIsMissing, inQuotes(name))};
    const TensorInfo& info = it->second.info;
    const ErrorText where = errorText(ErrorId::WhereTensor, fileLabel(info.file), inQuotes(name));
    if (!isReadableAsFloat(info.dtype)) return Error{where, errorText(ErrorId::HasDtypeNotFloat, dtypeName(info.dtype))};
    if (info.shape != expectedShape)
        return Error{where, errorText(ErrorId::ExpectedShape, shapeText(expectedShape), shapeText(info.shape))};
    return &it->second;
}

Result<const float*> TensorStore::Impl::floats(std::string_view name,
                                               const std::vector<std::int64_t>& expectedShape) const {
    auto tensor = checked(name, expectedShape);
    if (!tensor) return tensor.error();
    return floatData(*tensor.value());
}

Result<void> TensorStore::Impl::openSingle(const std::filesystem::path& path) {
    auto header = addFile(path);
    if (!header) return header.error();
    for (const auto& info : header.value().tensors) addTensor(info, files.back(), header.value().dataStart);
    return {};
}

// Opens each shard once, then keeps exactly the tensors the index assigns to it.
Result<void> TensorStore::Impl::openSharded(const std::filesystem::path& indexPath) {
    auto text = readTextFile(indexPath);
    if (!text) return text.error();
    auto index = parseSafetensorsIndex(text.value(), label);
    if (!index) return index.error();
    std::map<std::string, std::vector<std::string>> tensorsByShard;
    for (const auto& [tensor, shard] : index.value().weightMap) tensorsByShard[shard].push_back(tensor);
    for (const auto& [shard, names] : tensorsByShard) {
        auto header = addFile(indexPath.parent_path() / shard);
        if (!header) return header.error();
        std::map<std::string_view, const TensorInfo*> inShard;
        for (const auto& info : header.value().tensors) inShard[info.name] = &info;
        // Every tensor a shard holds is one the index gives it: a stray one is a shard from
        // another checkpoint, or an index that forgot a tensor (the loader would not see it).
        const std::set<std::string_view> listed(names.begin(), names.end());
        for (const auto& info : header.value().tensors)
            if (!listed.count(info.name))
                return Error{errorText(ErrorId::WhereTensor, shard, inQuotes(info.name)), errorText(ErrorId::NotInIndex, label)};
        for (const auto& name : names) {
            const auto found = inShard.find(name);
            if (found == inShard.end())
                return Error{errorText(ErrorId::WhereTensor, label, inQuotes(name)), errorText(ErrorId::ListedInShard, shard)};
            addTensor(*found->second, files.back(), header.value().dataStart);
        }
    }
    return {};
}

namespace {

bool isIndexFile(const std::filesystem::path& path) { return path.extension() == ".json"; }

}  // namespace

Result<TensorStore> TensorStore::open(const std::filesystem::path& fileOrIndex) {
    std::filesystem::path path = fileOrIndex;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        auto files = findCheckpointFiles(path);
        if (!files) return files.error();
        path = files.value().weights;
    }
    if (isPickleCheckpoint(path)) return pickleRefusal(path);
    auto impl = std::make_unique<Impl>();
    impl->label = fileLabel(path);
    const auto error = isIndexFile(path) ? impl->openSharded(path) : impl->openSingle(path);
    if (!error.ok()) return error.error();
    TensorStore store;
    store.impl_ = std::move(impl);
    return store;
}

namespace {

std::size_t elementWidth(DType dtype) {
    switch (dtype) {
        case DType::F32: return 4;
        case DType::F16: case DType::BF16: return 2;
        case DType::F64: return 8;
        default: return 0;  // not shuffled
    }
}

// FNV-1a of the name, mixed with the seed: each tensor its own permutation.
std::uint64_t tensorSeed(std::uint32_t seed, std::string_view name) {
    std::uint64_t hash = 14695981039346656037ULL ^ seed;
    for (const char c : name) hash = (hash ^ static_cast<std::uint8_t>(c)) * 1099511628211ULL;
    return hash;
}

// Fisher–Yates over elements of `width` bytes.
void shuffleElements(std::vector<std::uint8_t>& data, std::size_t width, std::uint64_t seed) {
    std::mt19937_64 draws(seed);
    const std::size_t count = data.size() / width;
    for (std::size_t i = count; i > 1; --i) {
        const std::size_t j = static_cast<std::size_t>(draws() % i);
        std::swap_ranges(data.begin() + static_cast<std::ptrdiff_t>((i - 1) * width),
                         data.begin() + static_cast<std::ptrdiff_t>(i * width),
                         data.begin() + static_cast<std::ptrdiff_t>(j * width));
    }
}

}  // namespace

TensorStore TensorStore::shuffledCopy(const TensorStore& from, std::uint32_t seed) {
    auto impl = std::make_unique<Impl>();
    impl->label = from.impl_->label;
    impl->owned.reserve(from.impl_->tensors.size());
    for (const auto& [name, tensor] : from.impl_->tensors) {
        const std::uint8_t* begin = tensor.bytes;
        std::vector<std::uint8_t>& data = impl->owned.emplace_back(begin, begin + (tensor.info.end - tensor.info.begin));
        if (const std::size_t width = elementWidth(tensor.info.dtype); width > 0) shuffleElements(data, width, tensorSeed(seed, name));
        impl->tensors.insert_or_assign(name, StoredTensor{tensor.info, data.data(), {}, false});
    }
    TensorStore store;
    store.impl_ = std::move(impl);
    return store;
}

const TensorInfo* TensorStore::find(std::string_view name) const {
    const auto it = impl_->tensors.find(name);
    return it == impl_->tensors.end() ? nullptr : &it->second.info;
}

std::vector<std::string> TensorStore::names() const {
    std::vector<std::string> names;
    names.reserve(impl_->tensors.size());
    for (const auto& [name, tensor] : impl_->tensors) names.push_back(name);
    return names;
}

Result<ConstMatMapF> TensorStore::matrix(std::string_view name, std::int64_t rows, std::int64_t cols) const {
    auto data = impl_->floats(name, {rows, cols});
    if (!data) return data.error();
    return ConstMatMapF(data.value(), rows, cols);
}

Result<ConstRowVecMapF> TensorStore::vector(std::string_view name, std::int64_t n) const {
    auto data = impl_->floats(name, {n});
    if (!data) return data.error();
    return ConstRowVecMapF(data.value(), n);
}

Result<StoredMatrix> TensorStore::storedMatrix(std::string_view name, std::int64_t rows, std::int64_t cols) const {
    auto tensor = impl_->checked(name, {rows, cols});
    if (!tensor) return tensor.error();
    const StoredTensor& t = *tensor.value();
    if (t.info.dtype == DType::F16 || t.info.dtype == DType::BF16) return StoredMatrix{nullptr, t.bytes, t.info.dtype};
    return StoredMatrix{impl_->floatData(t), nullptr, DType::F32};
}

std::size_t TensorStore::convertedBytes() const {
    std::lock_guard lock(impl_->conversionMutex);
    std::size_t total = 0;
    for (const auto& [name, tensor] : impl_->tensors) total += tensor.converted.size() * sizeof(float);
    return total;
}

bool TensorStore::isMapped(const float* p) const {
    for (const auto& file : impl_->files)
        if (file.contains(p)) return true;
    return false;
}

namespace {

// Whether `name` has a component "layer", "layers", "h" or "block" followed by `layer`'s number.
bool belongsToLayer(std::string_view name, const std::string& number) {
    std::string_view before;
    while (!name.empty()) {
        const std::size_t dot = name.find('.');
        const std::string_view part = name.substr(0, dot);
        if (part == number && (before == "layer" || before == "layers" || before == "h" || before == "block")) return true;
        before = part;
        name = dot == std::string_view::npos ? std::string_view() : name.substr(dot + 1);
    }
    return false;
}

}  // namespace

template <class Visit>
void TensorStore::Impl::eachMappedTensorOf(int layer, const Visit& visit) const {
    const std::string number = std::to_string(layer);
    for (const auto& [name, tensor] : tensors) {
        if (!belongsToLayer(name, number)) continue;
        for (const MappedFile& file : files)
            if (file.contains(tensor.bytes)) visit(file, tensor.bytes, tensor.info.end - tensor.info.begin);
    }
}

void TensorStore::releaseLayer(int layer) const {
    impl_->eachMappedTensorOf(layer, [](const MappedFile& file, const void* p, std::size_t n) { file.release(p, n); });
}

void TensorStore::releasePages(const void* data, std::size_t bytes) const {
    for (const MappedFile& file : impl_->files)
        if (file.contains(data)) file.release(data, bytes);
}

void TensorStore::releaseAll() const {
    for (const MappedFile& file : impl_->files) file.releaseAll();
}

std::optional<std::size_t> TensorStore::residentLayerBytes(int layer) const {
    std::optional<std::size_t> total = 0;
    impl_->eachMappedTensorOf(layer, [&](const MappedFile& file, const void* p, std::size_t n) {
        const auto resident = file.residentBytes(p, n);
        total = total && resident ? std::optional(*total + *resident) : std::nullopt;
    });
    return total;
}

TensorStore::TensorStore() = default;
TensorStore::TensorStore(TensorStore&&) noexcept = default;
TensorStore& TensorStore::operator=(TensorStore&&) noexcept = default;
TensorStore::~TensorStore() = default;

}  // namespace attnscope
