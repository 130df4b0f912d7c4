#include "core/io/atomic_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

#include "core/text/error_messages.hpp"

namespace attnscope {

namespace fs = std::filesystem;

namespace {

// "PATH: could not be written: No space left on device", with errno read at the failure (the OS's
// text stays as it is, in every language).
Error osError(const std::string& target) {
    return Error{target, errorText(ErrorId::CouldNotBeWritten, std::strerror(errno))};
}

// A symlink is written through (as an editor would); a dangling one is replaced.
fs::path resolvedTarget(const fs::path& path) {
    std::error_code ec;
    if (!fs::is_symlink(path, ec)) return path;
    const fs::path real = fs::canonical(path, ec);
    return ec ? path : real;
}

// A new, uniquely named file beside the target. O_EXCL: never an existing file or a planted
// symlink. Mode 0666 lets the umask decide, as for any new file; an existing target keeps its mode.
int createTemporary(const fs::path& target, std::string& temporary) {
    static std::atomic<unsigned> counter{0};
    const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
    struct stat old {};
    const bool replacing = ::stat(target.c_str(), &old) == 0 && S_ISREG(old.st_mode);
    for (int attempt = 0; attempt < 100; ++attempt) {
        // At most 200 bytes of the name: a target of 255 still gets a temporary the OS accepts.
        temporary = (folder / ("." + target.filename().string().substr(0, 200) + "." + std::to_string(::getpid()) +
                               "." + std::to_string(counter++) + ".tmp"))
                        .string();
        const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 && replacing) ::fchmod(fd, old.st_mode & 07777);  // best effort, like cp -p
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;  // errno is EEXIST
}

// Owns the temporary until it is renamed into place: any early return closes and removes it.
class TemporaryFile {
public:
    TemporaryFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
    ~TemporaryFile() {
        if (fd_ >= 0) ::close(fd_);
        if (!path_.empty()) ::unlink(path_.c_str());
    }
    TemporaryFile(const TemporaryFile&) = delete;
    TemporaryFile& operator=(const TemporaryFile&) = delete;
    int fd() const { return fd_; }
    const std::string& path() const { return path_; }
    int close() { return ::close(std::exchange(fd_, -1)); }  // once: a failed close is not retried
    void keep() { path_.clear(); }

private:
    int fd_;
    std::string path_;
};

// After the rename, the folder entry itself reaches the disk (best effort: the file is written).
void syncFolder(const fs::path& target) {
    const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

// A character device or a pipe (/dev/null, /dev/stdout, a FIFO) cannot be replaced by a file:
// renaming over it would turn /dev/null into a regular file for every process (as root). It is
// written into directly; there is no old content to keep.
bool isStream(const fs::path& target) {
    struct stat info {};
    return ::stat(target.c_str(), &info) == 0 && (S_ISCHR(info.st_mode) || S_ISFIFO(info.st_mode));
}

Result<void> writeStream(const fs::path& target, const std::string& name,
                         const std::function<Result<void>(FileChunkWriter&)>& produce) {
    const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return osError(name);
    TemporaryFile stream(fd, "");  // closes it; there is nothing to remove
    FileChunkWriter writer(fd, name);
    if (auto error = produce(writer); !error.ok()) return error;
    if (!writer.status().ok()) return writer.status();
    if (stream.close() != 0) return osError(name);
    return {};
}

}  // namespace

bool FileChunkWriter::write(std::string_view bytes) {
    if (!error_.ok()) return false;
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n == 0) errno = EIO;  // no progress without an error: never loop forever
            error_ = osError(target_);
            return false;
        }
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

Result<void> writeFileAtomically(const fs::path& path,
                                         const std::function<Result<void>(FileChunkWriter&)>& produce) {
    const fs::path target = resolvedTarget(path);
    const std::string name = path.string();
    if (isStream(target)) return writeStream(target, name, produce);
    std::string temporaryPath;
    const int fd = createTemporary(target, temporaryPath);
    if (fd < 0) return osError(name);
    TemporaryFile temporary(fd, temporaryPath);
    FileChunkWriter writer(fd, name);
    if (auto error = produce(writer); !error.ok()) return error;
    if (!writer.status().ok()) return writer.status();
    if (::fsync(fd) != 0) return osError(name);
    if (temporary.close() != 0) return osError(name);
    if (::rename(temporary.path().c_str(), target.c_str()) != 0) return osError(name);
    temporary.keep();
    syncFolder(target);
    return {};
}

Result<void> writeFileAtomically(const fs::path& path, std::string_view bytes) {
    return writeFileAtomically(path, [bytes](FileChunkWriter& out) -> Result<void> {
        out.write(bytes);
        return {};  // a failed write is reported by the writer itself
    });
}

}  // namespace attnscope
