// core's writeFileAtomically on a real full filesystem and a read-only one (a small tmpfs, so the
// tests run as root; otherwise the executable says why and exits 77, which ctest reports as skipped).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "core/io/atomic_file.hpp"
#include "core/io/text_file.hpp"
#include "tests/full_disk/tmpfs_mount.hpp"

using namespace attnscope;
using attnscope::testing::TmpfsMount;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> namesIn(const fs::path& dir) {
    std::vector<std::string> out;
    for (const auto& entry : fs::directory_iterator(dir)) out.push_back(entry.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

void put(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

const std::string kOldLesson = R"({"format": "attnscope-lesson", "version": 1})";

}  // namespace

TEST_CASE("a full disk: No space left on device, the old file intact, no temporary", "[io][root]") {
    TmpfsMount disk;
    REQUIRE(disk.mounted());
    const fs::path file = disk.path() / "lesson.json";
    put(file, kOldLesson);
    REQUIRE(disk.fillUp());
    const auto error = writeFileAtomically(file, std::string(10000, 'x'));
    REQUIRE_FALSE(error.ok());
    CHECK(error.error().text() == file.string() + ": could not be written: No space left on device");
    CHECK(readTextFile(file).value() == kOldLesson);
    CHECK(namesIn(disk.path()) == std::vector<std::string>{"fill", "lesson.json"});
}

TEST_CASE("a nearly full disk: the write stops half-way and nothing is committed", "[io][root]") {
    TmpfsMount disk;
    REQUIRE(disk.mounted());
    const fs::path file = disk.path() / "lesson.json";
    put(file, kOldLesson);
    REQUIRE(disk.fillUp(8192));  // 8 KB free: the first chunks fit, the rest does not
    int chunksAccepted = 0;
    const auto error = writeFileAtomically(file, [&](FileChunkWriter& out) -> Result<void> {
        for (int i = 0; i < 40 && out.write(std::string(1024, 'y')); ++i) ++chunksAccepted;
        return {};
    });
    REQUIRE_FALSE(error.ok());
    CHECK(chunksAccepted > 0);  // really half-way, not refused at the start
    CHECK(chunksAccepted < 40);
    CHECK(error.error().message == "could not be written: No space left on device");
    CHECK(readTextFile(file).value() == kOldLesson);
    CHECK(namesIn(disk.path()) == std::vector<std::string>{"fill", "lesson.json"});
}

TEST_CASE("a read-only filesystem: Read-only file system, the old file intact", "[io][root]") {
    TmpfsMount disk;
    REQUIRE(disk.mounted());
    const fs::path file = disk.path() / "figure.csv";
    put(file, "1,2\n");
    REQUIRE(disk.remountReadOnly());
    const auto error = writeFileAtomically(file, std::string_view("3,4\n"));
    REQUIRE_FALSE(error.ok());
    CHECK(error.error().text() == file.string() + ": could not be written: Read-only file system");
    CHECK(readTextFile(file).value() == "1,2\n");
    CHECK(namesIn(disk.path()) == std::vector<std::string>{"figure.csv"});
}

TEST_CASE("after space is freed the same write succeeds", "[io][root]") {
    TmpfsMount disk;
    REQUIRE(disk.mounted());
    const fs::path file = disk.path() / "lesson.json";
    put(file, kOldLesson);
    REQUIRE(disk.fillUp());
    REQUIRE_FALSE(writeFileAtomically(file, std::string_view("{}")).ok());
    fs::remove(disk.path() / "fill");
    REQUIRE(writeFileAtomically(file, std::string_view("{}")).ok());
    CHECK(readTextFile(file).value() == "{}");
}

int main(int argc, char** argv) {
    const std::string reason = attnscope::testing::tmpfsUnavailableReason();
    if (!reason.empty()) {
        std::printf("SKIPPED (full-disk tests): %s\n", reason.c_str());
        return 77;
    }
    return Catch::Session().run(argc, argv);
}
