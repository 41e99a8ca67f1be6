#include "catalog/catalog_file_loads.hpp"

#include "util/helper_thread.hpp"
#include "yaml/yaml_reader.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>

namespace gpuadvisor {

bool no_diagnostics(const Diagnostics& diagnostics) {
    return diagnostics.items().empty() && diagnostics.dropped() == 0;
}

std::size_t threads_for(std::size_t files, std::uintmax_t bytes) {
    constexpr std::uintmax_t k_bytes_for_threads = 256 * 1024;
    return bytes < k_bytes_for_threads ? 1 : threads_for_shares(files);
}

namespace {

// A parsed file whose instance types are being decoded in runs, on any thread.
struct ParsedFile {
    FileStamp stamp;
    YamlDocument document;
    std::optional<CatalogDecode> decode; // holds a reference to `document`
    std::vector<std::vector<InstanceInput>> runs;
    std::vector<Diagnostics> run_diagnostics;
    std::vector<std::exception_ptr> run_errors;
    std::size_t runs_left = 0; // guarded by the loader's mutex
};

// The files' loads as a queue of tasks for several threads: a thread takes the next run to
// decode if there is one, else the next file to read from the cache or parse (which queues
// the file's runs), else waits while another thread still parses (its runs are to come). The
// thread that decodes a file's last run finishes the file.
class FileLoader {
  public:
    FileLoader(const std::vector<std::string>& files,
               std::vector<std::optional<std::string>>& texts,
               const std::vector<FileStamp>& stamps,
               const LoadLimits& limits,
               CacheFolder& cache,
               bool in_runs)
        : m_files(files), m_texts(texts), m_stamps(stamps), m_limits(limits), m_cache(cache),
          m_in_runs(in_runs), m_loads(files.size()), m_parsed(files.size()) {}

    // One thread's share: tasks until none is left or to come.
    void work();
    std::vector<FileLoad> take() { return std::move(m_loads); }

  private:
    struct Run {
        std::size_t file = 0;
        std::size_t index = 0;
    };

    FileStamp stamp_at(std::size_t i) const {
        return m_stamps.empty() ? FileStamp{m_files[i]} : m_stamps[i];
    }
    void load(std::size_t i);
    void parse(std::size_t i);
    void decode(Run run);
    void finish(std::size_t i);

    const std::vector<std::string>& m_files;
    std::vector<std::optional<std::string>>& m_texts;
    const std::vector<FileStamp>& m_stamps;
    const LoadLimits& m_limits;
    CacheFolder& m_cache;
    const bool m_in_runs; // else each file is decoded whole by the thread that parsed it
    std::vector<FileLoad> m_loads;
    std::vector<std::unique_ptr<ParsedFile>> m_parsed; // each file's, while being decoded

    std::mutex m_mutex; // guards what follows and each ParsedFile's runs_left
    std::condition_variable m_changed;
    std::size_t m_next_file = 0;
    std::size_t m_parsing = 0;
    std::deque<Run> m_runs;
};

void FileLoader::work() {
    for (;;) {
        std::optional<Run> run;
        std::size_t file = 0;
        {
            std::unique_lock lock(m_mutex);
            m_changed.wait(lock, [this] {
                while (m_next_file < m_files.size() && !m_texts[m_next_file]) {
                    ++m_next_file; // not read: nothing to load
                }
                return !m_runs.empty() || m_next_file < m_files.size() || m_parsing == 0;
            });
            if (!m_runs.empty()) {
                run = m_runs.front();
                m_runs.pop_front();
            } else if (m_next_file < m_files.size()) {
                file = m_next_file++;
                ++m_parsing;
            } else {
                return;
            }
        }
        if (run) {
            decode(*run);
        } else {
            load(file);
        }
    }
}

// From the cache, or parsed and its runs queued; the waiting threads told either way.
void FileLoader::load(std::size_t i) {
    try {
        if (auto cached = cached_fragment(m_cache, stamp_at(i), m_limits)) {
            m_loads[i].fragment.push_back(std::move(*cached));
        } else {
            parse(i);
        }
    } catch (...) {
        m_loads[i].error = std::current_exception();
        m_parsed[i].reset();
    }
    m_texts[i].reset(); // on a cache hit or an error; a parse drops it as soon as it has parsed
    const ParsedFile* parsed = m_parsed[i].get();
    {
        std::lock_guard lock(m_mutex);
        for (std::size_t r = 0; parsed != nullptr && r < parsed->runs.size(); ++r) {
            m_runs.push_back({i, r});
        }
        --m_parsing;
    }
    m_changed.notify_all();
}

void FileLoader::parse(std::size_t i) {
    FileLoad& load = m_loads[i];
    load.parsed = true;
    auto parsed = std::make_unique<ParsedFile>();
    parsed->stamp = stamp_at(i);
    parsed->document = parse_yaml(parsed->stamp.path, *m_texts[i], m_limits, load.diagnostics);
    m_texts[i].reset(); // the tree holds copies
    const CatalogDecode& decode = parsed->decode.emplace(parsed->document, load.diagnostics);
    const std::size_t count = decode.instance_count();
    m_parsed[i] = std::move(parsed);
    if (!m_in_runs || count <= k_instances_per_run) {
        m_parsed[i]->runs.push_back(decode.instances(0, count, load.diagnostics));
        finish(i); // in one piece, here
        return;
    }
    ParsedFile& file = *m_parsed[i];
    const std::size_t runs = (count + k_instances_per_run - 1) / k_instances_per_run;
    file.runs.resize(runs);
    file.run_diagnostics.resize(runs);
    file.run_errors.resize(runs);
    file.runs_left = runs; // queued by load(), once this returns
}

void FileLoader::decode(Run run) {
    ParsedFile& file = *m_parsed[run.file];
    const std::size_t first = run.index * k_instances_per_run;
    const std::size_t last = std::min(first + k_instances_per_run, file.decode->instance_count());
    try {
        file.runs[run.index] = file.decode->instances(first, last, file.run_diagnostics[run.index]);
    } catch (...) {
        file.run_errors[run.index] = std::current_exception();
    }
    bool last_run = false;
    {
        std::lock_guard lock(m_mutex);
        last_run = --file.runs_left == 0;
    }
    if (last_run) {
        try {
            finish(run.file);
        } catch (...) {
            m_loads[run.file].error = std::current_exception();
            m_parsed[run.file].reset();
        }
    }
}

// The fragment from the runs, kept in the cache if clean; the tree dropped.
void FileLoader::finish(std::size_t i) {
    FileLoad& load = m_loads[i];
    const std::unique_ptr<ParsedFile> file = std::move(m_parsed[i]);
    for (const std::exception_ptr& error : file->run_errors) {
        if (error) {
            load.error = error;
            return;
        }
    }
    for (const Diagnostics& diagnostics : file->run_diagnostics) {
        load.diagnostics.append(diagnostics);
    }
    load.fragment.push_back(file->decode->finish(std::move(file->runs), load.diagnostics));
    if (no_diagnostics(load.diagnostics)) {
        store_fragment(m_cache, file->stamp, m_limits, load.fragment.front());
    }
}

} // namespace

std::vector<FileLoad> load_files(const std::vector<std::string>& files,
                                 std::vector<std::optional<std::string>>& texts,
                                 const std::vector<FileStamp>& stamps,
                                 const LoadLimits& limits,
                                 CacheFolder& cache) {
    std::size_t bytes = 0;
    std::size_t to_load = 0;
    for (const auto& text : texts) {
        bytes += text ? text->size() : 0;
        to_load += text ? 1U : 0U;
    }
    // Several threads even for one file: its runs are shared.
    const std::size_t threads = threads_for(std::max<std::size_t>(to_load, 2), bytes);
    FileLoader loader(files, texts, stamps, limits, cache, threads > 1);
    // The loader is its own queue: a share is one thread's turn at it, until nothing is left.
    parallel_for(threads, threads, [&loader](std::size_t, std::size_t) { loader.work(); });
    return loader.take();
}

} // namespace gpuadvisor
