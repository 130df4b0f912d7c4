#pragma once
// The example models shipped with AttnScope (resources/models/, trained by
// scripts/train_example_models.py): a name such as "example-gpt" → the folder holding it.
//
// Searched in order: $ATTNSCOPE_DATA_DIR/models, <folder of the executable>/../share/attnscope/models
// (the installed layout), then the source tree's resources/models (a development build run from
// its build folder). The places are a parameter (ExampleModelPlaces) so tests choose their own.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"

namespace attnscope {

struct ExampleModel {
    std::string name;         // what --model and the menu accept: "example-gpt"
    std::string description;  // one line for menus and error messages
};

// The shipped examples, in menu order.
const std::vector<ExampleModel>& exampleModels();
bool isExampleModelName(std::string_view name);
std::string exampleModelNames();  // "example-gpt, example-bert": for error messages

struct ExampleModelPlaces {
    std::optional<std::filesystem::path> dataDir;        // $ATTNSCOPE_DATA_DIR
    std::optional<std::filesystem::path> executableDir;  // the running program's folder
    std::optional<std::filesystem::path> sourceDir;      // the source tree it was built from

    static ExampleModelPlaces fromProcess();  // the environment, /proc/self/exe, the build's source dir
    std::vector<std::filesystem::path> modelRoots() const;  // the folders searched, in order
};

// The folder of the example `name` (one holding a config.json), or an Error listing the
// folders looked at. A name that is not an example's is an Error listing the examples.
Result<std::filesystem::path> findExampleModel(const ExampleModelPlaces& places, std::string_view name);

}  // namespace attnscope
