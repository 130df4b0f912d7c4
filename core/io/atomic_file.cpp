#include "core/io/atomic_file.hpp"

#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

#include "core/io/run_inputs.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope {

namespace fs = std::filesystem;

namespace {

// "PATH: could not be written: No space left on device", with errno read at the failure (the OS's
// text stays as it is, in every language).
Error osError(const std::string& target) {
    return Error{target, errorText(ErrorId::CouldNotBeWritten, std::strerror(errno))};
}

// A new, uniquely named file beside the target. O_EXCL: never an existing file or a planted
// symlink. Mode 0666 lets the umask decide, as for any new file; a replaced file's owner and mode
// are kept (best effort, like cp -p: root writing over a user's 0600 file leaves it the user's).
int createTemporary(const fs::path& target, const struct stat* replaced, std::string& temporary) {
    static std::atomic<unsigned> counter{0};
    const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
    for (int attempt = 0; attempt < 100; ++attempt) {
        // At most 200 bytes of the name: a target of 255 still gets a temporary the OS accepts.
        temporary = (folder / ("." + target.filename().string().substr(0, 200) + "." + std::to_string(::getpid()) +
                               "." + std::to_string(counter++) + ".tmp"))
                        .string();
        const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 && replaced) {
            [[maybe_unused]] const int owned = ::fchown(fd, replaced->st_uid, replaced->st_gid);  // only root may
            ::fchmod(fd, replaced->st_mode & 07777);  // after fchown, which clears set-id bits
        }
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;  // errno is EEXIST
}

// The temporaries being written, for removeTemporaryFilesNow() from a signal handler: fixed
// slots and no allocation, so the handler only reads flags and calls unlink.
struct TemporarySlot {
    std::atomic<int> state{0};  // 0 free, 1 being filled, 2 holds a path
    char path[PATH_MAX]{};
};
std::array<TemporarySlot, 32> temporarySlots;

int claimTemporarySlot(const std::string& path) {
    if (path.size() >= PATH_MAX) return -1;
    for (int i = 0; i < static_cast<int>(temporarySlots.size()); ++i) {
        int free = 0;
        if (!temporarySlots[i].state.compare_exchange_strong(free, 1)) continue;
        std::memcpy(temporarySlots[i].path, path.c_str(), path.size() + 1);
        temporarySlots[i].state = 2;
        return i;
    }
    return -1;  // more than 32 files being written at once: that one is not cleaned up on a signal
}

void releaseTemporarySlot(int slot) {
    if (slot >= 0) temporarySlots[slot].state = 0;
}

// Owns the temporary until it is renamed into place: any early return closes and removes it.
class TemporaryFile {
public:
    TemporaryFile(int fd, std::string path) : fd_(fd), path_(std::move(path)), slot_(claimTemporarySlot(path_)) {}
    ~TemporaryFile() {
        if (fd_ >= 0) ::close(fd_);
        if (!path_.empty()) ::unlink(path_.c_str());
        releaseTemporarySlot(slot_);
    }
    TemporaryFile(const TemporaryFile&) = delete;
    TemporaryFile& operator=(const TemporaryFile&) = delete;
    int fd() const { return fd_; }
    const std::string& path() const { return path_; }
    int close() { return ::close(std::exchange(fd_, -1)); }  // once: a failed close is not retried
    void keep() {
        path_.clear();
        releaseTemporarySlot(std::exchange(slot_, -1));
    }

private:
    int fd_;
    std::string path_;
    int slot_;
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
bool isStream(const struct stat& info) { return S_ISCHR(info.st_mode) || S_ISFIFO(info.st_mode); }

// Opened without blocking: a FIFO nobody reads from within a second is refused (ENXIO) instead
// of waited on for ever; then the writes block again as for any file.
int openStream(const fs::path& target) {
    for (int attempt = 0;; ++attempt) {
        const int fd = ::open(target.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd >= 0 || errno != ENXIO || attempt == 100) return fd;
        ::usleep(10000);  // a reader being started (`cat fifo &` just before)
    }
}

Result<void> writeStream(const fs::path& target, const std::string& name,
                         const std::function<Result<void>(FileChunkWriter&)>& produce) {
    const int fd = openStream(target);
    if (fd < 0 && errno == ENXIO) return Error{name, ErrorId::FifoWithoutReader};
    if (fd < 0) return osError(name);
    TemporaryFile stream(fd, "");  // closes it; there is nothing to remove
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    FileChunkWriter writer(fd, name);
    if (auto error = produce(writer); !error.ok()) return error;
    if (!writer.status().ok()) return writer.status();
    if (stream.close() != 0) return osError(name);
    return {};
}

std::string modeText(mode_t mode) {
    char text[8];
    std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
    return text;
}

// A link is never written through, whatever it names (a planted link must not turn a write into
// the replacement of another file), nor replaced by a file; only a stream it names is written into.
bool isSymlink(const fs::path& path) {
    struct stat link {};
    return ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode);
}

// What stands at the target decides how it is written, or that it is not: an input of this
// command-line run and a file nobody may write are refused (as an editor would), a stream is
// written into, a regular file is replaced.
enum class Target { New, Regular, Stream };
Result<Target> examineTarget(const fs::path& target, const std::string& name, struct stat& info) {
    if (::stat(target.c_str(), &info) != 0) return Target::New;
    if (isRefusedRunInput(info)) return Error{name, ErrorId::InputOfThisRun};
    if (isStream(info)) return Target::Stream;
    if (S_ISREG(info.st_mode) && (info.st_mode & 0222) == 0)
        return Error{name, errorText(ErrorId::ReadOnlyTarget, modeText(info.st_mode))};
    return S_ISREG(info.st_mode) ? Target::Regular : Target::New;  // a folder: rename reports it
}

Result<void> replaceAtomically(const fs::path& target, const std::string& name, const struct stat* replaced,
                               const std::function<Result<void>(FileChunkWriter&)>& produce) {
    std::string temporaryPath;
    const int fd = createTemporary(target, replaced, temporaryPath);
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
    const std::string name = path.string();
    struct stat info {};
    auto kind = examineTarget(path, name, info);
    if (!kind) return kind.error();
    if (kind.value() == Target::Stream) return writeStream(path, name, produce);
    if (isSymlink(path)) return Error{name, ErrorId::LinkNotFollowed};
    return replaceAtomically(path, name, kind.value() == Target::Regular ? &info : nullptr, produce);
}

Result<void> writeRegularFileAtomically(const fs::path& path, std::string_view bytes) {
    const std::string name = path.string();
    if (isSymlink(path)) return Error{name, ErrorId::LinkNotFollowed};
    struct stat info {};
    auto kind = examineTarget(path, name, info);
    if (!kind) return kind.error();
    if (kind.value() == Target::Stream) return Error{name, ErrorId::NotRegularTarget};
    return replaceAtomically(path, name, kind.value() == Target::Regular ? &info : nullptr,
                             [bytes](FileChunkWriter& out) -> Result<void> {
                                 out.write(bytes);
                                 return {};
                             });
}

void removeTemporaryFilesNow() {
    for (TemporarySlot& slot : temporarySlots)
        if (slot.state.load() == 2) ::unlink(slot.path);
}

Result<void> writeFileAtomically(const fs::path& path, std::string_view bytes) {
    return writeFileAtomically(path, [bytes](FileChunkWriter& out) -> Result<void> {
        out.write(bytes);
        return {};  // a failed write is reported by the writer itself
    });
}

}  // namespace attnscope
