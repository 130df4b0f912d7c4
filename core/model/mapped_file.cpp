// Read-only memory mapping of a whole file (POSIX open/fstat/mmap). Format: none, raw bytes.
#include "core/model/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <functional>
#include <system_error>
#include <utility>

#include "core/text/error_messages.hpp"

namespace attnscope {

namespace {

std::string reason(int errorNumber) { return std::generic_category().message(errorNumber); }

// Closes the descriptor on every path out of open(); the mapping outlives it.
struct FileDescriptor {
    int fd = -1;
    ~FileDescriptor() {
        if (fd >= 0) ::close(fd);
    }
};

}  // namespace

Result<MappedFile> MappedFile::open(const std::filesystem::path& path) {
    FileDescriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (file.fd < 0) return Error{path.string(), errorText(ErrorId::CannotOpenOs, reason(errno))};
    struct stat info {};
    if (::fstat(file.fd, &info) != 0) return Error{path.string(), errorText(ErrorId::CannotReadSize, reason(errno))};
    if (!S_ISREG(info.st_mode)) return Error{path.string(), ErrorId::IsNotRegularFile};
    const auto size = static_cast<std::size_t>(info.st_size);
    if (size == 0) return MappedFile(path, nullptr, 0);  // mmap refuses length 0
    void* mapping = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, file.fd, 0);
    if (mapping == MAP_FAILED) return Error{path.string(), errorText(ErrorId::CannotMap, reason(errno))};
    return MappedFile(path, static_cast<const std::uint8_t*>(mapping), size);
}

MappedFile::MappedFile(std::filesystem::path path, const std::uint8_t* data, std::size_t size)
    : path_(std::move(path)), data_(data), size_(size) {}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : path_(std::move(other.path_)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
    if (this != &other) {
        unmap();
        path_ = std::move(other.path_);
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
    }
    return *this;
}

MappedFile::~MappedFile() { unmap(); }

void MappedFile::unmap() {
    if (data_) ::munmap(const_cast<std::uint8_t*>(data_), size_);
    data_ = nullptr;
    size_ = 0;
}

bool MappedFile::contains(const void* p) const {
    // std::less gives a total order on unrelated pointers, unlike the built-in <.
    const auto* byte = static_cast<const std::uint8_t*>(p);
    const std::less<const std::uint8_t*> before;
    return data_ && !before(byte, data_) && before(byte, data_ + size_);
}

}  // namespace attnscope
