// Locating a model folder's config and weights. Format: Hugging Face folder layout
// (config.json, model.safetensors | model.safetensors.index.json + shards). Filesystem calls use
// std::error_code overloads so nothing throws.
#include "core/model/checkpoint_files.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <optional>
#include <sys/stat.h>
#include <string>
#include <system_error>
#include <vector>

#include "core/io/text_file.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope {

namespace {

bool isFile(const std::filesystem::path& p) {
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec);
}

std::string lowercase(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); });
    return text;
}

bool endsWith(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// What stands at `p` when it cannot be a weights file: a folder, a FIFO or device, a symlink loop
// or a dangling link, each said as such (never "has no model.safetensors"). Nothing there: none.
std::optional<Error> unusableFile(const std::filesystem::path& p) {
    struct stat link {};
    if (::lstat(p.c_str(), &link) != 0) return std::nullopt;
    struct stat info {};
    if (::stat(p.c_str(), &info) != 0) return Error{p.string(), errorText(ErrorId::CannotOpenOs, std::strerror(errno))};
    if (S_ISDIR(info.st_mode)) return Error{p.string(), ErrorId::IsFolderNotFile};
    if (!S_ISREG(info.st_mode)) return Error{p.string(), ErrorId::NotRegularFile};
    return std::nullopt;
}

// Sorted so that the error names the same file each time.
std::vector<std::filesystem::path> pickleFilesIn(const std::filesystem::path& folder) {
    std::vector<std::filesystem::path> found;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
        if (isPickleCheckpoint(it->path())) found.push_back(it->path());
    std::sort(found.begin(), found.end());
    return found;
}

}  // namespace

bool isPickleCheckpoint(const std::filesystem::path& file) {
    const std::string name = lowercase(file.filename().string());
    if (name.starts_with("pytorch_model")) return true;  // also pytorch_model.bin.index.json
    constexpr std::array kPickleEndings{".bin", ".pt", ".pth", ".ckpt", ".pkl", ".pickle"};
    return std::any_of(kPickleEndings.begin(), kPickleEndings.end(),
                       [&](const char* ending) { return endsWith(name, ending); });
}

Error pickleRefusal(const std::filesystem::path& file) {
    const std::string name = file.filename().string();
    const std::string command =  // code, the same in every language
        "python -c \"import torch; from safetensors.torch import save_file; "
        "sd = torch.load('" + name + "', map_location='cpu', weights_only=True); "
        "save_file({k: v.clone().contiguous() for k, v in sd.items()}, 'model.safetensors')\"";
    return Error{file.string(), errorText(ErrorId::PickleRefused, command)};
}

Result<CheckpointFiles> findCheckpointFiles(const std::filesystem::path& folder) {
    std::error_code ec;
    if (!std::filesystem::exists(folder, ec)) return Error{folder.string(), ErrorId::DoesNotExist};
    if (!std::filesystem::is_directory(folder, ec)) return Error{folder.string(), ErrorId::IsNotAFolder};
    CheckpointFiles files{folder, folder / "config.json", {}, false};
    for (const char* name : {"model.safetensors.index.json", "model.safetensors"})
        if (auto bad = unusableFile(folder / name)) return *bad;
    if (isFile(folder / "model.safetensors.index.json")) {
        files.weights = folder / "model.safetensors.index.json";
        files.sharded = true;
    } else if (isFile(folder / "model.safetensors")) {
        files.weights = folder / "model.safetensors";
    } else {
        // A pickle-only folder: say why it is refused before anything else is missing.
        if (const auto pickles = pickleFilesIn(folder); !pickles.empty()) return pickleRefusal(pickles.front());
        return Error{folder.string(), ErrorId::NoSafetensorsFile};
    }
    std::error_code missing;
    if (!std::filesystem::exists(files.config, missing))
        return Error{files.config.string(), ErrorId::ConfigMissing};
    if (auto error = checkReadableFile(files.config, kMaxTextFileBytes); !error.ok()) return error.error();  // a FIFO, /dev/zero, a folder
    return files;
}

}  // namespace attnscope
