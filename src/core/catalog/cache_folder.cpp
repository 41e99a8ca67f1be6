#include "catalog/cache_folder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <tuple>
#include <unistd.h>

namespace gpuadvisor {

namespace {

// A temporary this old is left from a run that was killed while writing: an entry is written
// in well under a second even at a million offers, so no live writer is that slow.
constexpr std::time_t k_stale_temporary_seconds = 10 * 60;
// A hit makes an entry recent again (for the bound, least recently used out) at most this often,
// so a warm run does not write the entry's times every time.
constexpr std::time_t k_refresh_seconds = 60 * 60;

struct Descriptor {
    int fd = -1;
    explicit Descriptor(int descriptor) : fd(descriptor) {}
    ~Descriptor() {
        if (fd >= 0) {
            ::close(fd);
        }
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
};

std::string mode_text(const struct stat& info) {
    return fmt::format("{:04o}", info.st_mode & 07777);
}

// Why a file or folder in the cache is not to be trusted, or nothing: it must be the user's
// own and writable by no one else, as ssh requires of its keys.
std::optional<std::string> untrusted(const struct stat& info) {
    if (info.st_uid != ::geteuid()) {
        return fmt::format("owned by another user (uid {})", info.st_uid);
    }
    if ((info.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
        return fmt::format("writable by group or others (mode {})", mode_text(info));
    }
    return std::nullopt;
}

bool is_folder(const std::string& path) {
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

// Creates the folder and any missing folder above it, each 0700 whatever the umask; folders
// that exist are left as they are. The mode is set on the folder opened without following a
// link (fchmod), not by name: someone who may write the folder above could put a link in place
// of the new folder between the two calls, and chmod would follow it.
void make_folders(const std::filesystem::path& dir) {
    std::filesystem::path path;
    for (const auto& part : dir) {
        path /= part;
        if (::mkdir(path.c_str(), S_IRWXU) == 0) {
            const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (fd >= 0) {
                ::fchmod(fd, S_IRWXU);
                ::close(fd);
            }
        }
    }
}

// The folder, opened and checked; -1 with a note when it is refused, -1 alone when it cannot
// be made or opened at all (no cache, silently, as when it cannot be written).
int open_folder(const FileCache& settings, std::string& note) {
    if (!settings.must_exist.empty() && !is_folder(settings.must_exist)) {
        note = fmt::format("no cache of large catalog files: the home folder {} does not exist "
                           "(GPUADVISOR_CACHE_DIR or XDG_CACHE_HOME can name another place)",
                           settings.must_exist);
        return -1;
    }
    constexpr int k_flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
    int fd = ::open(settings.dir.c_str(), k_flags);
    if (fd < 0 && errno == ENOENT) { // made on first use
        make_folders(settings.dir);
        fd = ::open(settings.dir.c_str(), k_flags);
    }
    struct stat info {};
    if (fd < 0) {
        if (::lstat(settings.dir.c_str(), &info) == 0 && S_ISLNK(info.st_mode)) {
            note = fmt::format("cache folder {} not used: it is a symbolic link", settings.dir);
        }
        return -1;
    }
    const auto why = ::fstat(fd, &info) == 0 ? untrusted(info) : std::optional<std::string>("");
    if (why) {
        ::close(fd);
        if (!why->empty()) {
            note = fmt::format("cache folder {} not used: {}", settings.dir, *why);
        }
        return -1;
    }
    return fd;
}

// Reads the whole file (at most `size` bytes, the size fstat gave): nullopt if it is shorter or
// longer now (being replaced) or cannot be read.
std::optional<std::string> read_whole(int fd, std::size_t size) {
    std::string bytes(size + 1, '\0');
    std::size_t got = 0;
    while (got < bytes.size()) {
        const ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        got += static_cast<std::size_t>(n);
    }
    if (got != size) {
        return std::nullopt;
    }
    bytes.resize(got);
    return bytes;
}

bool write_whole(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return false;
        }
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

bool is_hex16(std::string_view text) {
    return text.size() == 16 && std::all_of(text.begin(), text.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

bool is_digits(std::string_view text) {
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A file in the folder, as the bound sees it.
struct Entry {
    std::string name;
    std::time_t used = 0; // its modification time: written, or last refreshed by a hit
    std::uintmax_t bytes = 0;
};

} // namespace

bool is_cache_entry_name(std::string_view name) {
    if (!name.ends_with(".bin")) {
        return false;
    }
    name.remove_suffix(4);
    if (name.starts_with("set-")) {
        name.remove_prefix(4);
    }
    return is_hex16(name);
}

bool is_cache_temporary_name(std::string_view name) {
    if (!name.ends_with(".tmp")) {
        return false;
    }
    name.remove_suffix(4);
    const std::size_t dot = name.rfind('.');
    return dot != std::string_view::npos && is_digits(name.substr(dot + 1)) &&
           is_cache_entry_name(name.substr(0, dot));
}

CacheFolder::CacheFolder(const FileCache& settings) : m_settings(settings) {}

CacheFolder::~CacheFolder() {
    if (m_folder >= 0) {
        ::close(m_folder);
    }
}

bool CacheFolder::wanted(std::uint64_t bytes) const {
    return !m_settings.dir.empty() && bytes >= m_settings.min_bytes;
}

int CacheFolder::folder() {
    std::lock_guard lock(m_mutex);
    if (!m_opened) {
        m_opened = true;
        m_folder = open_folder(m_settings, m_folder_note);
    }
    return m_folder;
}

void CacheFolder::refuse_entry(const std::string& name, const std::string& why) {
    std::lock_guard lock(m_mutex);
    if (m_refused++ == 0) {
        m_first_refused = fmt::format("cache entry {} not used: {}",
                                      (std::filesystem::path(m_settings.dir) / name).string(),
                                      why);
    }
}

std::optional<std::string> CacheFolder::read(const std::string& name, std::uint64_t max_bytes) {
    const int dir = folder();
    struct stat info {};
    // Looked at before it is opened: a FIFO or a device is never opened at all.
    if (dir < 0 || ::fstatat(dir, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
        return std::nullopt; // no cache, or no entry
    }
    if (!S_ISREG(info.st_mode)) {
        refuse_entry(name, "not a regular file");
        return std::nullopt;
    }
    // Without following a link or blocking, and checked again once open (it may have been
    // replaced in between).
    const Descriptor file(
        ::openat(dir, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    if (file.fd < 0 || ::fstat(file.fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        return std::nullopt;
    }
    if (const auto why = untrusted(info)) {
        refuse_entry(name, *why);
        return std::nullopt;
    }
    if (info.st_size < 0 || static_cast<std::uint64_t>(info.st_size) > max_bytes) {
        return std::nullopt;
    }
    auto bytes = read_whole(file.fd, static_cast<std::size_t>(info.st_size));
    if (bytes && std::time(nullptr) - info.st_mtime > k_refresh_seconds) {
        ::futimens(file.fd, nullptr); // recently used: last out of the bound
    }
    return bytes;
}

void CacheFolder::write(const std::string& name, std::initializer_list<std::string_view> pieces) {
    const int dir = folder();
    if (dir < 0) {
        return;
    }
    // A new file of our own, private: O_EXCL fails on anything already there, a planted
    // symbolic link included, and O_NOFOLLOW says so twice.
    const std::string temporary = fmt::format("{}.{}.tmp", name, ::getpid());
    const int fd = ::openat(dir,
                            temporary.c_str(),
                            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                            S_IRUSR | S_IWUSR);
    if (fd < 0) {
        return; // taken: this entry is not written this time
    }
    bool written = ::fchmod(fd, S_IRUSR | S_IWUSR) == 0; // 0600 whatever the umask
    for (const std::string_view piece : pieces) {
        written = written && write_whole(fd, piece);
    }
    written = ::close(fd) == 0 && written;
    if (!written || ::renameat(dir, temporary.c_str(), dir, name.c_str()) != 0) {
        ::unlinkat(dir, temporary.c_str(), 0);
        return;
    }
    std::lock_guard lock(m_mutex);
    m_written.push_back(name);
}

std::vector<std::string> CacheFolder::finish() {
    if (m_folder >= 0 && !m_written.empty()) {
        tidy();
    }
    std::vector<std::string> notes;
    if (!m_folder_note.empty()) {
        notes.push_back(m_folder_note);
    }
    if (m_refused > 0) {
        notes.push_back(m_refused == 1
                            ? m_first_refused
                            : fmt::format("{} (and {} more)", m_first_refused, m_refused - 1));
    }
    return notes;
}

namespace {

// Stale temporaries out, entries readable by others (left by older versions) out; the entries
// left, as the bound sees them. Only names the cache itself makes are ever removed, and only
// files of the user's own.
std::vector<Entry> sweep(int folder) {
    const int fd = ::dup(folder);
    DIR* listing = fd < 0 ? nullptr : ::fdopendir(fd);
    if (listing == nullptr) {
        if (fd >= 0) {
            ::close(fd);
        }
        return {};
    }
    const std::time_t now = std::time(nullptr);
    std::vector<Entry> entries;
    while (const dirent* item = ::readdir(listing)) {
        const std::string name = item->d_name;
        struct stat info {};
        const bool entry = is_cache_entry_name(name);
        if ((!entry && !is_cache_temporary_name(name)) ||
            ::fstatat(folder, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(info.st_mode) || info.st_uid != ::geteuid()) {
            continue;
        }
        if (entry ? (info.st_mode & (S_IRWXG | S_IRWXO)) != 0
                  : now - info.st_mtime > k_stale_temporary_seconds) {
            ::unlinkat(folder, name.c_str(), 0);
        } else if (entry) {
            entries.push_back({name, info.st_mtime, static_cast<std::uintmax_t>(info.st_size)});
        }
    }
    ::closedir(listing);
    return entries;
}

} // namespace

// The least recently used entries out until the rest are within the bound; what this load
// wrote stays.
void CacheFolder::tidy() {
    std::vector<Entry> entries = sweep(m_folder);
    const auto written = [this](const Entry& e) {
        return std::find(m_written.begin(), m_written.end(), e.name) != m_written.end();
    };
    // What this load wrote first, then the most recently used; ties by name.
    std::sort(entries.begin(), entries.end(), [&](const Entry& a, const Entry& b) {
        return std::tuple(!written(a), -a.used, a.name) < std::tuple(!written(b), -b.used, b.name);
    });
    std::uintmax_t bytes = 0;
    std::size_t kept = 0;
    bool full = false; // once one entry is out, every less recently used one is too
    for (const Entry& e : entries) {
        full = full || kept >= m_settings.max_entries || bytes + e.bytes > m_settings.max_bytes;
        if (full && !written(e)) {
            ::unlinkat(m_folder, e.name.c_str(), 0);
            continue;
        }
        bytes += e.bytes;
        ++kept;
    }
}

} // namespace gpuadvisor
