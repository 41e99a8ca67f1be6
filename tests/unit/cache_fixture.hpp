// What the tests of the catalog cache share: a fresh folder with copies of the fixture
// catalog and a cache folder beside them, and how to compare two loads.
#pragma once

#include "catalog/catalog_binary.hpp"
#include "catalog/catalog_cache.hpp"
#include "test_helpers.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace gpuadvisor::test {

struct CacheFixture {
    std::filesystem::path root;
    FileCache cache;

    CacheFixture() {
        namespace fs = std::filesystem;
        static int serial = 0;
        root = fs::temp_directory_path() / ("gpuadvisor-cache-test-" + std::to_string(::getpid()) +
                                            "-" + std::to_string(++serial));
        fs::remove_all(root);
        fs::create_directories(root / "catalog");
        for (const auto& entry : fs::directory_iterator(fixture("catalog"))) {
            fs::copy_file(entry.path(), root / "catalog" / entry.path().filename());
        }
        cache.dir = (root / "cache").string();
        cache.min_bytes = 0; // the fixtures are small: cache them all
    }
    ~CacheFixture() {
        std::error_code ignored;
        std::filesystem::remove_all(root, ignored);
    }
    CacheFixture(const CacheFixture&) = delete;
    CacheFixture& operator=(const CacheFixture&) = delete;

    std::string file(const std::string& name) const { return (root / "catalog" / name).string(); }
    CatalogLoad load(const FileCache& with) const {
        return load_catalog_over(nullptr, {(root / "catalog").string()}, fixed_checks(), {}, with);
    }
    // Where the entry of the file as it is now lives.
    std::string entry(const std::string& name) const {
        return cache_entry_path(cache, stamp_of(file(name), read_text(file(name))), LoadLimits{});
    }
};

inline void write(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// Byte-identical catalogs (positions, and so the files they name, included) and the same
// diagnostics.
inline void require_same(const CatalogLoad& a, const CatalogLoad& b) {
    CHECK(serialize_catalog(a.catalog) == serialize_catalog(b.catalog));
    CHECK(describe(a.diagnostics) == describe(b.diagnostics));
    CHECK(a.files == b.files);
}

} // namespace gpuadvisor::test
