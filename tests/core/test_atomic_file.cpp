// core/io/atomic_file: the one file writer. The full disk and the read-only folder need a tmpfs
// (root): they are in tests/full_disk/. Here: everything a normal folder can show.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <thread>

#include "core/io/atomic_file.hpp"
#include "core/io/run_inputs.hpp"
#include "core/io/text_file.hpp"

using namespace attnscope;
namespace fs = std::filesystem;

namespace {

struct ScratchFolder {
    fs::path path;
    ScratchFolder() {
        std::string name = (fs::temp_directory_path() / "attnscope-atomic-XXXXXX").string();
        path = ::mkdtemp(name.data());
    }
    ~ScratchFolder() { fs::remove_all(path); }
    // Every name in the folder: the target alone proves no temporary was left behind.
    std::vector<std::string> names() const {
        std::vector<std::string> out;
        for (const auto& entry : fs::directory_iterator(path)) out.push_back(entry.path().filename().string());
        std::sort(out.begin(), out.end());
        return out;
    }
};

std::string contentOf(const fs::path& path) { return readTextFile(path).value(); }

void put(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

unsigned modeOf(const fs::path& path) {
    struct stat s {};
    ::stat(path.c_str(), &s);
    return s.st_mode & 07777;
}

}  // namespace

TEST_CASE("writeFileAtomically writes a new file and replaces an old one", "[io]") {
    ScratchFolder dir;
    const fs::path file = dir.path / "lesson.json";
    REQUIRE(writeFileAtomically(file, std::string_view("first\n")).ok());
    CHECK(contentOf(file) == "first\n");
    REQUIRE(writeFileAtomically(file, std::string_view("second, longer\n")).ok());
    CHECK(contentOf(file) == "second, longer\n");
    REQUIRE(writeFileAtomically(file, std::string_view("")).ok());
    CHECK(contentOf(file) == "");
    CHECK(dir.names() == std::vector<std::string>{"lesson.json"});
}

TEST_CASE("writeFileAtomically in chunks: the file is their concatenation", "[io]") {
    ScratchFolder dir;
    const fs::path file = dir.path / "big.csv";
    const std::string row(1000, 'x');
    const auto error = writeFileAtomically(file, [&](FileChunkWriter& out) -> Result<void> {
        for (int i = 0; i < 300; ++i) out.write(row + "\n");
        return {};
    });
    REQUIRE(error.ok());
    CHECK(fs::file_size(file) == 300 * 1001);
    CHECK(dir.names() == std::vector<std::string>{"big.csv"});
}

TEST_CASE("writeFileAtomically: a failure half-way leaves the old file and no temporary", "[io]") {
    ScratchFolder dir;
    const fs::path file = dir.path / "figure.png";
    put(file, "old picture");
    const auto error = writeFileAtomically(file, [](FileChunkWriter& out) -> Result<void> {
        out.write("new half");
        return Error{"figure.png", "the picture could not be drawn"};
    });
    REQUIRE_FALSE(error.ok());
    CHECK(error.error().text() == "figure.png: the picture could not be drawn");
    CHECK(contentOf(file) == "old picture");
    CHECK(dir.names() == std::vector<std::string>{"figure.png"});
}

TEST_CASE("writeFileAtomically: a folder that does not exist gives the OS's reason", "[io]") {
    ScratchFolder dir;
    const fs::path file = dir.path / "missing" / "x.png";
    const auto error = writeFileAtomically(file, std::string_view("bytes"));
    REQUIRE_FALSE(error.ok());
    CHECK(error.error().where == file.string());
    CHECK(error.error().message == "could not be written: No such file or directory");
    CHECK(dir.names().empty());
}

TEST_CASE("writeFileAtomically: a target that is a folder is refused and left alone", "[io]") {
    ScratchFolder dir;
    const fs::path folder = dir.path / "shots";
    fs::create_directory(folder);
    put(folder / "inside.txt", "kept");
    const auto error = writeFileAtomically(folder, std::string_view("bytes"));
    REQUIRE_FALSE(error.ok());
    CHECK(error.error().text() == folder.string() + ": could not be written: Is a directory");
    CHECK(contentOf(folder / "inside.txt") == "kept");
    CHECK(dir.names() == std::vector<std::string>{"shots"});
}

TEST_CASE("writeFileAtomically keeps an old file's mode, and a new one follows the umask", "[io]") {
    ScratchFolder dir;
    const fs::path old = dir.path / "private.json";
    put(old, "{}");
    fs::permissions(old, fs::perms::owner_read | fs::perms::owner_write);
    REQUIRE(writeFileAtomically(old, std::string_view("{\"a\": 1}")).ok());
    CHECK(modeOf(old) == 0600);
    const mode_t before = ::umask(027);
    const auto error = writeFileAtomically(dir.path / "new.json", std::string_view("{}"));
    ::umask(before);
    REQUIRE(error.ok());
    CHECK(modeOf(dir.path / "new.json") == 0640);  // 0666 minus the umask, not mkstemp's 0600
}

TEST_CASE("writeFileAtomically never writes through a link, nor replaces one", "[io]") {
    // A link planted where an export goes must not turn the export into the replacement of the
    // file it names: the link and that file stay as they were, and the message names the link.
    ScratchFolder dir;
    fs::create_directory(dir.path / "real");
    put(dir.path / "real" / "lesson.json", "old");
    fs::create_symlink("real/lesson.json", dir.path / "link.json");
    fs::create_symlink("real/missing.json", dir.path / "dangling.json");
    const auto linked = writeFileAtomically(dir.path / "link.json", std::string_view("new"));
    REQUIRE_FALSE(linked.ok());
    CHECK(linked.error().text() == (dir.path / "link.json").string() + ": is a symbolic link: this file is never written through a link");
    CHECK(contentOf(dir.path / "real" / "lesson.json") == "old");
    CHECK(fs::is_symlink(dir.path / "link.json"));
    CHECK_FALSE(writeFileAtomically(dir.path / "dangling.json", std::string_view("new")).ok());
    CHECK(fs::is_symlink(dir.path / "dangling.json"));
    CHECK(dir.names() == std::vector<std::string>{"dangling.json", "link.json", "real"});  // no temporary
}

TEST_CASE("writeFileAtomically writes into a pipe named by a link (/dev/stdout, >(…))", "[io]") {
    ScratchFolder folder;
    const fs::path fifo = folder.path / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    fs::create_symlink("pipe", folder.path / "out");
    std::string received;
    std::thread reader([&] {
        std::ifstream in(fifo, std::ios::binary);
        received.assign(std::istreambuf_iterator<char>(in), {});
    });
    const auto written = writeFileAtomically(folder.path / "out", std::string_view("through the link"));
    reader.join();
    CHECK(written.ok());
    CHECK(received == "through the link");
    CHECK(fs::is_symlink(folder.path / "out"));
}

TEST_CASE("writeFileAtomically: a 255-byte file name still gets a temporary beside it", "[io]") {
    ScratchFolder dir;
    const fs::path file = dir.path / (std::string(250, 'n') + ".json");  // NAME_MAX is 255
    REQUIRE(writeFileAtomically(file, std::string_view("{}")).ok());
    CHECK(contentOf(file) == "{}");
    CHECK(dir.names().size() == 1);
}

TEST_CASE("writeFileAtomically into a pipe or device writes into it and leaves it one", "[io]") {
    // --output /dev/null once renamed a regular file over /dev/null (as root): a FIFO stands in here.
    ScratchFolder folder;
    const fs::path fifo = folder.path / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::string received;
    std::thread reader([&] {
        std::ifstream in(fifo, std::ios::binary);
        received.assign(std::istreambuf_iterator<char>(in), {});
    });
    const auto written = writeFileAtomically(fifo, std::string_view("through the pipe"));
    reader.join();
    CHECK(written.ok());
    CHECK(received == "through the pipe");
    CHECK(fs::is_fifo(fifo));
    CHECK(folder.names() == std::vector<std::string>{"pipe"});  // no temporary either
}

TEST_CASE("writeFileAtomically: a FIFO without a reader is refused instead of waited on", "[io]") {
    ScratchFolder folder;
    const fs::path fifo = folder.path / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const auto written = writeFileAtomically(fifo, std::string_view("nobody listens"));
    REQUIRE_FALSE(written.ok());
    CHECK(written.error().text() == fifo.string() + ": is a FIFO that no program is reading from: nothing was written");
    CHECK(fs::is_fifo(fifo));
}

TEST_CASE("writeFileAtomically refuses a file nobody may write (mode 0444)", "[io]") {
    ScratchFolder dir;
    const fs::path file = dir.path / "handout.csv";
    put(file, "old");
    fs::permissions(file, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    const auto written = writeFileAtomically(file, std::string_view("new"));
    REQUIRE_FALSE(written.ok());
    CHECK(written.error().text() == file.string() + ": is read-only (mode 0444): not replaced (make it writable first)");
    CHECK(contentOf(file) == "old");
    CHECK(dir.names() == std::vector<std::string>{"handout.csv"});
}

TEST_CASE("writeFileAtomically refuses an input of this run once the command line asks it to", "[io]") {
    ScratchFolder dir;
    const fs::path lesson = dir.path / "lesson.json";
    put(lesson, "{}");
    REQUIRE(readTextFile(lesson).ok());  // notes it as an input
    refuseWritingOverRunInputs(true);
    const auto written = writeFileAtomically(lesson, std::string_view("trace"));
    refuseWritingOverRunInputs(false);
    REQUIRE_FALSE(written.ok());
    CHECK(written.error().text().find("is an input of this run") != std::string::npos);
    CHECK(contentOf(lesson) == "{}");
    CHECK(writeFileAtomically(lesson, std::string_view("{\"saved\": 1}")).ok());  // the window: Save
}

TEST_CASE("writeRegularFileAtomically never writes through a link, nor into a FIFO", "[io]") {
    ScratchFolder dir;
    put(dir.path / "victim", "precious");
    fs::create_symlink(dir.path / "victim", dir.path / "settings.conf");
    const auto linked = writeRegularFileAtomically(dir.path / "settings.conf", "[view]\n");
    REQUIRE_FALSE(linked.ok());
    CHECK(linked.error().text() == (dir.path / "settings.conf").string() + ": is a symbolic link: this file is never written through a link");
    CHECK(contentOf(dir.path / "victim") == "precious");
    REQUIRE(::mkfifo((dir.path / "fifo.conf").c_str(), 0600) == 0);
    const auto fifo = writeRegularFileAtomically(dir.path / "fifo.conf", "[view]\n");
    REQUIRE_FALSE(fifo.ok());
    CHECK(fifo.error().text().find("is not a regular file (a device, FIFO or socket): not replaced") != std::string::npos);
    REQUIRE(writeRegularFileAtomically(dir.path / "new.conf", "[view]\n").ok());
    CHECK(contentOf(dir.path / "new.conf") == "[view]\n");
}

TEST_CASE("removeTemporaryFilesNow removes the temporary of a write under way (Ctrl-C)", "[io]") {
    ScratchFolder dir;
    const fs::path target = dir.path / "export.json";
    std::size_t seenDuring = 0;
    const auto written = writeFileAtomically(target, [&](FileChunkWriter& out) -> Result<void> {
        out.write("half");
        seenDuring = dir.names().size();  // the temporary
        removeTemporaryFilesNow();        // what the SIGINT handler calls
        return Error{"export.json", "stopped"};
    });
    CHECK_FALSE(written.ok());
    CHECK(seenDuring == 1);
    CHECK(dir.names().empty());
}
