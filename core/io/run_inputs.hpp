#pragma once
// The files a command-line run reads (lesson, config.json, tokenizer files, weights), by device and
// inode, so the atomic writer can refuse an output that would replace one of them: `--output
// lesson.json` must not turn the lesson into its own export. The window does not refuse (saving a
// lesson over the file it was opened from is what Save means), so the check is switched on by the
// command line only.
#include <filesystem>
#include <sys/stat.h>

namespace attnscope {

// Remembers the file read through `info` (from stat/fstat of the opened file).
void noteRunInput(const struct stat& info);
void noteRunInput(const std::filesystem::path& path);  // stats the path (follows a symlink)

// On for the command line: writeFileAtomically then refuses a target that is a noted input.
void refuseWritingOverRunInputs(bool refuse);
bool isRefusedRunInput(const struct stat& info);

}  // namespace attnscope
