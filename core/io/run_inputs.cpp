#include "core/io/run_inputs.hpp"

#include <atomic>
#include <mutex>
#include <set>
#include <utility>

namespace attnscope {

namespace {

struct RunInputs {
    std::mutex mutex;
    std::set<std::pair<dev_t, ino_t>> files;
    std::atomic<bool> refuse{false};
};

RunInputs& runInputs() {
    static RunInputs inputs;
    return inputs;
}

}  // namespace

void noteRunInput(const struct stat& info) {
    RunInputs& inputs = runInputs();
    const std::lock_guard lock(inputs.mutex);
    inputs.files.emplace(info.st_dev, info.st_ino);
}

void noteRunInput(const std::filesystem::path& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0) noteRunInput(info);
}

void refuseWritingOverRunInputs(bool refuse) { runInputs().refuse = refuse; }

bool isRefusedRunInput(const struct stat& info) {
    RunInputs& inputs = runInputs();
    if (!inputs.refuse) return false;
    const std::lock_guard lock(inputs.mutex);
    return inputs.files.count({info.st_dev, info.st_ino}) > 0;
}

}  // namespace attnscope
