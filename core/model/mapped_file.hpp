#pragma once
// A whole file mapped read-only (PROT_READ, MAP_PRIVATE) for the lifetime of the object.
// The pages stay valid while the object lives, also across moves. If another process truncates
// the file meanwhile, touching the lost pages raises SIGBUS: POSIX mappings cannot prevent that.
#include <cstddef>
#include <cstdint>
#include <filesystem>

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

    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&& other) noexcept;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile();

private:
    MappedFile(std::filesystem::path path, const std::uint8_t* data, std::size_t size);
    void unmap();

    std::filesystem::path path_;
    const std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace attnscope
