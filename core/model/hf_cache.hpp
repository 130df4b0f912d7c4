#pragma once
// The Hugging Face hub cache, read the way the Python tools (huggingface_hub) write it, so a model
// downloaded by either side is found by the other.
//
// Layout under the cache root:
//   models--ORG--NAME/                  ("models--NAME" for ids without an org, e.g. bert-base-uncased)
//     blobs/<sha256 or git etag>        the file contents, one per distinct file
//     refs/<revision>                   text file holding a 40-hex commit hash, e.g. refs/main
//     snapshots/<commit>/<file>         relative symlinks to ../../blobs/<hash>
//
// Cache root: $HF_HUB_CACHE, else $HF_HOME/hub, else ~/.cache/huggingface/hub. The environment is
// a parameter (CacheEnv) so tests inject their own instead of touching the process environment.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"

namespace attnscope {

struct CacheEnv {
    std::optional<std::string> hfHubCache;  // $HF_HUB_CACHE
    std::optional<std::string> hfHome;      // $HF_HOME
    std::optional<std::string> home;        // $HOME

    static CacheEnv fromProcess();          // reads the three variables; unset or empty → nullopt
};

// The cache root the environment selects; an Error only when nothing is set at all (no HOME).
Result<std::filesystem::path> hubCacheRoot(const CacheEnv& env);

struct RepoId {
    std::string org;   // empty for legacy ids without an org ("bert-base-uncased")
    std::string name;
    std::string text() const { return org.empty() ? name : org + "/" + name; }
    std::string cacheFolderName() const;  // "models--ORG--NAME" or "models--NAME"
};

// Hub rules: at most one '/', each part [A-Za-z0-9][A-Za-z0-9._-]*, no leading/trailing '-' or
// '.', no ".." or "--" anywhere, at most 96 characters in all.
inline constexpr std::size_t kMaxRepoIdLength = 96;
Result<RepoId> parseRepoId(std::string_view id);

// A file name inside a repo ("config.json", "onnx/model.onnx"): relative '/'-separated
// components only; refuses empty, ".", "..", absolute paths, backslashes, NUL and control chars.
// The name becomes a path under snapshots/, so this is what keeps a download inside the cache.
Result<void> validateRepoFileName(std::string_view name);

// A revision (branch, tag, commit, "refs/pr/1"): the file-name rules, since it becomes refs/<rev>.
Result<void> validateRevision(std::string_view revision);

bool isCommitHash(std::string_view text);  // exactly 40 lowercase or uppercase hex digits

// The snapshot folder of a cached model. `revision` is a ref name (read from refs/<revision>)
// or a 40-hex commit (used directly). Errors list every path that was looked at.
Result<std::filesystem::path> findCachedModel(const CacheEnv& env, std::string_view id,
                                              std::string_view revision = "main");

struct CachedModel {
    std::string id;                  // "openai-community/gpt2" or "bert-base-uncased"
    std::string revision;            // the ref pointing at the snapshot ("main"), else the commit
    std::string commit;              // the snapshot folder name
    std::filesystem::path path;      // .../snapshots/<commit>
    bool hasConfig = false;          // config.json present (and its blob too)
    bool hasSafetensors = false;     // at least one *.safetensors present
    std::uintmax_t totalBytes = 0;   // sum of the snapshot's files (symlinks followed)
};

// Every snapshot of every model in the cache, sorted by id then revision. Unreadable entries are
// skipped: a listing is advisory, findCachedModel says what is wrong with a particular model.
std::vector<CachedModel> listCachedModels(const CacheEnv& env);

// What --model accepts: an existing directory is used as is; otherwise a repo id looked up in the
// cache at "main". The error names the folder and the cache paths that were tried.
Result<std::filesystem::path> resolveModelPath(const CacheEnv& env, std::string_view pathOrId);

}  // namespace attnscope
