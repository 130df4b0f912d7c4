// The Hugging Face cache: root selection, id and file-name rules, ref → snapshot lookup, listing.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>

#include "core/model/hf_cache.hpp"

using namespace attnscope;
namespace fs = std::filesystem;

namespace {

const std::string kCommit = "0123456789abcdef0123456789abcdef01234567";
const std::string kOtherCommit = "fedcba9876543210fedcba9876543210fedcba98";

struct TempDir {
    fs::path path;
    TempDir() {
        std::random_device random;
        path = fs::temp_directory_path() / ("attnscope-hfcache-" + std::to_string(random()) + std::to_string(random()));
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

void writeText(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

// One snapshot laid out as huggingface_hub writes it: blob + relative symlink + optional ref.
fs::path addSnapshot(const fs::path& root, const std::string& folder, const std::string& commit,
                     const std::vector<std::pair<std::string, std::string>>& files, const std::string& ref = "") {
    const fs::path repo = root / folder;
    const fs::path snapshot = repo / "snapshots" / commit;
    fs::create_directories(snapshot);
    for (const auto& [name, contents] : files) {
        const std::string blob = "blob-" + commit.substr(0, 6) + "-" + name;
        writeText(repo / "blobs" / blob, contents);
        fs::create_symlink(fs::path("../../blobs") / blob, snapshot / name);
    }
    if (!ref.empty()) writeText(repo / "refs" / ref, commit + "\n");
    return snapshot;
}

CacheEnv envFor(const fs::path& root) { return CacheEnv{root.string(), std::nullopt, std::nullopt}; }

}  // namespace

TEST_CASE("cache root: HF_HUB_CACHE, then HF_HOME/hub, then ~/.cache/huggingface/hub", "[hfcache]") {
    CHECK(hubCacheRoot(CacheEnv{"/a/hub", "/b", "/home/u"}).value() == fs::path("/a/hub"));
    CHECK(hubCacheRoot(CacheEnv{std::nullopt, "/b", "/home/u"}).value() == fs::path("/b/hub"));
    CHECK(hubCacheRoot(CacheEnv{std::nullopt, std::nullopt, "/home/u"}).value() ==
          fs::path("/home/u/.cache/huggingface/hub"));
    CHECK(hubCacheRoot(CacheEnv{"", "~/hf", "/home/u"}).value() == fs::path("/home/u/hf/hub"));
    const auto none = hubCacheRoot(CacheEnv{});
    REQUIRE_FALSE(none.ok());
    CHECK_THAT(none.error().text(), Catch::Contains("HF_HUB_CACHE"));
}

TEST_CASE("parseRepoId accepts hub ids with and without an org", "[hfcache]") {
    const auto gpt2 = parseRepoId("openai-community/gpt2");
    REQUIRE(gpt2.ok());
    CHECK(gpt2.value().org == "openai-community");
    CHECK(gpt2.value().name == "gpt2");
    CHECK(gpt2.value().cacheFolderName() == "models--openai-community--gpt2");
    const auto bert = parseRepoId("bert-base-uncased");
    REQUIRE(bert.ok());
    CHECK(bert.value().org.empty());
    CHECK(bert.value().cacheFolderName() == "models--bert-base-uncased");
    CHECK(parseRepoId("google/bert_uncased_L-2_H-128_A-2").ok());
    CHECK(parseRepoId("EleutherAI/pythia-70m.v1").ok());
    CHECK(parseRepoId(std::string(96, 'a')).ok());
}

TEST_CASE("parseRepoId refuses traversal and malformed ids with a reason", "[hfcache]") {
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"", "empty"},
        {"../etc", ".."},
        {"org/..", ".."},
        {"a/b/c", "more than one '/'"},
        {"/gpt2", "organisation is empty"},
        {"org/", "model name is empty"},
        {"-org/gpt2", "start with a letter or digit"},
        {"org/gpt2-", "must not end"},
        {"org/gpt2.", "must not end"},
        {".hidden", "start with a letter or digit"},
        {"org/gp t2", "may only contain"},
        {"org\\gpt2", "may only contain"},
        {"org--x/gpt2", "--"},
        {std::string(97, 'a'), "at most 96"},
        {std::string("gp\0t2", 5), "may only contain"},
    };
    for (const auto& [id, reason] : bad) {
        INFO(id);
        const auto parsed = parseRepoId(id);
        REQUIRE_FALSE(parsed.ok());
        CHECK_THAT(parsed.error().text(), Catch::Contains(reason));
    }
}

TEST_CASE("validateRepoFileName keeps names inside the repo", "[hfcache]") {
    for (const std::string good : {"config.json", "onnx/model.onnx", "model-00001-of-00002.safetensors", "a..b.txt"})
        CHECK(validateRepoFileName(good).ok());
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"", "empty"},
        {"../config.json", "\"..\""},
        {"a/../../b", "\"..\""},
        {"./config.json", "\".\""},
        {"/etc/passwd", "absolute"},
        {"a\\b", "backslash"},
        {"a//b", "empty path component"},
        {"dir/", "empty path component"},
        {std::string("a\0b", 3), "NUL"},
        {"a\nb", "control"},
    };
    for (const auto& [name, reason] : bad) {
        INFO(name);
        const auto error = validateRepoFileName(name);
        REQUIRE_FALSE(error.ok());
        CHECK_THAT(error.error().text(), Catch::Contains(reason));
    }
    CHECK(validateRevision("refs/pr/1").ok());
    CHECK_FALSE(validateRevision("../main").ok());
}

TEST_CASE("findCachedModel follows refs/main to the snapshot, with and without org", "[hfcache]") {
    TempDir cache;
    const fs::path gpt2 = addSnapshot(cache.path, "models--openai-community--gpt2", kCommit,
                                      {{"config.json", "{}"}, {"model.safetensors", "xx"}}, "main");
    const fs::path bert = addSnapshot(cache.path, "models--bert-base-uncased", kOtherCommit,
                                      {{"config.json", "{}"}}, "main");
    CHECK(findCachedModel(envFor(cache.path), "openai-community/gpt2").value() == gpt2);
    CHECK(findCachedModel(envFor(cache.path), "bert-base-uncased").value() == bert);
    // A commit hash names its snapshot directly, without a ref.
    CHECK(findCachedModel(envFor(cache.path), "openai-community/gpt2", kCommit).value() == gpt2);
    // HF_HOME/hub is used when HF_HUB_CACHE is unset.
    writeText(cache.path / "home" / "hub" / "models--x" / "refs" / "main", kCommit);
    fs::create_directories(cache.path / "home" / "hub" / "models--x" / "snapshots" / kCommit);
    CHECK(findCachedModel(CacheEnv{std::nullopt, (cache.path / "home").string(), std::nullopt}, "x").ok());
}

TEST_CASE("a missing model's error lists the paths that were tried", "[hfcache]") {
    TempDir cache;
    const auto missing = findCachedModel(envFor(cache.path), "org/absent");
    REQUIRE_FALSE(missing.ok());
    CHECK_THAT(missing.error().text(), Catch::Contains((cache.path / "models--org--absent" / "refs" / "main").string()));
    CHECK_THAT(missing.error().text(), Catch::Contains("org/absent"));

    // The ref exists but its snapshot does not (an interrupted download elsewhere).
    writeText(cache.path / "models--org--half" / "refs" / "main", kCommit);
    const auto half = findCachedModel(envFor(cache.path), "org/half");
    REQUIRE_FALSE(half.ok());
    CHECK_THAT(half.error().text(), Catch::Contains((cache.path / "models--org--half" / "snapshots" / kCommit).string()));

    CHECK_THAT(findCachedModel(envFor(cache.path), "../x").error().text(), Catch::Contains(".."));
    CHECK_THAT(findCachedModel(envFor(cache.path), "org/x", "../../etc").error().text(), Catch::Contains("revision"));
}

TEST_CASE("listCachedModels reports every snapshot with its files and size", "[hfcache]") {
    TempDir cache;
    addSnapshot(cache.path, "models--openai-community--gpt2", kCommit,
                {{"config.json", "{}"}, {"model.safetensors", "12345"}}, "main");
    addSnapshot(cache.path, "models--bert-base-uncased", kOtherCommit, {{"vocab.txt", "abc"}});
    fs::create_directories(cache.path / "datasets--org--data" / "snapshots" / kCommit);  // not a model
    fs::create_directories(cache.path / "models--bad..name" / "snapshots" / kCommit);     // not a valid id
    const auto models = listCachedModels(envFor(cache.path));
    REQUIRE(models.size() == 2);
    CHECK(models[0].id == "bert-base-uncased");
    CHECK(models[0].revision == kOtherCommit);  // no ref points at it
    CHECK_FALSE(models[0].hasConfig);
    CHECK_FALSE(models[0].hasSafetensors);
    CHECK(models[0].totalBytes == 3);
    CHECK(models[1].id == "openai-community/gpt2");
    CHECK(models[1].revision == "main");
    CHECK(models[1].commit == kCommit);
    CHECK(models[1].hasConfig);
    CHECK(models[1].hasSafetensors);
    CHECK(models[1].totalBytes == 7);
    CHECK(listCachedModels(envFor(cache.path / "nonexistent")).empty());
}

TEST_CASE("resolveModelPath: a folder as is, else an id in the cache, else where it looked", "[hfcache]") {
    TempDir cache;
    const fs::path local = cache.path / "my-model";
    fs::create_directories(local);
    CHECK(resolveModelPath(envFor(cache.path), local.string()).value() == local);
    const fs::path gpt2 = addSnapshot(cache.path, "models--openai-community--gpt2", kCommit, {{"config.json", "{}"}}, "main");
    CHECK(resolveModelPath(envFor(cache.path), "openai-community/gpt2").value() == gpt2);
    const auto missing = resolveModelPath(envFor(cache.path), "org/absent");
    REQUIRE_FALSE(missing.ok());
    CHECK_THAT(missing.error().text(), Catch::Contains("neither a folder"));
    CHECK_THAT(missing.error().text(), Catch::Contains("refs"));
    const auto badPath = resolveModelPath(envFor(cache.path), "/no/such/dir");
    REQUIRE_FALSE(badPath.ok());
    CHECK_THAT(badPath.error().text(), Catch::Contains("/no/such/dir"));
    CHECK_THAT(badPath.error().text(), Catch::Contains("valid model id"));
}
