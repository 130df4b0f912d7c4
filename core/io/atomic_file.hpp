#pragma once
// The one way the program writes a file: into a new temporary file in the target's folder, every
// write checked (short writes, EINTR), fsync, a checked close, then rename over the target. On any
// failure the temporary is removed, the old file stays as it was, and the Error names the file and
// gives the operating system's reason ("No space left on device", "Read-only file system", …).
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/result.hpp"

namespace attnscope {

// Hands the bytes of a file, in as many chunks as wanted, to the temporary file being written.
class FileChunkWriter {
public:
    FileChunkWriter(int fd, std::string target) : fd_(fd), target_(std::move(target)) {}
    // Writes all of `bytes`; false (and the reason kept in error()) once the OS refused a write.
    bool write(std::string_view bytes);
    const Result<void>& status() const { return error_; }

private:
    int fd_;
    std::string target_;
    Result<void> error_;
};

// Calls `produce` with a writer for the new content and commits it only when produce returns no
// error and every write succeeded. A replaced file keeps its mode and (where permitted) its owner.
// Refused: a symbolic link (never written through, nor replaced), a file without any write
// permission (mode 0444) and, on the command line, a file this run reads (core/io/run_inputs.hpp).
// A device or FIFO (also through a link: /dev/stdout, a shell's >(…)) is written into, never
// replaced; a FIFO without a reader is refused instead of waited on.
Result<void> writeFileAtomically(const std::filesystem::path& path,
                                         const std::function<Result<void>(FileChunkWriter&)>& produce);

// The same for content already in memory.
Result<void> writeFileAtomically(const std::filesystem::path& path, std::string_view bytes);

// For a file the program owns (the window's settings): never written through a symlink, and only
// a regular file (or nothing) at `path` is replaced; a link, a device or a FIFO is refused.
Result<void> writeRegularFileAtomically(const std::filesystem::path& path, std::string_view bytes);

// Removes every temporary file being written right now. Async-signal-safe: for a SIGINT/SIGTERM
// handler (app/), so a long export stopped by Ctrl-C leaves no temporary behind.
void removeTemporaryFilesNow();

}  // namespace attnscope
