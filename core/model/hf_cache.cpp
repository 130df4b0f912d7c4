#include "core/model/hf_cache.hpp"

#include "core/io/text_file.hpp"
#include "core/text/error_messages.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <system_error>
#include <tuple>

namespace attnscope {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> environmentVariable(const char* name) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') return std::nullopt;
    return std::string(value);
}

// "~/x" → "$HOME/x", as the Python tools expand user paths in HF_HOME and HF_HUB_CACHE.
fs::path expandHome(const std::string& path, const CacheEnv& env) {
    if (env.home && (path == "~" || path.rfind("~/", 0) == 0)) return fs::path(*env.home) / path.substr(std::min<std::size_t>(2, path.size()));
    return fs::path(path);
}

bool isAlnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

std::string inQuotes(std::string_view text) { return "\"" + std::string(text) + "\""; }

std::optional<ErrorText> checkIdPart(std::string_view part, ErrorId what) {
    if (part.empty()) return errorText(ErrorId::IdPartEmpty, what);
    if (!isAlnum(part.front())) return errorText(ErrorId::IdPartStart, what);
    if (part.back() == '-' || part.back() == '.') return errorText(ErrorId::IdPartEnd, what);
    for (char c : part)
        if (!isAlnum(c) && c != '.' && c != '_' && c != '-')
            return errorText(ErrorId::IdPartCharacters, what, inQuotes(std::string(1, c)));
    return std::nullopt;
}

// Reads the first line of a small text file (a ref), trimmed; nullopt when unreadable. The hub
// writes refs as small files, never links: a link (to /etc/shadow, say) is not followed, so no
// line of another file can reach a message (as a commit or a snapshot path looked at).
std::optional<std::string> readRef(const fs::path& path) {
    std::error_code ec;
    if (fs::is_symlink(path, ec)) return std::nullopt;
    if (!checkReadableFile(path, kMaxTextFileBytes).ok()) return std::nullopt;  // a FIFO would block
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line)) return std::nullopt;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\n')) line.pop_back();
    return line;
}

bool isDirectory(const fs::path& path) {
    std::error_code ec;
    return fs::is_directory(path, ec);
}

std::string joinPaths(const std::vector<fs::path>& paths) {
    std::string text;
    for (const fs::path& path : paths) text += (text.empty() ? "" : ", ") + path.string();
    return text;
}

// Every ref under refs/ (nested names like "pr/1" included) mapped to its commit.
std::vector<std::pair<std::string, std::string>> readRefs(const fs::path& refsDir) {
    std::vector<std::pair<std::string, std::string>> refs;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(refsDir, ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_regular_file(ec)) continue;
        if (auto commit = readRef(it->path()))
            refs.emplace_back(it->path().lexically_relative(refsDir).generic_string(), *commit);
    }
    // "main" first so a snapshot reached by several refs is listed under the usual one.
    std::sort(refs.begin(), refs.end(), [](const auto& a, const auto& b) {
        return std::make_pair(a.first != "main", a.first) < std::make_pair(b.first != "main", b.first);
    });
    return refs;
}

// Sizes follow symlinks into blobs/; a dangling link (blob deleted) counts as missing.
void scanSnapshot(CachedModel& model) {
    std::error_code ec;
    for (fs::recursive_directory_iterator it(model.path, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code fileEc;
        if (!fs::is_regular_file(it->path(), fileEc)) continue;  // follows the symlink
        const std::uintmax_t size = fs::file_size(it->path(), fileEc);
        if (fileEc) continue;
        model.totalBytes += size;
        const std::string relative = it->path().lexically_relative(model.path).generic_string();
        if (relative == "config.json") model.hasConfig = true;
        if (it->path().extension() == ".safetensors") model.hasSafetensors = true;
    }
}

// "models--ORG--NAME" → "ORG/NAME"; "--" is refused inside id parts, so the split is unambiguous.
std::optional<std::string> idFromFolderName(const std::string& folder) {
    const std::string prefix = "models--";
    if (folder.rfind(prefix, 0) != 0) return std::nullopt;
    std::string rest = folder.substr(prefix.size());
    const std::size_t separator = rest.find("--");
    if (separator != std::string::npos) rest.replace(separator, 2, "/");
    if (!parseRepoId(rest)) return std::nullopt;
    return rest;
}

void appendModelSnapshots(const fs::path& repoDir, const std::string& id, std::vector<CachedModel>& models) {
    const auto refs = readRefs(repoDir / "refs");
    std::error_code ec;
    for (fs::directory_iterator it(repoDir / "snapshots", ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_directory(ec)) continue;
        CachedModel model;
        model.id = id;
        model.commit = it->path().filename().string();
        model.revision = model.commit;
        for (const auto& [ref, commit] : refs)
            if (commit == model.commit) { model.revision = ref; break; }
        model.path = it->path();
        scanSnapshot(model);
        models.push_back(std::move(model));
    }
}

}  // namespace

CacheEnv CacheEnv::fromProcess() {
    return CacheEnv{environmentVariable("HF_HUB_CACHE"), environmentVariable("HF_HOME"), environmentVariable("HOME")};
}

Result<fs::path> hubCacheRoot(const CacheEnv& env) {
    if (env.hfHubCache && !env.hfHubCache->empty()) return expandHome(*env.hfHubCache, env);
    if (env.hfHome && !env.hfHome->empty()) return expandHome(*env.hfHome, env) / "hub";
    if (env.home && !env.home->empty()) return fs::path(*env.home) / ".cache" / "huggingface" / "hub";
    return Error{ErrorId::WhereHfCache, ErrorId::NoCacheFolder};
}

std::string RepoId::cacheFolderName() const {
    return org.empty() ? "models--" + name : "models--" + org + "--" + name;
}

Result<RepoId> parseRepoId(std::string_view id) {
    const ErrorText where = errorText(ErrorId::WhereModelIdQuoted, inQuotes(id));
    if (id.empty()) return Error{ErrorId::WhereModelId, ErrorId::ModelIdEmpty};
    if (id.size() > kMaxRepoIdLength)
        return Error{where, errorText(ErrorId::TooManyCharacters, id.size(), kMaxRepoIdLength)};
    if (id.find("..") != std::string_view::npos) return Error{where, errorText(ErrorId::MustNotContain, "\"..\"")};
    // "--" separates org and name in cache folder names, so the hub forbids it in ids.
    if (id.find("--") != std::string_view::npos) return Error{where, errorText(ErrorId::MustNotContain, "\"--\"")};
    const std::size_t slash = id.find('/');
    if (slash != std::string_view::npos && id.find('/', slash + 1) != std::string_view::npos)
        return Error{where, ErrorId::MoreThanOneSlash};
    RepoId repo;
    if (slash == std::string_view::npos) {
        repo.name = std::string(id);
    } else {
        repo.org = std::string(id.substr(0, slash));
        repo.name = std::string(id.substr(slash + 1));
        if (auto problem = checkIdPart(repo.org, ErrorId::PartOrganisation)) return Error{where, *problem};
    }
    if (auto problem = checkIdPart(repo.name, ErrorId::PartModelName)) return Error{where, *problem};
    return repo;
}

Result<void> validateRepoFileName(std::string_view name) {
    const ErrorText where = errorText(ErrorId::WhereFileNameQuoted, inQuotes(name));
    if (name.empty()) return Error{ErrorId::WhereFileName, ErrorId::IsEmpty};
    for (char c : name) {
        if (c == '\0') return Error{where, ErrorId::ContainsNul};
        if (static_cast<unsigned char>(c) < 0x20) return Error{where, ErrorId::ContainsControl};
        if (c == '\\') return Error{where, ErrorId::ContainsBackslash};
    }
    if (name.front() == '/') return Error{where, ErrorId::AbsolutePath};
    std::size_t begin = 0;
    while (begin <= name.size()) {
        const std::size_t end = std::min(name.find('/', begin), name.size());
        const std::string_view component = name.substr(begin, end - begin);
        if (component.empty()) return Error{where, ErrorId::EmptyPathComponent};
        if (component == "." || component == "..")
            return Error{where, errorText(ErrorId::PathLeavesRepo, errorText(ErrorId::Quoted, component))};
        begin = end + 1;
    }
    return {};
}

Result<void> validateRevision(std::string_view revision) {
    const ErrorText where = errorText(ErrorId::WhereRevision, inQuotes(revision));
    if (auto name = validateRepoFileName(revision); !name.ok()) return Error{where, name.error().messageForm()};
    if (revision.find(' ') != std::string_view::npos) return Error{where, ErrorId::ContainsSpace};
    return {};
}

bool isCommitHash(std::string_view text) {
    return text.size() == 40 && std::all_of(text.begin(), text.end(), isHex);
}

Result<fs::path> findCachedModel(const CacheEnv& env, std::string_view id, std::string_view revision) {
    auto repo = parseRepoId(id);
    if (!repo) return repo.error();
    if (auto error = validateRevision(revision); !error.ok()) return error.error();
    auto root = hubCacheRoot(env);
    if (!root) return root.error();
    const fs::path repoDir = root.value() / repo.value().cacheFolderName();
    const ErrorText where = errorText(ErrorId::WhereModelAtRevision, inQuotes(id), inQuotes(revision));
    std::vector<fs::path> tried;

    if (isCommitHash(revision)) {
        const fs::path snapshot = repoDir / "snapshots" / std::string(revision);
        if (isDirectory(snapshot)) return snapshot;
        tried.push_back(snapshot);
    }
    const fs::path ref = repoDir / "refs" / std::string(revision);
    tried.push_back(ref);
    if (auto commit = readRef(ref)) {
        if (!isCommitHash(*commit) && (!validateRevision(*commit).ok() || commit->find('/') != std::string::npos))
            return Error{ref.string(), ErrorId::RefNotACommit};  // never its content: a link may reach any file
        const fs::path snapshot = repoDir / "snapshots" / *commit;
        if (isDirectory(snapshot)) return snapshot;
        tried.push_back(snapshot);
    }
    return Error{where, errorText(ErrorId::NotInHfCache, joinPaths(tried))};
}

std::vector<CachedModel> listCachedModels(const CacheEnv& env) {
    std::vector<CachedModel> models;
    auto root = hubCacheRoot(env);
    if (!root) return models;
    std::error_code ec;
    for (fs::directory_iterator it(root.value(), ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_directory(ec)) continue;
        if (auto id = idFromFolderName(it->path().filename().string())) appendModelSnapshots(it->path(), *id, models);
    }
    std::sort(models.begin(), models.end(), [](const CachedModel& a, const CachedModel& b) {
        return std::tie(a.id, a.revision) < std::tie(b.id, b.revision);
    });
    return models;
}

Result<fs::path> resolveModelPath(const CacheEnv& env, std::string_view pathOrId) {
    const fs::path asPath = expandHome(std::string(pathOrId), env);
    if (isDirectory(asPath)) return asPath;
    auto repo = parseRepoId(pathOrId);
    if (!repo)
        return Error{std::string(pathOrId), errorText(ErrorId::NeitherFolderNorId, asPath.string(), repo.error().messageForm())};
    auto cached = findCachedModel(env, pathOrId);
    if (cached) return cached;
    return Error{std::string(pathOrId), errorText(ErrorId::NeitherFolderNorCached, asPath.string(), cached.error().textForm())};
}

}  // namespace attnscope
