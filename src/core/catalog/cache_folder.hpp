// The cache folder as a trust boundary (docs/reliability.md, "The cache folder"). Whoever can
// write the folder can change gpuadvisor's answers, so it is used only if it is a real folder
// (not a symbolic link) owned by the user and writable by no one else; an entry is read only
// if it is a regular file of the user's that no one else may write, opened without following
// a link or waiting on a FIFO; an entry is written to a fresh private temporary (never
// through a link) and renamed into place. The folder is made 0700 and entries 0600, whatever
// the umask. After a run that wrote an entry, stale temporaries are removed and the folder is
// kept within its bound, least recently used out. Whatever is refused is said in a note for
// the caller (the core never prints); the load goes on without it.
#pragma once

#include "gpuadvisor/catalog_io.hpp"

#include <cstdint>
#include <initializer_list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor {

// One load's use of the cache folder: opened (and created) when first needed. Safe to use
// from several threads at once.
class CacheFolder {
  public:
    explicit CacheFolder(const FileCache& settings);
    ~CacheFolder();
    CacheFolder(const CacheFolder&) = delete;
    CacheFolder& operator=(const CacheFolder&) = delete;

    const FileCache& settings() const { return m_settings; }
    // True when a load of `bytes` in all would use the cache (a folder named, enough to save).
    bool wanted(std::uint64_t bytes) const;

    // The entry's bytes if it exists, is trusted and holds at most max_bytes; else nullopt
    // (an untrusted entry adds a note).
    std::optional<std::string> read(const std::string& name, std::uint64_t max_bytes);
    // Writes the entry, its pieces one after the other, whole or not at all; failing is silent
    // (the cache only saves time).
    void write(const std::string& name, std::initializer_list<std::string_view> pieces);

    // Ends the load's use of the folder: if it wrote an entry, removes stale temporaries and
    // keeps the folder within its bound (never removing what this load wrote). Returns what was
    // refused, as notes for the user: one for the folder, one for all the entries refused.
    std::vector<std::string> finish();

  private:
    int folder(); // the open folder, -1 if none
    void refuse_entry(const std::string& name, const std::string& why);
    void tidy();

    FileCache m_settings;
    std::mutex m_mutex; // guards what follows
    bool m_opened = false;
    int m_folder = -1;
    std::string m_folder_note;
    std::string m_first_refused; // the note for the first entry refused
    std::size_t m_refused = 0;
    std::vector<std::string> m_written;
};

// Whether a name in the cache folder is an entry ("0123456789abcdef.bin", "set-....bin") or
// an entry's temporary ("<entry>.<pid>.tmp"): the only files the cache ever removes.
bool is_cache_entry_name(std::string_view name);
bool is_cache_temporary_name(std::string_view name);

} // namespace gpuadvisor
