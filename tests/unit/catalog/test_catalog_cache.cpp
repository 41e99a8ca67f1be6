// The cache of large catalog files: what it returns equals the slow path, and a stale,
// corrupt or misplaced entry is never used.
#include "cache_fixture.hpp"
#include "catalog/catalog_binary.hpp"
#include "catalog/catalog_cache.hpp"
#include "catalog/catalog_checks.hpp"
#include "catalog/catalog_decode.hpp"
#include "test_helpers.hpp"
#include "util/content_hash.hpp"
#include "yaml/yaml_reader.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace gpuadvisor;
namespace fs = std::filesystem;

using test::CacheFixture;
using test::require_same;
using test::write;

TEST_CASE("xxh64 gives the reference library's values") {
    // Reference: libxxhash 0.8.1 XXH64() (Debian libxxhash0).
    CHECK(xxh64("") == 0xEF46DB3751D8E999ULL);
    CHECK(xxh64("abc") == 0x44BC2CF5AD770999ULL);
    CHECK(xxh64("0123456789abcdefghijklmnopqrstuvwxyzABCDEF") == 0x0D14E2361A4FA1FFULL);
    CHECK(xxh64("0123456789abcdefghijklmnopqrstuvwxyzABCDEF", 7) == 0x2B8342FE4896BD84ULL);
    CHECK(xxh64("hello world!", 1) == 0x5DBD098AD9A620ECULL);
}

TEST_CASE("xxh64 fed in pieces equals xxh64 of the whole") {
    std::string text;
    for (int i = 0; text.size() < 100'000; ++i) {
        text += std::to_string(i * 7919) + (i % 3 == 0 ? "\n" : ",");
    }
    // Lengths around the 32-byte stripe, pieces of every small size and some large ones.
    for (const std::size_t length : {0u, 1u, 31u, 32u, 33u, 63u, 64u, 65u, 100u, 1000u, 100'000u}) {
        const std::string_view whole = std::string_view(text).substr(0, length);
        for (const std::size_t piece : {1u, 3u, 8u, 31u, 32u, 33u, 4096u, 1u << 20}) {
            Xxh64Stream stream(5);
            for (std::size_t at = 0; at < whole.size(); at += piece) {
                stream.update(whole.substr(at, piece));
            }
            INFO("length " << length << ", pieces of " << piece);
            CHECK(stream.digest() == xxh64(whole, 5));
        }
    }
    Xxh64Stream abc;
    abc.update("a");
    abc.update("");
    abc.update("bc");
    CHECK(abc.digest() == 0x44BC2CF5AD770999ULL);
}

TEST_CASE("a fragment's positions are renamed to another path, texts that read like it are not") {
    CatalogFragment fragment;
    fragment.file = "a.yaml";
    InstanceInput instance;
    instance.instance.origin = {"a.yaml", 3, 5};
    instance.instance.provenance.notes = "a.yaml";
    fragment.instances.push_back(instance);
    rename_origins(fragment, "./a.yaml");
    CHECK(fragment.file == "./a.yaml");
    CHECK(fragment.instances[0].instance.origin == SourcePos{"./a.yaml", 3, 5});
    CHECK(fragment.instances[0].instance.provenance.notes == "a.yaml");
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
    // How each load read its files (what --timings says).
    const std::size_t files = slow.files.size();
    REQUIRE(files >= 2);
    CHECK((slow.files_parsed == files && slow.files_cached == 0));
    CHECK((filling.files_parsed == files && filling.files_cached == 0));
    CHECK((cached.files_parsed == 0 && cached.files_cached == files));
}

TEST_CASE("a changed file is parsed again, and gets an entry of its own content") {
    CacheFixture f;
    f.load(f.cache);
    const std::string before = f.entry("testcloud.yaml");
    std::string text = test::read_text(f.file("testcloud.yaml"));
    text += "\n# an edit that changes no value\n";
    write(f.file("testcloud.yaml"), text);
    const CatalogLoad cached = f.load(f.cache);
    require_same(f.load(FileCache{}), cached);
    CHECK(f.entry("testcloud.yaml") != before); // named by content
    CHECK(fs::exists(f.entry("testcloud.yaml")));
    CHECK(cached.files_parsed == 1); // the edited file; the others from their entries
    CHECK(cached.files_cached == cached.files.size() - 1);
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

namespace {

CatalogLoad load_set(const CacheFixture& f, const FileCache& cache, const CheckOptions& checks) {
    CatalogSources sources;
    sources.include_builtin = false;
    sources.paths = {(f.root / "catalog").string()};
    sources.cache = cache;
    return load_catalog(sources, checks);
}

std::vector<fs::path> set_entries(const CacheFixture& f) {
    std::vector<fs::path> entries;
    for (const auto& entry : fs::directory_iterator(f.cache.dir)) {
        if (entry.path().filename().string().starts_with("set-")) {
            entries.push_back(entry.path());
        }
    }
    return entries;
}

} // namespace

TEST_CASE("a whole set of files is cached merged, and what the entry holds is what loads") {
    CacheFixture f;
    const CatalogLoad slow = load_set(f, FileCache{}, test::fixed_checks());
    require_same(slow, load_set(f, f.cache, test::fixed_checks()));
    const auto entries = set_entries(f);
    REQUIRE(entries.size() == 1);
    const CatalogLoad whole = load_set(f, f.cache, test::fixed_checks());
    require_same(slow, whole);
    CHECK((whole.files_parsed == 0 && whole.files_cached == whole.files.size()));
    // White box: the entry's payload is what a load returns, so the tests below that see the
    // slow path's result after a change show the entry was refused, not merely unused. Its
    // pieces (header, string table, payload: written one after the other) make up exactly
    // the catalog's serialized form, its checksum seeded with the header's hash.
    const std::string bytes = test::read_text(entries[0].string());
    const std::size_t payload = bytes.find("end\n") + 4;
    const std::string header = bytes.substr(0, payload);
    CHECK(bytes.substr(payload) == serialize_catalog_parts(whole.catalog, xxh64(header)).joined());
    const std::string other = serialize_catalog_parts(test::test_catalog(), xxh64(header)).joined();
    write(entries[0].string(), header + other);
    CHECK(serialize_catalog(load_set(f, f.cache, test::fixed_checks()).catalog) ==
          serialize_catalog(test::test_catalog()));
}

TEST_CASE("a set entry is refused when a file, the day or the entry itself changed") {
    CacheFixture f;
    load_set(f, f.cache, test::fixed_checks());
    REQUIRE(set_entries(f).size() == 1);
    const std::string entry = set_entries(f)[0].string();
    SECTION("a file edited") {
        std::string text = test::read_text(f.file("testcloud.yaml"));
        const std::size_t at = text.find("on_demand: ");
        text.insert(at + std::string("on_demand: ").size(), "1");
        write(f.file("testcloud.yaml"), text);
        require_same(load_set(f, FileCache{}, test::fixed_checks()),
                     load_set(f, f.cache, test::fixed_checks()));
    }
    SECTION("another day") {
        CheckOptions later = test::fixed_checks();
        later.today.days += 1;
        require_same(load_set(f, FileCache{}, later), load_set(f, f.cache, later));
    }
    SECTION("a damaged entry") {
        std::string bytes = test::read_text(entry);
        bytes[bytes.size() - 3] = static_cast<char>(bytes[bytes.size() - 3] ^ 0x21);
        write(entry, bytes);
        require_same(load_set(f, FileCache{}, test::fixed_checks()),
                     load_set(f, f.cache, test::fixed_checks()));
        const std::string rebuilt = test::read_text(entry);
        const std::size_t payload = rebuilt.find("end\n") + 4;
        CHECK(deserialize_catalog(rebuilt.substr(payload),
                                  xxh64(rebuilt.substr(0, payload)))); // rebuilt whole
    }
    CHECK(set_entries(f).size() == 1); // rewritten in place, not added
}

TEST_CASE("a set whose load has a warning is not cached") {
    CacheFixture f;
    CheckOptions strict = test::fixed_checks();
    strict.max_age_days = 1; // every fixture price is older: stale-price warnings
    const CatalogLoad first = load_set(f, f.cache, strict);
    REQUIRE(first.diagnostics.warning_count() > 0);
    CHECK(set_entries(f).empty());
    require_same(first, load_set(f, f.cache, strict));
}

TEST_CASE("a set with a file gone is read as usual: the error once, the entry unused") {
    CacheFixture f;
    std::vector<std::string> paths;
    for (const char* name : {"gpus.yaml", "testcloud.yaml", "yuncloud.yaml"}) {
        paths.push_back(f.file(name));
    }
    const auto load = [&](const FileCache& with) {
        return load_through_cache(nullptr, "none", paths, test::fixed_checks(), {}, with);
    };
    REQUIRE(load(f.cache).diagnostics.items().empty());
    REQUIRE(set_entries(f).size() == 1);
    fs::remove(f.file("yuncloud.yaml"));
    const CatalogLoad slow = load(FileCache{});
    const CatalogLoad cached = load(f.cache);
    require_same(slow, cached);
    CHECK(cached.diagnostics.error_count() == 1);          // "cannot read", not twice
    CHECK(cached.files_parsed + cached.files_cached == 2); // the third not read
}

namespace {

// Where a provider file breaks: instance types given a negative GPU count (an error when
// decoded), spot above on-demand (a warning when merged), or the id of an earlier one (an
// error once the file's instance types are all decoded).
struct Breaks {
    std::vector<int> bad_count;
    std::vector<int> bad_spot;
    std::vector<std::pair<int, int>> same_id_as; // (instance type, the earlier one)
};

bool has(const std::vector<int>& list, int i) {
    return std::find(list.begin(), list.end(), i) != list.end();
}

// A provider file of `instances` A100 instance types in two regions.
std::string provider_file(int provider, int instances, const Breaks& breaks) {
    std::string text = "schema_version: 1\nprovider:\n  id: p" + std::to_string(provider) +
                       "\n  name: P\n  currency: USD\n  source: test\n  as_of: 2025-01-01\n"
                       "  regions:\n    - {id: r1, name: R1, country: US}\n"
                       "    - {id: r2, name: R2, country: DE}\n"
                       "instances:\n";
    for (int i = 0; i < instances; ++i) {
        int id = i;
        for (const auto& [instance, earlier] : breaks.same_id_as) {
            id = instance == i ? earlier : id;
        }
        text += "  - id: p" + std::to_string(provider) + ".x" + std::to_string(id) +
                "\n    family: x\n    gpu: A100-40GB\n    gpu_count: " +
                (has(breaks.bad_count, i) ? "-1" : "8") +
                "\n    vcpus: 96\n    memory_gb: 1152\n    network_gbps: 400\n    rdma: true\n"
                "    nvlink: true\n    regions:\n"
                "      - {region: r1, on_demand: " +
                std::to_string(30 + i % 7) +
                ", spot: " + (has(breaks.bad_spot, i) ? "99" : "12.5") +
                "}\n"
                "      - {region: r2, on_demand: 35.5}\n";
    }
    return text;
}

// The old two-break file: an error and a warning.
std::string provider_file(int provider, int instances, bool broken) {
    return provider_file(
        provider, instances, broken ? Breaks{{instances / 3}, {instances / 2}, {}} : Breaks{});
}

} // namespace

TEST_CASE("large catalog files loaded on several threads give what one thread gives") {
    CacheFixture f;
    std::vector<NamedText> texts{{f.file("gpus.yaml"), test::read_text(f.file("gpus.yaml"))}};
    std::size_t bytes = texts.front().text.size();
    for (int p = 0; p < 3; ++p) {
        const std::string path = f.file("p" + std::to_string(p) + ".yaml");
        texts.push_back({path, provider_file(p, 700, p == 1)});
        write(path, texts.back().text);
        bytes += texts.back().text.size();
    }
    fs::remove(f.file("testcloud.yaml"));
    fs::remove(f.file("yuncloud.yaml"));
    REQUIRE(bytes > 256 * 1024); // enough for the load to parse on several threads
    const CatalogLoad one_thread = load_catalog_texts(texts, test::fixed_checks());
    REQUIRE(one_thread.diagnostics.error_count() == 1);
    REQUIRE(one_thread.diagnostics.items().size() == 2);
    require_same(one_thread, f.load(FileCache{}));
    require_same(one_thread, f.load(f.cache)); // filling the cache
    require_same(one_thread, f.load(f.cache)); // from it, but for the file with the error
    CHECK(fs::exists(f.entry("p0.yaml")));
    CHECK_FALSE(fs::exists(f.entry("p1.yaml")));
}

namespace {

// Each file parsed, then decoded whole (decode_catalog) or in pieces (CatalogDecode).
std::vector<CatalogFragment>
decoded(const std::vector<NamedText>& texts, std::size_t run, Diagnostics& diagnostics) {
    std::vector<YamlDocument> documents;
    for (const NamedText& text : texts) {
        documents.push_back(parse_yaml(text.name, text.text, LoadLimits{}, diagnostics));
    }
    std::vector<CatalogFragment> fragments;
    for (const YamlDocument& document : documents) {
        if (run == 0) {
            fragments.push_back(decode_catalog(document, diagnostics));
            continue;
        }
        CatalogDecode decode(document, diagnostics);
        std::vector<std::vector<InstanceInput>> runs;
        for (std::size_t first = 0; first < decode.instance_count(); first += run) {
            Diagnostics own;
            runs.push_back(
                decode.instances(first, std::min(first + run, decode.instance_count()), own));
            diagnostics.append(own);
        }
        fragments.push_back(decode.finish(std::move(runs), diagnostics));
    }
    return fragments;
}

std::vector<NamedText> broken_providers() {
    return {{"gpus.yaml", test::read_text(test::fixture("catalog/gpus.yaml"))},
            {"p0.yaml", provider_file(0, 1300, Breaks{{900}, {100}, {}})},
            {"p1.yaml", provider_file(1, 1300, Breaks{{}, {1290}, {{800, 5}, {801, 6}}})}};
}

} // namespace

TEST_CASE("a file's instance types decoded in runs give what decoding it whole gives") {
    const std::vector<NamedText> texts = broken_providers();
    Diagnostics whole;
    const std::vector<CatalogFragment> expected = decoded(texts, 0, whole);
    REQUIRE(whole.error_count() == 3); // a bad count, two second ids; warnings come at merge
    REQUIRE(expected[1].instances.size() == 1299);
    for (const std::size_t run : {1u, 7u, 256u, 1299u, 5000u}) {
        Diagnostics in_runs;
        const std::vector<CatalogFragment> fragments = decoded(texts, run, in_runs);
        CHECK(test::describe(in_runs) == test::describe(whole)); // in the same order
        REQUIRE(fragments.size() == expected.size());
        for (std::size_t f = 0; f < fragments.size(); ++f) {
            CHECK(fragments[f].instances.size() == expected[f].instances.size());
            Diagnostics ignored;
            CHECK(serialize_catalog(
                      merge_fragments(nullptr, {fragments[f]}, test::fixed_checks(), ignored)) ==
                  serialize_catalog(
                      merge_fragments(nullptr, {expected[f]}, test::fixed_checks(), ignored)));
        }
    }
}

TEST_CASE("instance types merged on several threads give what one thread gives") {
    const std::vector<NamedText> texts = broken_providers();
    Diagnostics decoding;
    const std::vector<CatalogFragment> fragments = decoded(texts, 0, decoding);
    Diagnostics one;
    const Catalog expected = merge_fragments(nullptr, fragments, test::fixed_checks(), one, 1);
    REQUIRE(one.warning_count() == 2); // spot above on-demand, in p0 and in p1
    REQUIRE(expected.instances().size() == 2597);
    for (const std::size_t threads : {0u, 2u, 3u, 8u}) {
        Diagnostics several;
        const Catalog merged =
            merge_fragments(nullptr, fragments, test::fixed_checks(), several, threads);
        CHECK(serialize_catalog(merged) == serialize_catalog(expected));
        CHECK(test::describe(several) == test::describe(one)); // unsorted: in the same order
    }
}

TEST_CASE("one large file is loaded on several threads as one thread loads it") {
    CacheFixture f;
    fs::remove(f.file("testcloud.yaml"));
    fs::remove(f.file("yuncloud.yaml"));
    const std::vector<NamedText> texts = broken_providers();
    std::vector<NamedText> on_disk;
    for (const NamedText& text : texts) {
        on_disk.push_back({f.file(text.name), text.text});
        write(on_disk.back().name, text.text);
    }
    fs::remove(f.file("p0.yaml")); // gpus.yaml and one large file
    on_disk.erase(on_disk.begin() + 1);
    REQUIRE(on_disk[1].text.size() > 256 * 1024);
    const CatalogLoad one_thread = load_catalog_texts(on_disk, test::fixed_checks());
    REQUIRE(one_thread.diagnostics.error_count() == 2);
    require_same(one_thread, f.load(FileCache{}));
    require_same(one_thread, f.load(f.cache));
    CHECK_FALSE(fs::exists(f.entry("p1.yaml"))); // it has errors: parsed every time
}
