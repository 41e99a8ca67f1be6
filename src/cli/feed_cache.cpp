// cached_download (price_feeds.hpp): a feed's file in the cache folder, with a .meta.json beside
// it naming the URL, the size and the validators; written only once the file is complete.
#include "output.hpp"
#include "price_feeds.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>
#include <sys/file.h>
#include <system_error>
#include <unistd.h>

namespace gpuadvisor::cli {

namespace {

namespace fs = std::filesystem;

struct Meta {
    std::string url;
    std::uint64_t bytes = 0;
    HttpValidators validators;
};

std::optional<Meta> read_meta(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    const nlohmann::json json = nlohmann::json::parse(text.str(), nullptr, false);
    if (!json.is_object() || !json.contains("url") || !json["url"].is_string() ||
        !json.contains("bytes") || !json["bytes"].is_number_unsigned()) {
        return std::nullopt; // not ours, or cut off: the file is fetched again
    }
    Meta meta;
    meta.url = json["url"].get<std::string>();
    meta.bytes = json["bytes"].get<std::uint64_t>();
    meta.validators.etag = json.value("etag", "");
    meta.validators.last_modified = json.value("last_modified", "");
    return meta;
}

bool write_meta(const std::string& path, const Meta& meta) {
    nlohmann::ordered_json json;
    json["url"] = meta.url;
    json["bytes"] = meta.bytes;
    json["etag"] = meta.validators.etag;
    json["last_modified"] = meta.validators.last_modified;
    const std::string part = path + ".part";
    if (!write_text_file(part, json.dump(2) + "\n")) {
        return false;
    }
    std::error_code failed;
    fs::rename(part, path, failed);
    return !failed;
}

// The cached copy, when it is complete and of this URL.
std::optional<Meta> complete_copy(const std::string& url, const std::string& path) {
    std::optional<Meta> meta = read_meta(path + ".meta.json");
    std::error_code failed;
    const std::uintmax_t size = fs::file_size(path, failed);
    if (!meta || failed || meta->url != url || size != meta->bytes) {
        return std::nullopt;
    }
    return meta;
}

// Whether the copy was fetched (or found not modified) less than `max_age` ago.
bool younger(const std::string& meta_path, std::chrono::hours max_age) {
    std::error_code failed;
    const fs::file_time_type written = fs::last_write_time(meta_path, failed);
    return !failed && fs::file_time_type::clock::now() - written < max_age;
}

void note(const FetchSettings& settings, const std::string& text) {
    if (settings.notes != nullptr) {
        *settings.notes << "gpuadvisor: " << text << '\n' << std::flush;
    }
}

} // namespace

FolderLock::FolderLock(const std::string& dir, std::ostream* notes) {
    std::error_code failed;
    fs::create_directories(dir, failed);
    const std::string path = (fs::path(dir) / ".lock").string();
    m_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (m_fd < 0) {
        m_error = fmt::format(
            "cannot open {}: {}", path, std::error_code(errno, std::generic_category()).message());
        return;
    }
    if (::flock(m_fd, LOCK_EX | LOCK_NB) == 0) {
        return;
    }
    if (notes != nullptr) {
        *notes << "gpuadvisor: waiting for another catalog fetch using " << dir << '\n'
               << std::flush;
    }
    while (::flock(m_fd, LOCK_EX) != 0) {
        if (errno != EINTR) {
            m_error = fmt::format("cannot lock {}: {}",
                                  path,
                                  std::error_code(errno, std::generic_category()).message());
            return;
        }
    }
}

FolderLock::~FolderLock() {
    if (m_fd >= 0) {
        ::close(m_fd); // and the lock with it
    }
}

Download
cached_download(const std::string& url, const std::string& name, const FetchSettings& settings) {
    Download download;
    download.path = (fs::path(settings.cache_dir) / name).string();
    const std::optional<Meta> cached = complete_copy(url, download.path);
    if (cached && !settings.refresh && younger(download.path + ".meta.json", settings.max_age)) {
        download.ok = download.from_cache = true;
        note(settings, fmt::format("cached {}", download.path));
        return download;
    }
    std::error_code failed;
    fs::create_directories(fs::path(download.path).parent_path(), failed);
    if (failed) {
        download.error = fmt::format("cannot make the folder {}: {}",
                                     fs::path(download.path).parent_path().string(),
                                     failed.message());
        download.hint = "name a writable folder with --cache-dir DIR";
        return download;
    }
    const HttpValidators validators = cached ? cached->validators : HttpValidators{};
    const HttpResult got =
        http_get_file(url, download.path, validators, settings.http, fs::path(name).string());
    if (!got.ok) {
        download.error = got.error;
        download.hint = got.hint;
        return download;
    }
    if (got.not_modified && !cached) {
        download.error = "the server answered 304 Not Modified to a request that had no validators";
        download.hint = "check --endpoint";
        return download;
    }
    if (got.not_modified) {
        write_meta(download.path + ".meta.json", *cached); // its age starts again
        download.ok = download.from_cache = true;
        note(settings, fmt::format("not modified, kept {}", download.path));
        return download;
    }
    if (!write_meta(download.path + ".meta.json", {url, got.bytes, got.validators})) {
        download.error = fmt::format("cannot write {}.meta.json", download.path);
        download.hint = "name a writable folder with --cache-dir DIR";
        return download;
    }
    download.ok = true;
    note(settings,
         fmt::format("fetched {} ({} bytes{})",
                     download.path,
                     got.bytes,
                     got.attempts > 1 ? fmt::format(", {} tries", got.attempts) : ""));
    return download;
}

} // namespace gpuadvisor::cli
