#include "core/source/example_models.hpp"

#include <cstdlib>

#include "core/text/error_messages.hpp"

namespace attnscope {

namespace fs = std::filesystem;

namespace {

std::optional<fs::path> nonEmptyEnv(const char* name) {
    const char* value = std::getenv(name);
    if (!value || !*value) return std::nullopt;
    return fs::path(value);
}

std::optional<fs::path> runningExecutableDir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);  // Linux; elsewhere this place is skipped
    if (ec || exe.empty()) return std::nullopt;
    return exe.parent_path();
}

bool holdsModel(const fs::path& folder) {
    std::error_code ec;
    return fs::is_regular_file(folder / "config.json", ec);
}

}  // namespace

const std::vector<ExampleModel>& exampleModels() {
    static const std::vector<ExampleModel> models = {
        {"example-gpt", "GPT-2-style causal model, 4 layers × 4 heads, trained on the King James Bible"},
        {"example-bert", "BERT-style masked-language model, 4 layers × 4 heads, trained on the King James Bible"},
        {"example-llama", "Llama-style causal model (RoPE, 4 query heads sharing 2 key/value heads, SwiGLU), 4 layers, "
                          "trained on the King James Bible"},
    };
    return models;
}

bool isExampleModelName(std::string_view name) {
    for (const ExampleModel& m : exampleModels())
        if (m.name == name) return true;
    return false;
}

std::string exampleModelNames() {
    std::string names;
    for (const ExampleModel& m : exampleModels()) names += (names.empty() ? "" : ", ") + m.name;
    return names;
}

ExampleModelPlaces ExampleModelPlaces::fromProcess() {
    ExampleModelPlaces places;
    places.dataDir = nonEmptyEnv("ATTNSCOPE_DATA_DIR");
    places.executableDir = runningExecutableDir();
#ifdef ATTNSCOPE_SOURCE_DIR
    places.sourceDir = fs::path(ATTNSCOPE_SOURCE_DIR);
#endif
    return places;
}

std::vector<fs::path> ExampleModelPlaces::modelRoots() const {
    std::vector<fs::path> roots;
    if (dataDir) roots.push_back(*dataDir / "models");
    if (executableDir) roots.push_back((*executableDir / ".." / "share" / "attnscope" / "models").lexically_normal());
    if (sourceDir) roots.push_back(*sourceDir / "resources" / "models");
    return roots;
}

Result<fs::path> findExampleModel(const ExampleModelPlaces& places, std::string_view name) {
    if (!isExampleModelName(name))
        return Error{std::string(name), errorText(ErrorId::NotAnExampleModel, exampleModelNames())};
    std::string looked;
    for (const fs::path& root : places.modelRoots()) {
        const fs::path folder = root / std::string(name);
        if (holdsModel(folder)) return folder;
        looked += (looked.empty() ? "" : ", ") + folder.string();
    }
    return Error{std::string(name), errorText(ErrorId::ExampleNotInstalled,
                                              looked.empty() ? ErrorText(ErrorId::NoFolder) : ErrorText::verbatim(looked))};
}

}  // namespace attnscope
