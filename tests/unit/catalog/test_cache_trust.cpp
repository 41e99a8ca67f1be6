// The cache folder as a trust boundary (docs/reliability.md): whoever else can write it must
// not be able to change an answer or make a run write elsewhere; entries are private; the
// folder is kept within its bound; two spellings of a path share an entry.
#include "cache_fixture.hpp"
#include "catalog/cache_folder.hpp"
#include "catalog/catalog_binary.hpp"
#include "catalog/catalog_cache.hpp"
#include "test_helpers.hpp"
#include "util/content_hash.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

using namespace gpuadvisor;
namespace fs = std::filesystem;

using test::CacheFixture;
using test::require_same;
using test::write;

namespace {

unsigned mode_of(const std::string& path) {
    struct stat info {};
    REQUIRE(::lstat(path.c_str(), &info) == 0);
    return info.st_mode & 07777;
}

// Sets a file's modification time `seconds` into the past.
void age(const std::string& path, long seconds) {
    struct timespec times[2];
    times[0].tv_sec = times[1].tv_sec = std::time(nullptr) - seconds;
    times[0].tv_nsec = times[1].tv_nsec = 0;
    REQUIRE(::utimensat(AT_FDCWD, path.c_str(), times, AT_SYMLINK_NOFOLLOW) == 0);
}

std::time_t mtime_of(const std::string& path) {
    struct stat info {};
    REQUIRE(::lstat(path.c_str(), &info) == 0);
    return info.st_mtime;
}

std::vector<std::string> names_in(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) {
        names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

bool has_note(const CatalogLoad& load, const std::string& part) {
    return std::any_of(load.cache_notes.begin(), load.cache_notes.end(), [&](const auto& note) {
        return note.find(part) != std::string::npos;
    });
}

// Every file's load came from the cache, or none did.
bool all_cached(const CatalogLoad& load) {
    return load.files_parsed == 0 && load.files_cached == load.files.size();
}
bool none_cached(const CatalogLoad& load) {
    return load.files_cached == 0 && load.files_parsed == load.files.size();
}

struct Umask {
    mode_t old;
    explicit Umask(mode_t mask) : old(::umask(mask)) {}
    ~Umask() { ::umask(old); }
};

} // namespace

TEST_CASE("an entry's temporary is a new file: a link planted at its name is not followed") {
    CacheFixture f;
    const std::string victim = (f.root / "victim.txt").string();
    write(victim, "the victim's file\n");
    fs::create_directories(f.cache.dir);
    const std::string entry = f.entry("testcloud.yaml");
    const std::string temporary = entry + "." + std::to_string(::getpid()) + ".tmp";
    fs::create_symlink(victim, temporary);
    const CatalogLoad slow = f.load(FileCache{});
    require_same(slow, f.load(f.cache));
    CHECK(test::read_text(victim) == "the victim's file\n");
    CHECK(fs::is_symlink(temporary)); // left as it was
    CHECK_FALSE(fs::exists(entry));   // this entry is not written while its name is taken
    CHECK(fs::exists(f.entry("yuncloud.yaml")));
}

TEST_CASE("the cache folder is made 0700 and entries 0600, whatever the umask") {
    CacheFixture f;
    // Open to all, or closed even to the user's own writes (a 0500 folder, 0400 entries).
    const mode_t mask = GENERATE(mode_t{0}, mode_t{0277});
    {
        const Umask umask(mask);
        f.load(f.cache);
    }
    CHECK(mode_of(f.cache.dir) == 0700);
    const auto names = names_in(f.cache.dir);
    REQUIRE(names.size() >= 2);
    for (const std::string& name : names) {
        INFO(name);
        CHECK(mode_of(f.cache.dir + "/" + name) == 0600);
    }
    SECTION("folders made above it too") {
        FileCache deeper = f.cache;
        deeper.dir = (f.root / "a" / "b" / "cache").string();
        {
            const Umask umask(mask);
            f.load(deeper);
        }
        CHECK(mode_of((f.root / "a").string()) == 0700);
        CHECK(mode_of((f.root / "a" / "b").string()) == 0700);
        CHECK(mode_of(deeper.dir) == 0700);
    }
}

TEST_CASE("a header laid on another entry's body is refused: the checksum covers the header") {
    CacheFixture f;
    const CatalogLoad slow = f.load(FileCache{});
    f.load(f.cache);
    const std::string entry = f.entry("testcloud.yaml");
    const std::string good = test::read_text(entry);
    const std::string other = test::read_text(f.entry("yuncloud.yaml"));
    const std::size_t body = good.find("GPUADVF1");
    const std::size_t other_body = other.find("GPUADVF1");
    REQUIRE((body != std::string::npos && other_body != std::string::npos));
    write(entry, good.substr(0, body) + other.substr(other_body)); // a valid body, and header
    const CatalogLoad cached = f.load(f.cache);
    require_same(slow, cached);
    CHECK(cached.files_parsed == 1);
    CHECK(test::read_text(entry) == good); // rebuilt
}

TEST_CASE("a set entry's header laid on another set's body is refused") {
    CacheFixture f;
    CatalogSources sources;
    sources.include_builtin = false;
    sources.paths = {(f.root / "catalog").string()};
    sources.cache = f.cache;
    CheckOptions later = test::fixed_checks();
    later.max_age_days = 100000; // another option, another set entry
    const auto set_entries = [&] {
        std::vector<std::string> sets;
        for (const std::string& name : names_in(f.cache.dir)) {
            if (name.starts_with("set-")) {
                sets.push_back(f.cache.dir + "/" + name);
            }
        }
        return sets;
    };
    load_catalog(sources, test::fixed_checks());
    const std::string first = set_entries().at(0);
    std::string text = test::read_text(f.file("testcloud.yaml"));
    text.insert(text.find("on_demand: ") + std::string("on_demand: ").size(), "1");
    write(f.file("testcloud.yaml"), text); // another price in the second set
    load_catalog(sources, later);
    const auto sets = set_entries();
    REQUIRE(sets.size() == 2);
    const std::string second = sets[0] == first ? sets[1] : sets[0];
    write(f.file("testcloud.yaml"), test::read_text(test::fixture("catalog/testcloud.yaml")));
    const std::string good = test::read_text(first);
    const std::string forged = test::read_text(second);
    const std::size_t end = good.find("end\n") + 4;
    write(first, good.substr(0, end) + forged.substr(forged.find("end\n") + 4));
    FileCache none;
    CatalogSources slow_sources = sources;
    slow_sources.cache = none;
    require_same(load_catalog(slow_sources, test::fixed_checks()),
                 load_catalog(sources, test::fixed_checks()));
    CHECK(test::read_text(first) == good); // rebuilt
}

TEST_CASE("a cache folder that others may write, or not the user's own, is not used") {
    CacheFixture f;
    const CatalogLoad slow = f.load(FileCache{});
    f.load(f.cache);
    const auto before = names_in(f.cache.dir);
    SECTION("writable by the group") {
        fs::permissions(f.cache.dir, fs::perms::group_write, fs::perm_options::add);
        const CatalogLoad load = f.load(f.cache);
        require_same(slow, load);
        CHECK(none_cached(load));
        CHECK(has_note(load, "writable by group or others (mode 0720)"));
        CHECK(load.cache_notes.size() == 1);
    }
    SECTION("writable by others, sticky or not") {
        fs::permissions(f.cache.dir, fs::perms::all | fs::perms::sticky_bit);
        const CatalogLoad load = f.load(f.cache);
        require_same(slow, load);
        CHECK(none_cached(load));
        CHECK(has_note(load, "writable by group or others (mode 1777)"));
    }
    SECTION("a symbolic link to a folder of the user's own") {
        FileCache linked = f.cache;
        linked.dir = (f.root / "linked").string();
        fs::create_directory_symlink(f.cache.dir, linked.dir);
        const CatalogLoad load = f.load(linked);
        require_same(slow, load);
        CHECK(none_cached(load));
        CHECK(has_note(load, "is a symbolic link"));
    }
    SECTION("owned by another user (as root: given to nobody)") {
        if (::geteuid() != 0) {
            WARN("not root: the folder cannot be given to another user");
            return;
        }
        REQUIRE(::chown(f.cache.dir.c_str(), 65534, 65534) == 0);
        const CatalogLoad load = f.load(f.cache);
        require_same(slow, load);
        CHECK(none_cached(load));
        CHECK(has_note(load, "owned by another user (uid 65534)"));
    }
    CHECK(names_in(f.cache.dir) == before); // nothing written either
}

TEST_CASE("an entry that others may write, or not a regular file, is refused and replaced") {
    CacheFixture f;
    const CatalogLoad slow = f.load(FileCache{});
    f.load(f.cache);
    const std::string entry = f.entry("testcloud.yaml");
    SECTION("writable by others") {
        fs::permissions(entry, fs::perms::others_write, fs::perm_options::add);
        const CatalogLoad load = f.load(f.cache);
        require_same(slow, load);
        CHECK(load.files_parsed == 1);
        CHECK(has_note(load, "writable by group or others (mode 0602)"));
    }
    SECTION("a symbolic link to a good entry") {
        const std::string elsewhere = (f.root / "elsewhere.bin").string();
        fs::rename(entry, elsewhere);
        fs::create_symlink(elsewhere, entry);
        const CatalogLoad load = f.load(f.cache);
        require_same(slow, load);
        CHECK(load.files_parsed == 1);
        CHECK(has_note(load, "not a regular file"));
    }
    SECTION("owned by another user (as root: given to nobody)") {
        if (::geteuid() != 0) {
            WARN("not root: the entry cannot be given to another user");
            return;
        }
        REQUIRE(::chown(entry.c_str(), 65534, 65534) == 0);
        const CatalogLoad load = f.load(f.cache);
        require_same(slow, load);
        CHECK(load.files_parsed == 1);
        CHECK(has_note(load, "owned by another user (uid 65534)"));
    }
    CHECK(mode_of(entry) == 0600); // replaced by a good one
    const CatalogLoad again = f.load(f.cache);
    CHECK(all_cached(again));
    CHECK(again.cache_notes.empty());
}

TEST_CASE("two spellings of a file's path share its entry, each load naming the path as given") {
    CacheFixture f;
    fs::create_directories(f.root / "other");
    const std::string plain = (f.root / "catalog").string();
    const std::string roundabout = (f.root / "other" / ".." / "catalog").string();
    const auto load = [&](const std::string& path, const FileCache& cache) {
        return load_catalog_over(nullptr, {path}, test::fixed_checks(), {}, cache);
    };
    load(plain, f.cache);
    const auto entries = names_in(f.cache.dir);
    const CatalogLoad slow = load(roundabout, FileCache{});
    const CatalogLoad cached = load(roundabout, f.cache);
    CHECK(all_cached(cached));
    CHECK(names_in(f.cache.dir) == entries); // no entry added
    require_same(slow, cached);              // positions name the roundabout path
    REQUIRE_FALSE(cached.catalog.instances().empty());
    CHECK(cached.catalog.instances().front().origin.file.str().starts_with(roundabout));
    require_same(load(plain, FileCache{}), load(plain, f.cache));
}

TEST_CASE("stale temporaries are removed by the next run that writes, live ones kept") {
    CacheFixture f;
    f.load(f.cache);
    const std::string entry = f.entry("testcloud.yaml");
    const std::string stale = entry + ".12345.tmp";
    const std::string live = entry + ".12346.tmp";
    const std::string foreign = f.cache.dir + "/notes.tmp"; // not a name the cache makes
    for (const std::string& path : {stale, live, foreign}) {
        write(path, "half an entry");
    }
    age(stale, 11 * 60);
    age(foreign, 24 * 3600);
    f.load(f.cache);
    CHECK(fs::exists(stale)); // a run that writes nothing lists nothing
    fs::remove(f.entry("yuncloud.yaml"));
    f.load(f.cache); // writes yuncloud's entry again
    CHECK_FALSE(fs::exists(stale));
    CHECK(fs::exists(live));
    CHECK(fs::exists(foreign));
}

TEST_CASE("the folder is kept within its bound, least recently used out") {
    CacheFixture f;
    fs::create_directories(f.cache.dir);
    // Entries of earlier runs: the older, the earlier out.
    const std::vector<std::string> old = {"00000000000000a1.bin",
                                          "00000000000000a2.bin",
                                          "set-00000000000000a3.bin",
                                          "00000000000000a4.bin"};
    for (std::size_t i = 0; i < old.size(); ++i) {
        write(f.cache.dir + "/" + old[i], std::string(1000, 'x'));
        fs::permissions(f.cache.dir + "/" + old[i], fs::perms::owner_read | fs::perms::owner_write);
        age(f.cache.dir + "/" + old[i], static_cast<long>(86400 * (old.size() - i)));
    }
    const std::string other = f.cache.dir + "/keep-me.bin"; // not a name the cache makes
    write(other, "x");
    age(other, 30 * 86400);
    FileCache bounded = f.cache;
    SECTION("by count") {
        bounded.max_entries = 5; // this load writes 3 (a file's entries), so 2 old ones stay
        f.load(bounded);
        const auto names = names_in(f.cache.dir);
        CHECK(names.size() == 6); // 5 and the foreign file
        CHECK_FALSE(fs::exists(f.cache.dir + "/" + old[0]));
        CHECK_FALSE(fs::exists(f.cache.dir + "/" + old[1]));
        CHECK(fs::exists(f.cache.dir + "/" + old[2]));
        CHECK(fs::exists(f.cache.dir + "/" + old[3]));
    }
    SECTION("by size, and a hit makes an entry recent") {
        age(f.cache.dir + "/" + old[0], 86400 * 10);
        FileCache probe = f.cache;
        probe.max_bytes = 1u << 30;
        f.load(probe); // writes the fixture's entries
        std::uintmax_t written = 0;
        for (const char* name : {"gpus.yaml", "testcloud.yaml", "yuncloud.yaml"}) {
            written += fs::file_size(f.entry(name));
            age(f.entry(name), 2 * 3600); // used two hours ago
        }
        f.load(probe); // hits: each entry recent again
        CHECK(std::time(nullptr) - mtime_of(f.entry("gpus.yaml")) < 3600);
        fs::remove(f.entry("yuncloud.yaml")); // so that the next load writes
        bounded.max_bytes = written + 1500;   // room for the fixture's and one old entry
        f.load(bounded);
        CHECK(fs::exists(f.cache.dir + "/" + old[3]));
        for (std::size_t i = 0; i < 3; ++i) {
            CHECK_FALSE(fs::exists(f.cache.dir + "/" + old[i]));
        }
        CHECK(fs::exists(f.entry("gpus.yaml")));
    }
    SECTION("what a load wrote stays even if it alone is over the bound") {
        bounded.max_bytes = 10;
        f.load(bounded);
        CHECK(fs::exists(f.entry("gpus.yaml")));
        CHECK(fs::exists(f.entry("testcloud.yaml")));
        for (const std::string& name : old) {
            CHECK_FALSE(fs::exists(f.cache.dir + "/" + name));
        }
    }
    CHECK(fs::exists(other));
}

TEST_CASE("entries readable by others (left by an older version) are removed") {
    CacheFixture f;
    fs::create_directories(f.cache.dir);
    const std::string readable = f.cache.dir + "/00000000000000b1.bin";
    write(readable, "an old entry");
    fs::permissions(readable,
                    fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                        fs::perms::others_read);
    f.load(f.cache);
    CHECK_FALSE(fs::exists(readable));
}

TEST_CASE("a home folder that does not exist is not created: no cache, and a note") {
    CacheFixture f;
    const fs::path home = f.root / "no-such-home";
    FileCache at_home = f.cache;
    at_home.dir = (home / ".cache" / "gpuadvisor").string();
    at_home.must_exist = home.string();
    const CatalogLoad load = f.load(at_home);
    require_same(f.load(FileCache{}), load);
    CHECK_FALSE(fs::exists(home));
    REQUIRE(load.cache_notes.size() == 1);
    CHECK(has_note(load, "the home folder " + home.string() + " does not exist"));
    SECTION("no note when the cache would not have been used") {
        at_home.min_bytes = 1u << 30;
        CHECK(f.load(at_home).cache_notes.empty());
    }
    SECTION("a home folder that exists: .cache and the cache folder made in it") {
        fs::create_directories(home);
        const CatalogLoad made = f.load(at_home);
        CHECK(made.cache_notes.empty());
        CHECK(mode_of(at_home.dir) == 0700);
    }
}

TEST_CASE("the built-in base is named by a hash of the data compiled in") {
    const std::string_view key = builtin_data_key();
    CHECK(key.starts_with("builtin "));
    CHECK(key.size() == 8 + 16);
    CacheFixture f;
    const CheckOptions today; // the built-in data's dates are checked against today's
    CatalogSources sources;
    sources.paths = {(f.root / "catalog").string()};
    sources.cache = f.cache;
    CatalogSources slow_sources = sources;
    slow_sources.cache = FileCache{};
    // A rebuilt binary whose data differ (here: no provider at all): the set entries it
    // would have written under its own data's name, and under the old literal name.
    const Catalog fewer(builtin_catalog().gpus(), {}, {}, {});
    for (const std::string_view base :
         {std::string_view("builtin"), std::string_view("builtin 0123456789abcdef")}) {
        const CatalogLoad old = load_through_cache(&fewer, base, sources.paths, today, {}, f.cache);
        REQUIRE(old.diagnostics.items().empty()); // so its set entry is written
    }
    const auto sets = names_in(f.cache.dir);
    REQUIRE(std::count_if(sets.begin(), sets.end(), [](const std::string& name) {
                return name.starts_with("set-");
            }) == 2);
    const CatalogLoad slow = load_catalog(slow_sources, today);
    REQUIRE(slow.diagnostics.items().empty());
    const CatalogLoad cached = load_catalog(sources, today);
    require_same(slow, cached);
    CHECK(cached.files_cached == cached.files.size() - 1); // each file's entry, not a set's
    // The entry this binary writes names its data.
    bool named = false;
    for (const std::string& name : names_in(f.cache.dir)) {
        const std::string text = test::read_text(f.cache.dir + "/" + name);
        named = named || (name.starts_with("set-") && text.find(key) != std::string::npos);
    }
    CHECK(named);
}

TEST_CASE("names the cache makes, and only those, are its own") {
    CHECK(is_cache_entry_name("0123456789abcdef.bin"));
    CHECK(is_cache_entry_name("set-0123456789abcdef.bin"));
    CHECK_FALSE(is_cache_entry_name("0123456789ABCDEF.bin"));
    CHECK_FALSE(is_cache_entry_name("0123456789abcde.bin"));
    CHECK_FALSE(is_cache_entry_name("notes.bin"));
    CHECK(is_cache_temporary_name("0123456789abcdef.bin.42.tmp"));
    CHECK(is_cache_temporary_name("set-0123456789abcdef.bin.42.tmp"));
    CHECK_FALSE(is_cache_temporary_name("0123456789abcdef.bin..tmp"));
    CHECK_FALSE(is_cache_temporary_name("notes.tmp"));
    CHECK_FALSE(is_cache_temporary_name("0123456789abcdef.bin.4x.tmp"));
}
