// Read-only memory mapping of a whole file (POSIX open/fstat/mmap). Format: none, raw bytes.
#include "core/model/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <optional>
#include <vector>
#include <functional>
#include <system_error>
#include <utility>

#include "core/io/run_inputs.hpp"
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
    noteRunInput(info);  // an output of this command must not replace the weights
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

namespace {

std::size_t pageSize() {
    static const auto size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    return size;
}

}  // namespace

// [begin, begin + bytes) widened to whole pages and clipped to the mapping; {nullptr, 0} if outside.
std::pair<std::uint8_t*, std::size_t> MappedFile::pageRange(const void* begin, std::size_t bytes) const {
    if (!data_ || bytes == 0 || !contains(begin)) return {nullptr, 0};
    const auto address = reinterpret_cast<std::uintptr_t>(begin);
    const auto first = std::max(address & ~(pageSize() - 1), reinterpret_cast<std::uintptr_t>(data_));
    const auto end = std::min(address + bytes, reinterpret_cast<std::uintptr_t>(data_ + size_));
    return {reinterpret_cast<std::uint8_t*>(first), end - first};
}

void MappedFile::release(const void* begin, std::size_t bytes) const {
    const auto [first, length] = pageRange(begin, bytes);
    if (length > 0) ::madvise(first, length, MADV_DONTNEED);
}

// /proc/self/pagemap: 8 bytes a page, bit 63 set when the page is in this process's page table.
// (mincore cannot tell: for a file mapping it reports the page cache, which keeps released pages.)
std::optional<std::size_t> MappedFile::residentBytes(const void* begin, std::size_t bytes) const {
    const auto [first, length] = pageRange(begin, bytes);
    if (length == 0) return 0;
    FileDescriptor pagemap{::open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)};
    if (pagemap.fd < 0) return std::nullopt;
    std::vector<std::uint64_t> entries((length + pageSize() - 1) / pageSize());
    const auto offset = static_cast<off_t>(reinterpret_cast<std::uintptr_t>(first) / pageSize() * sizeof(std::uint64_t));
    const auto wanted = static_cast<ssize_t>(entries.size() * sizeof(std::uint64_t));
    if (::pread(pagemap.fd, entries.data(), static_cast<std::size_t>(wanted), offset) != wanted) return std::nullopt;
    return pageSize() * static_cast<std::size_t>(std::count_if(entries.begin(), entries.end(),
                                                               [](std::uint64_t e) { return (e >> 63) & 1; }));
}

}  // namespace attnscope
