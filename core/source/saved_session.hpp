#pragma once
// A saved session (File ▸ Save session, `attnscope --session-file FILE`): what the window showed, as one
// small JSON file, so a figure can be made again. Format: docs/session-format.md. Plain data here;
// the window gathers and restores it (app/), and hashes the source's files there (QCryptographicHash).
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

inline constexpr int kSessionFormatVersion = 1;

// One file the source was read from: its name in the source's folder, size and SHA-256 (hex).
struct SessionFile {
    std::string name;
    std::uint64_t bytes = 0;
    std::string sha256;
    bool operator==(const SessionFile&) const = default;
};

enum class SessionSource { Lesson, Model };

struct SavedSession {
    SessionSource kind = SessionSource::Lesson;
    std::string source;              // a model's folder or hub id, a lesson's path (":/…" built in)
    std::vector<SessionFile> files;  // what the source was read from (none for a built-in lesson)
    std::string sentence, sentenceB;  // B: the Compare tab's sentence, may be empty
    std::vector<HeadRef> ablated;    // 0-based here, counted from 1 in the file (docs/cli.md)
    int layer = 0, head = 0, step = 0;  // 0-based here, from 1 in the file
    int tab = 0;                     // the tab's place, 0-based here, from 1 in the file
    // An encoder–decoder lesson's stage shown, by the names --stage takes ("encoder", "decoder_self",
    // "cross"); empty for a source without stages. `ablated` are that stage's heads.
    std::string stage;
    bool shading = true, words = false;  // View ▸ shading of the cells, attention between words
    bool norms = false;  // the attention views shaded by weight × ‖value‖ instead of the weight
    // The Heads tab's evaluation settings: the seed of the random-weights control's shuffle and of
    // the bootstrap intervals (as `heads --seed`), and whether the control runs.
    std::uint32_t seed = 1;
    bool control = false;
};

std::string sessionToJson(const SavedSession& session);
// Errors name `file` and the field ("s.json: layer: expected a whole number from 1 to 100000, …").
Result<SavedSession> sessionFromJson(std::string_view text, const std::string& file);
// The file at `path` read (at most 1 MiB: a session is a few hundred bytes) and parsed, errors naming its file name.
Result<SavedSession> readSessionFile(const std::filesystem::path& path);

// The names of the session's files that differ on disk now (another size or hash) or are missing,
// in the session's order. Files added since are not a change. Empty: the same files.
std::vector<std::string> changedFiles(const std::vector<SessionFile>& saved, const std::vector<SessionFile>& now);

}  // namespace attnscope
