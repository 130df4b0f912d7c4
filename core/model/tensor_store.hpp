#pragma once
// Named tensors of a Hugging Face checkpoint, read from memory-mapped safetensors files.
// F32 tensors are zero-copy views into the mapping. A 16-bit (F16, BF16) matrix is handed out as
// stored (storedMatrix: its words in the mapping, widened by the products that read them), so a
// BF16 model is never held twice; matrix() and vector() convert a 16-bit tensor once to owned F32
// (the small vectors, and callers that want a plain float view). Every lookup checks the name
// and the shape and says what it expected.
//
// Shapes follow the file: a Linear weight is [out, in]; GPT-2's Conv1D weight is [in, out].
#include <Eigen/Core>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"

namespace attnscope {

using MatF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVecF = Eigen::Matrix<float, 1, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMatMapF = Eigen::Map<const MatF>;
using ConstRowVecMapF = Eigen::Map<const RowVecF>;

// F32, F16 and BF16 can be read as numbers. The others may be listed (a checkpoint can hold
// integer buffers such as position_ids) but a matrix() or vector() lookup refuses them.
enum class DType { F32, F16, BF16, F64, I64, I32, I16, I8, U64, U32, U16, U8, BOOL };

// A matrix as its file stores it: `floats` (F32, zero-copy when aligned, else an owned copy)
// or `halves`, the F16/BF16 words in the mapping (2 bytes each, row-major, maybe misaligned).
struct StoredMatrix {
    const float* floats = nullptr;
    const std::uint8_t* halves = nullptr;
    DType dtype = DType::F32;
};

struct TensorInfo {
    std::string name;
    DType dtype = DType::F32;
    std::vector<std::int64_t> shape;
    std::string file;            // the safetensors file holding it
    std::uint64_t begin = 0;     // byte offsets in the file's data section
    std::uint64_t end = 0;
};

class TensorStore {
public:
    // Opens model.safetensors, or a sharded checkpoint through model.safetensors.index.json.
    static Result<TensorStore> open(const std::filesystem::path& fileOrIndex);

    // The random-weights control: a copy in memory whose every F32/F16/BF16/F64 tensor holds the
    // same numbers in a seeded random order (Fisher–Yates with std::mt19937_64 seeded by `seed`
    // and the tensor's name, so a tensor's order does not depend on the others). Other dtypes
    // (integer buffers) are copied unchanged. Costs the model's size in memory.
    static TensorStore shuffledCopy(const TensorStore& from, std::uint32_t seed);

    const TensorInfo* find(std::string_view name) const;
    std::vector<std::string> names() const;

    // A rows×cols view of a tensor whose shape is exactly [rows, cols]; errors name the tensor
    // with the expected and the actual shape.
    Result<ConstMatMapF> matrix(std::string_view name, std::int64_t rows, std::int64_t cols) const;
    // A view of a tensor whose shape is exactly [n].
    Result<ConstRowVecMapF> vector(std::string_view name, std::int64_t n) const;
    // The same check as matrix(), without widening a 16-bit tensor (see StoredMatrix).
    Result<StoredMatrix> storedMatrix(std::string_view name, std::int64_t rows, std::int64_t cols) const;
    // Bytes of the float copies the store owns (16-bit tensors read through matrix()/vector(),
    // misaligned F32): a model bound through storedMatrix keeps this to its vectors.
    std::size_t convertedBytes() const;

    // True when p points into one of the store's memory-mapped files, i.e. a lookup returned a
    // zero-copy view rather than converted or realigned owned storage.
    bool isMapped(const float* p) const;

    // Drops the mapped pages of layer `layer`'s tensors (names with a component "layer", "layers",
    // "h" or "block" followed by the number: "encoder.layer.3.…", "h.3.…") or of every file from
    // this process (MappedFile::release): a run releases each layer once it has run, so the
    // resident memory holds about one layer of weights; the next run reads them back from the
    // kernel's page cache. Converted (F16/BF16) tensors are owned and stay.
    void releaseLayer(int layer) const;
    void releasePages(const void* data, std::size_t bytes) const;  // [data, data + bytes)'s pages, if mapped
    void releaseAll() const;
    // Bytes of layer `layer`'s mapped tensors this process has in memory now (empty: unknown).
    std::optional<std::size_t> residentLayerBytes(int layer) const;

    TensorStore(TensorStore&&) noexcept;
    TensorStore& operator=(TensorStore&&) noexcept;
    ~TensorStore();

private:
    struct Impl;
    TensorStore();
    std::unique_ptr<Impl> impl_;
};

}  // namespace attnscope
