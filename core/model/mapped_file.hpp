#pragma once
// A whole file mapped read-only (PROT_READ, MAP_PRIVATE) for the lifetime of the object.
// The pages stay valid while the object lives, also across moves. If another process truncates
// the file meanwhile, touching the lost pages raises SIGBUS: POSIX mappings cannot prevent that.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <utility>

#include "core/base/result.hpp"

namespace attnscope {

class MappedFile {
public:
    // Errors name the path and the reason (missing, not a regular file, no permission, ...).
    static Result<MappedFile> open(const std::filesystem::path& path);

    const std::uint8_t* data() const { return data_; }  // nullptr for an empty file
    std::size_t size() const { return size_; }
    const std::filesystem::path& path() const { return path_; }
    bool contains(const void* p) const;

    // Drops the pages of [begin, begin + bytes) (widened to whole pages, clipped to the mapping)
    // from this process: madvise(MADV_DONTNEED). The file stays mapped and the kernel's page cache
    // keeps the data, so a later read faults the pages back from memory, not the disk; the
    // process's resident memory no longer counts them. The mapping is read-only and private and
    // never written, so nothing is lost. Best effort: a refusal changes nothing.
    void release(const void* begin, std::size_t bytes) const;
    void releaseAll() const { release(data_, size_); }
    // How many bytes of [begin, begin + bytes) (whole pages) this process has mapped in now
    // (/proc/self/pagemap; empty where that cannot be read): for tests and benchmarks.
    std::optional<std::size_t> residentBytes(const void* begin, std::size_t bytes) const;

    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&& other) noexcept;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile();

private:
    MappedFile(std::filesystem::path path, const std::uint8_t* data, std::size_t size);
    void unmap();
    std::pair<std::uint8_t*, std::size_t> pageRange(const void* begin, std::size_t bytes) const;

    std::filesystem::path path_;
    const std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace attnscope
