// libcurl's easy interface behind http_get_file (http_client.hpp).
#include "http_client.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <curl/curl.h>
#include <filesystem>
#include <memory>
#include <ostream>
#include <string_view>
#include <system_error>
#include <thread>

namespace gpuadvisor::cli {

namespace {

using Clock = std::chrono::steady_clock;

struct Transfer {
    std::FILE* file = nullptr;
    std::uint64_t written = 0;
    bool write_failed = false;
    HttpValidators validators;
    std::ostream* progress = nullptr;
    const std::string* label = nullptr;
    Clock::time_point last_drawn{};
    bool drawn = false;
};

std::size_t write_body(char* data, std::size_t size, std::size_t count, void* user) {
    auto* transfer = static_cast<Transfer*>(user);
    const std::size_t bytes = size * count;
    if (std::fwrite(data, 1, bytes, transfer->file) != bytes) {
        transfer->write_failed = true;
        return 0; // curl stops with CURLE_WRITE_ERROR
    }
    transfer->written += bytes;
    return bytes;
}

bool starts_with_nocase(std::string_view text, std::string_view prefix) {
    return text.size() >= prefix.size() &&
           std::equal(prefix.begin(), prefix.end(), text.begin(), [](char a, char b) {
               return (a | 0x20) == (b | 0x20); // ASCII letters, ':' and '-' match themselves
           });
}

std::string header_value(std::string_view line, std::size_t name_size) {
    std::string_view value = line.substr(name_size);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) {
        value.remove_prefix(1);
    }
    while (!value.empty() &&
           (value.back() == '\r' || value.back() == '\n' || value.back() == ' ')) {
        value.remove_suffix(1);
    }
    return std::string(value);
}

// Each response's headers (a redirect's too): its validators, the last response's kept.
std::size_t read_header(char* data, std::size_t size, std::size_t count, void* user) {
    auto* transfer = static_cast<Transfer*>(user);
    const std::string_view line(data, size * count);
    if (line.starts_with("HTTP/")) {
        transfer->validators = {};
    } else if (starts_with_nocase(line, "etag:")) {
        transfer->validators.etag = header_value(line, 5);
    } else if (starts_with_nocase(line, "last-modified:")) {
        transfer->validators.last_modified = header_value(line, 14);
    }
    return size * count;
}

int draw_progress(void* user, curl_off_t total, curl_off_t now, curl_off_t, curl_off_t) {
    auto* transfer = static_cast<Transfer*>(user);
    const Clock::time_point at = Clock::now();
    if (now <= 0 || at - transfer->last_drawn < std::chrono::milliseconds(200)) {
        return 0;
    }
    transfer->last_drawn = at;
    transfer->drawn = true;
    *transfer->progress << '\r'
                        << progress_line(*transfer->label,
                                         static_cast<std::uint64_t>(now),
                                         static_cast<std::uint64_t>(std::max<curl_off_t>(0, total)))
                        << std::flush;
    return 0;
}

struct CurlDeleter {
    void operator()(CURL* curl) const { curl_easy_cleanup(curl); }
};
struct SlistDeleter {
    void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};

bool curl_ready() {
    static const bool ready = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
    return ready;
}

struct Attempt {
    CURLcode code = CURLE_OK;
    long status = 0;
    std::string message; // curl's error buffer
    bool write_failed = false;
    std::uint64_t bytes = 0;
    HttpValidators validators;
    std::chrono::milliseconds retry_after{0};
};

Attempt attempt(const std::string& url,
                std::FILE* file,
                const HttpValidators& cached,
                const HttpOptions& options,
                const std::string& label) {
    Attempt result;
    const std::unique_ptr<CURL, CurlDeleter> curl(curl_easy_init());
    if (!curl) {
        result.code = CURLE_FAILED_INIT;
        return result;
    }
    CURL* handle = curl.get();
    char error[CURL_ERROR_SIZE] = {};
    Transfer transfer;
    transfer.file = file;
    transfer.progress = options.progress;
    transfer.label = &label;
    curl_slist* raw_headers = nullptr;
    if (!cached.etag.empty()) {
        raw_headers = curl_slist_append(raw_headers, ("If-None-Match: " + cached.etag).c_str());
    }
    if (!cached.last_modified.empty()) {
        raw_headers =
            curl_slist_append(raw_headers, ("If-Modified-Since: " + cached.last_modified).c_str());
    }
    const std::unique_ptr<curl_slist, SlistDeleter> headers(raw_headers);
    const std::string agent = fmt::format("gpuadvisor/{} (catalog fetch)", GPUADVISOR_VERSION);
    curl_easy_setopt(handle, CURLOPT_URL, url.c_str());
    curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(handle, CURLOPT_MAXREDIRS, options.max_redirects);
    curl_easy_setopt(handle, CURLOPT_TIMEOUT, options.timeout_seconds);
    curl_easy_setopt(handle,
                     CURLOPT_CONNECTTIMEOUT,
                     std::min(options.connect_timeout_seconds, options.timeout_seconds));
    curl_easy_setopt(handle, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(options.max_bytes));
    curl_easy_setopt(handle, CURLOPT_ACCEPT_ENCODING, ""); // gzip and the like, when offered
    curl_easy_setopt(handle, CURLOPT_USERAGENT, agent.c_str());
    curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers.get());
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, write_body);
    curl_easy_setopt(handle, CURLOPT_WRITEDATA, &transfer);
    curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, read_header);
    curl_easy_setopt(handle, CURLOPT_HEADERDATA, &transfer);
    if (options.progress != nullptr) {
        curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, draw_progress);
        curl_easy_setopt(handle, CURLOPT_XFERINFODATA, &transfer);
        curl_easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
    }
    result.code = curl_easy_perform(handle);
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &result.status);
    curl_off_t retry_after = 0; // seconds, from a Retry-After header (429, 503)
    if (curl_easy_getinfo(handle, CURLINFO_RETRY_AFTER, &retry_after) == CURLE_OK &&
        retry_after > 0) {
        result.retry_after = std::chrono::seconds(std::min<curl_off_t>(retry_after, 60));
    }
    if (transfer.drawn) { // the bar's last state, then its line is done
        *options.progress << '\r'
                          << progress_line(label,
                                           transfer.written,
                                           result.code == CURLE_OK ? transfer.written : 0)
                          << '\n'
                          << std::flush;
    }
    result.message = error[0] != '\0' ? error : curl_easy_strerror(result.code);
    result.write_failed = transfer.write_failed;
    result.bytes = transfer.written;
    result.validators = transfer.validators;
    return result;
}

bool may_pass(const Attempt& attempt) {
    switch (attempt.code) {
    case CURLE_OK:
        return attempt.status >= 500 || attempt.status == 429;
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_PARTIAL_FILE:
    case CURLE_BAD_CONTENT_ENCODING: // a compressed body cut short
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
        return true;
    default:
        return false;
    }
}

void describe_failure(const Attempt& last, const HttpOptions& options, HttpResult& result) {
    switch (last.code) {
    case CURLE_OK:
        result.error = fmt::format("the server answered HTTP {}", last.status);
        result.hint = last.status >= 500 || last.status == 429
                          ? "the feed may be down or busy: try again later (--retries N)"
                          : "check the URL, or --endpoint if you gave one";
        return;
    case CURLE_OPERATION_TIMEDOUT:
        result.error =
            fmt::format("timed out after {} s ({})", options.timeout_seconds, last.message);
        result.hint = "a slow link or a large file: raise --timeout SECONDS";
        return;
    case CURLE_PARTIAL_FILE:
        result.error = fmt::format("the body was cut short ({})", last.message);
        result.hint = "the connection dropped: try again later; nothing partial was kept";
        return;
    case CURLE_TOO_MANY_REDIRECTS:
        result.error =
            fmt::format("more than {} redirects: a redirect loop?", options.max_redirects);
        result.hint = "check the URL, or --endpoint if you gave one";
        return;
    case CURLE_FILESIZE_EXCEEDED:
        result.error =
            fmt::format("the body is larger than the limit of {} MiB", options.max_bytes >> 20U);
        result.hint = "check the URL, or --endpoint if you gave one";
        return;
    case CURLE_UNSUPPORTED_PROTOCOL:
        result.error = fmt::format("not an http or https URL ({})", last.message);
        result.hint = "--endpoint takes http://HOST[:PORT][/PATH] or https://...";
        return;
    default:
        result.error = last.message;
        result.hint = "check the network (a proxy: the https_proxy variable), then try again";
    }
}

} // namespace

std::string progress_line(const std::string& label, std::uint64_t now, std::uint64_t total) {
    const std::uint64_t scale = std::max(now, total) < (std::uint64_t{1} << 20U) ? 1024 : 1 << 20U;
    const std::string_view unit = scale == 1024 ? "KiB" : "MiB";
    const auto size = [scale](std::uint64_t bytes) {
        return static_cast<double>(bytes) / static_cast<double>(scale);
    };
    if (total == 0 || now > total) {
        return fmt::format("{:>9.1f} {}  {}", size(now), unit, label);
    }
    constexpr std::uint64_t k_bar = 24;
    const std::uint64_t filled = now * k_bar / total;
    return fmt::format("[{}{}] {:>3}%  {:.1f} / {:.1f} {}  {}",
                       std::string(filled, '#'),
                       std::string(k_bar - filled, '.'),
                       now * 100 / total,
                       size(now),
                       size(total),
                       unit,
                       label);
}

HttpResult http_get_file(const std::string& url,
                         const std::string& path,
                         const HttpValidators& cached,
                         const HttpOptions& options,
                         const std::string& label) {
    HttpResult result;
    if (!curl_ready()) {
        result.error = "libcurl could not start";
        return result;
    }
    const std::string part = path + ".part";
    Attempt last;
    for (int tries = 0; tries <= options.retries; ++tries) {
        if (tries > 0) {
            // The backoff, or longer when the server said so (Retry-After), up to 60 s.
            const std::chrono::milliseconds wait = std::max<std::chrono::milliseconds>(
                options.backoff * (1LL << std::min(tries - 1, 16)), last.retry_after);
            std::this_thread::sleep_for(
                std::min<std::chrono::milliseconds>(wait, std::chrono::milliseconds(60'000)));
        }
        std::FILE* file = std::fopen(part.c_str(), "wb");
        if (file == nullptr) {
            result.error = fmt::format("cannot write {}: {}",
                                       part,
                                       std::error_code(errno, std::generic_category()).message());
            result.hint = "check the cache folder (--cache-dir) exists and is writable";
            return result;
        }
        last = attempt(url, file, cached, options, label);
        result.attempts = tries + 1;
        result.status = last.status;
        const bool closed = std::fclose(file) == 0;
        const bool success = last.code == CURLE_OK && last.status >= 200 && last.status < 300;
        if (success && closed && !last.write_failed) {
            std::error_code failed;
            std::filesystem::rename(part, path, failed);
            if (failed) {
                result.error = fmt::format("cannot rename {}: {}", part, failed.message());
                return result;
            }
            result.ok = true;
            result.bytes = last.bytes;
            result.validators = last.validators;
            return result;
        }
        std::remove(part.c_str()); // never a partial file
        if (last.code == CURLE_OK && last.status == 304) {
            result.ok = result.not_modified = true;
            result.validators = cached;
            return result;
        }
        if (last.write_failed || !closed) {
            result.error = fmt::format("cannot write {} (a full disk?)", part);
            result.hint = "free some space, or name another folder with --cache-dir";
            return result;
        }
        if (!may_pass(last)) {
            break;
        }
    }
    describe_failure(last, options, result);
    if (result.attempts > 1) {
        result.error += fmt::format(" ({} tries)", result.attempts);
    }
    return result;
}

} // namespace gpuadvisor::cli
