#pragma once
// A small tmpfs mounted on a fresh temporary folder for the full-disk and read-only tests; it is
// unmounted and removed when the object goes. Mounting needs root: `unavailableReason()` says why
// not, and the test executables then exit 77 (skipped by ctest).
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/mount.h>
#include <unistd.h>

namespace attnscope::testing {

class TmpfsMount {
public:
    explicit TmpfsMount(const char* size = "64k") {
        std::string name = (std::filesystem::temp_directory_path() / "attnscope-tmpfs-XXXXXX").string();
        if (!::mkdtemp(name.data())) {
            reason_ = std::string("cannot make a temporary folder: ") + std::strerror(errno);
            return;
        }
        path_ = name;
        if (::geteuid() != 0) {
            reason_ = "needs root to mount a tmpfs (running as uid " + std::to_string(::geteuid()) + ")";
            return;
        }
        const std::string options = std::string("size=") + size + ",mode=0755";
        if (::mount("tmpfs", path_.c_str(), "tmpfs", 0, options.c_str()) != 0)
            reason_ = std::string("mount -t tmpfs failed: ") + std::strerror(errno);
        else
            mounted_ = true;
    }
    ~TmpfsMount() {
        if (mounted_) ::umount2(path_.c_str(), MNT_DETACH);
        if (!path_.empty()) ::rmdir(path_.c_str());
    }
    TmpfsMount(const TmpfsMount&) = delete;
    TmpfsMount& operator=(const TmpfsMount&) = delete;

    bool mounted() const { return mounted_; }
    const std::string& unavailableReason() const { return reason_; }
    const std::filesystem::path& path() const { return path_; }

    // Makes the whole filesystem read-only (as root, a chmod would not stop a write).
    bool remountReadOnly() {
        return ::mount("tmpfs", path_.c_str(), "tmpfs", MS_REMOUNT | MS_RDONLY, nullptr) == 0;
    }

    // Writes zeros into `fill` until the filesystem says it is full, then frees `leaveFree`
    // bytes again (a few KB free: the next write starts and stops half-way). Returns false if
    // the filesystem never said ENOSPC.
    bool fillUp(long leaveFree = 0) const {
        const std::string fill = (path_ / "fill").string();
        const int fd = ::open(fill.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) return false;
        char block[1024] = {};
        long size = 0;
        for (;;) {
            const ssize_t n = ::write(fd, block, sizeof block);
            if (n > 0) size += n;
            else if (n < 0 && errno == ENOSPC) break;
            else if (!(n < 0 && errno == EINTR)) return ::close(fd), false;
        }
        const bool ok = ::ftruncate(fd, size > leaveFree ? size - leaveFree : 0) == 0;
        return ::close(fd) == 0 && ok;
    }

private:
    std::filesystem::path path_;
    std::string reason_;
    bool mounted_ = false;
};

// Why a tmpfs cannot be used here (empty when it can): tried once, for the executables' main().
inline std::string tmpfsUnavailableReason() {
    TmpfsMount probe("4k");
    return probe.mounted() ? std::string() : probe.unavailableReason();
}

}  // namespace attnscope::testing
