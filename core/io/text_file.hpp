#pragma once
// Reads a whole file as bytes; the error names the file. Only regular files are read (a FIFO,
// a device such as /dev/zero or a folder would block or never end), and at most `maxBytes`:
// every kind of input has its cap, said in the message when a file is larger.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/result.hpp"

namespace attnscope {

inline constexpr std::uint64_t kMiB = 1024 * 1024;
// Lessons, config.json, sharded indexes, hub refs: hand-sized or machine-written but small.
inline constexpr std::uint64_t kMaxTextFileBytes = 16 * kMiB;
// tokenizer.json, vocab.txt, vocab.json, merges.txt: the largest real ones are tens of MiB.
inline constexpr std::uint64_t kMaxTokenizerFileBytes = 256 * kMiB;
// Coreference sets (JSON lines).
inline constexpr std::uint64_t kMaxCorefSetBytes = 64 * kMiB;
// One line of a corpus or a coreference set: a sentence a model reads (at most a few thousand
// tokens). A 55 MB line would cost gigabytes in the tokenizer before any cut to the model's length.
inline constexpr std::uint64_t kMaxSentenceLineBytes = 64 * 1024;

// An error for `where` (a line of a file) when `line` is longer than kMaxSentenceLineBytes.
Result<void> checkSentenceLine(std::string_view line, const ErrorText& where);

// "16 MiB", "1.5 KiB", "12 bytes": how messages state a size or a cap.
std::string byteSizeText(std::uint64_t bytes);
ErrorText byteSizeErrorText(std::uint64_t bytes);  // the same for an error message, in any language

Result<std::string> readTextFile(const std::filesystem::path& path, std::uint64_t maxBytes = kMaxTextFileBytes);

// The same checks without reading: an error when `path` is not a regular file of at most
// `maxBytes` (for readers that stream the file themselves).
Result<void> checkReadableFile(const std::filesystem::path& path, std::uint64_t maxBytes);

}  // namespace attnscope
