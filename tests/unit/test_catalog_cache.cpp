// The cache of large catalog files: what it returns equals the slow path, and a stale,
// corrupt or misplaced entry is never used.
#include "catalog_binary.hpp"
#include "catalog_cache.hpp"
#include "content_hash.hpp"
#include "test_helpers.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace gpuadvisor;
namespace fs = std::filesystem;

namespace {

// A fresh folder with copies of the fixture catalog, and a cache folder beside them.
struct CacheFixture {
    fs::path root;
    FileCache cache;

    CacheFixture() {
        static int serial = 0;
        root = fs::temp_directory_path() / ("gpuadvisor-cache-test-" + std::to_string(::getpid()) +
                                            "-" + std::to_string(++serial));
        fs::remove_all(root);
        fs::create_directories(root / "catalog");
        for (const auto& entry : fs::directory_iterator(test::fixture("catalog"))) {
            fs::copy_file(entry.path(), root / "catalog" / entry.path().filename());
        }
        cache.dir = (root / "cache").string();
        cache.min_bytes = 0; // the fixtures are small: cache them all
    }
    ~CacheFixture() { fs::remove_all(root); }
    CacheFixture(const CacheFixture&) = delete;
    CacheFixture& operator=(const CacheFixture&) = delete;

    std::string file(const std::string& name) const { return (root / "catalog" / name).string(); }
    CatalogLoad load(const FileCache& with) const {
        return load_catalog_over(
            nullptr, {(root / "catalog").string()}, test::fixed_checks(), {}, with);
    }
    std::string entry(const std::string& name) const {
        return cache_entry_path(cache, file(name), LoadLimits{});
    }
};

void write(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// Byte-identical catalogs and the same diagnostics.
void require_same(const CatalogLoad& a, const CatalogLoad& b) {
    CHECK(serialize_catalog(a.catalog) == serialize_catalog(b.catalog));
    CHECK(test::describe(a.diagnostics) == test::describe(b.diagnostics));
    CHECK(a.files == b.files);
}

} // namespace

TEST_CASE("xxh64 gives the reference library's values") {
    // Reference: libxxhash 0.8.1 XXH64() (Debian libxxhash0).
    CHECK(xxh64("") == 0xEF46DB3751D8E999ULL);
    CHECK(xxh64("abc") == 0x44BC2CF5AD770999ULL);
    CHECK(xxh64("0123456789abcdefghijklmnopqrstuvwxyzABCDEF") == 0x0D14E2361A4FA1FFULL);
    CHECK(xxh64("0123456789abcdefghijklmnopqrstuvwxyzABCDEF", 7) == 0x2B8342FE4896BD84ULL);
    CHECK(xxh64("hello world!", 1) == 0x5DBD098AD9A620ECULL);
}

TEST_CASE("a catalog read through the cache equals the slow path, first and second time") {
    CacheFixture f;
    const CatalogLoad slow = f.load(FileCache{});
    REQUIRE(slow.diagnostics.items().empty());
    REQUIRE_FALSE(fs::exists(f.entry("testcloud.yaml")));
    const CatalogLoad filling = f.load(f.cache);
    REQUIRE(fs::exists(f.entry("testcloud.yaml")));
    REQUIRE(fs::exists(f.entry("gpus.yaml")));
    const CatalogLoad cached = f.load(f.cache);
    require_same(slow, filling);
    require_same(slow, cached);
}

TEST_CASE("a changed file is parsed again, and its new entry replaces the stale one") {
    CacheFixture f;
    f.load(f.cache);
    const std::string before = test::read_text(f.entry("testcloud.yaml"));
    std::string text = test::read_text(f.file("testcloud.yaml"));
    text += "\n# an edit that changes no value\n";
    write(f.file("testcloud.yaml"), text);
    const CatalogLoad cached = f.load(f.cache);
    require_same(f.load(FileCache{}), cached);
    CHECK(test::read_text(f.entry("testcloud.yaml")) != before);
}

TEST_CASE("an edited price is seen at once, never the cached one") {
    CacheFixture f;
    const CatalogLoad first = f.load(f.cache);
    const std::string text = test::read_text(f.file("testcloud.yaml"));
    const std::size_t at = text.find("on_demand: ");
    REQUIRE(at != std::string::npos);
    std::string edited = text;
    edited.insert(at + std::string("on_demand: ").size(), "1"); // 32.77 -> 132.77, say
    write(f.file("testcloud.yaml"), edited);
    const CatalogLoad cached = f.load(f.cache);
    require_same(f.load(FileCache{}), cached);
    CHECK(serialize_catalog(cached.catalog) != serialize_catalog(first.catalog));
}

TEST_CASE("a corrupt, truncated or foreign cache entry is detected and rebuilt") {
    CacheFixture f;
    const CatalogLoad slow = f.load(FileCache{});
    f.load(f.cache);
    const std::string entry = f.entry("testcloud.yaml");
    const std::string good = test::read_text(entry);
    SECTION("a flipped byte in the payload") {
        std::string bad = good;
        bad[bad.size() - 10] = static_cast<char>(bad[bad.size() - 10] ^ 0x5a);
        write(entry, bad);
    }
    SECTION("cut short") {
        write(entry, good.substr(0, good.size() / 2));
    }
    SECTION("empty") {
        write(entry, "");
    }
    SECTION("another file's entry under this file's name") {
        write(entry, test::read_text(f.entry("yuncloud.yaml")));
    }
    require_same(slow, f.load(f.cache));
    CHECK(test::read_text(entry) == good); // rebuilt
}

TEST_CASE("a file with a diagnostic is not cached, so its report is always fresh") {
    CacheFixture f;
    std::string text = test::read_text(f.file("yuncloud.yaml"));
    text += "unknown_top_level_key: 1\n";
    write(f.file("yuncloud.yaml"), text);
    const CatalogLoad first = f.load(f.cache);
    REQUIRE(first.diagnostics.has_errors());
    CHECK_FALSE(fs::exists(f.entry("yuncloud.yaml")));
    CHECK(fs::exists(f.entry("testcloud.yaml")));
    require_same(first, f.load(f.cache));
}

TEST_CASE("files under the size threshold and an unwritable cache folder are parsed as usual") {
    CacheFixture f;
    FileCache small = f.cache;
    small.min_bytes = 1u << 30;
    require_same(f.load(FileCache{}), f.load(small));
    CHECK_FALSE(fs::exists(f.cache.dir));
    FileCache nowhere = f.cache;
    write((f.root / "not-a-folder").string(), "x");
    nowhere.dir = (f.root / "not-a-folder" / "cache").string();
    require_same(f.load(FileCache{}), f.load(nowhere));
}
