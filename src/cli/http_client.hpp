// An HTTP(S) GET into a file with libcurl, for `catalog fetch`: redirects (a bounded number),
// timeouts, retries with exponential backoff, never a partial file (the body goes to PATH.part,
// renamed to PATH once complete), and a progress bar for a terminal.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace gpuadvisor::cli {

struct HttpOptions {
    long timeout_seconds = 900;              // a request's limit, first byte sent to last received
    long connect_timeout_seconds = 30;       // (at most timeout_seconds)
    int retries = 3;                         // tries after the first, on what may pass (below)
    std::chrono::milliseconds backoff{1000}; // the first wait; doubled at each retry, up to 60 s
    long max_redirects = 5;
    std::uint64_t max_bytes = std::uint64_t{4} << 30U; // a body larger than this is refused
    std::ostream* progress = nullptr; // where the bar is drawn (a terminal's stderr), or none
};

// A cached copy's validators, sent as If-None-Match / If-Modified-Since; a response's own.
struct HttpValidators {
    std::string etag;
    std::string last_modified;
};

struct HttpResult {
    bool ok = false;
    bool not_modified = false; // 304: the cached copy stands (the file is left as it was)
    long status = 0;           // the last response's HTTP status, 0 when none came
    std::string error;         // what failed, for a person ("HTTP 404", "timed out after 5 s")
    std::string hint;
    HttpValidators validators; // the response's
    int attempts = 0;
    std::uint64_t bytes = 0; // the body's size
};

// GET `url` into `path`. Retried (after the backoff, or the server's Retry-After when longer,
// at most 60 s): HTTP 5xx and 429, timeouts, connection errors, a body cut
// short (curl error 18, a Content-Length not met). Not retried: other HTTP errors, a redirect
// loop (more than max_redirects), a body over max_bytes, a URL that is not http(s).
HttpResult http_get_file(const std::string& url,
                         const std::string& path,
                         const HttpValidators& cached,
                         const HttpOptions& options,
                         const std::string& label);

// "[#####.....]  41%  12.3 / 30.0 MiB  us-east-1": the progress line (total 0: unknown).
std::string progress_line(const std::string& label, std::uint64_t now, std::uint64_t total);

} // namespace gpuadvisor::cli
