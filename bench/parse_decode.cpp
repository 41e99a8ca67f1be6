// One catalog file's parse and decode, timed apart: read the file once, then 15 times parse it
// (parse_yaml), decode the tree (decode_catalog) and free the tree, and print each step's
// median (docs/performance.md, "A tree that points into one storage").
//   cmake --build build --target gpuadvisor_parse_decode
//   build/gpuadvisor_parse_decode FILE   (a catalog file that decodes clean on its own, such
//                                         as a bench/gen_catalog.py file)
#include "catalog/catalog_decode.hpp"
#include "yaml/yaml_reader.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The diagnostics as the CLI words them (file:line:column: error[code]: field: message).
void print(const gpuadvisor::Diagnostics& diagnostics) {
    for (const gpuadvisor::Diagnostic& diagnostic : diagnostics.items()) {
        std::fprintf(stderr, "%s\n", gpuadvisor::format_diagnostic(diagnostic).c_str());
    }
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    using namespace gpuadvisor;
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    Diagnostics reading;
    const auto text = read_file_capped(argv[1], LoadLimits{}, reading);
    if (!text) {
        print(reading);
        return 1;
    }
    constexpr int k_runs = 15;
    std::vector<double> parse, decode, free;
    for (int run = 0; run < k_runs; ++run) {
        Diagnostics diagnostics;
        auto start = Clock::now();
        std::optional<YamlDocument> document =
            parse_yaml(argv[1], *text, LoadLimits{}, diagnostics);
        parse.push_back(ms_since(start));
        start = Clock::now();
        const CatalogFragment fragment = decode_catalog(*document, diagnostics);
        decode.push_back(ms_since(start));
        start = Clock::now();
        document.reset();
        free.push_back(ms_since(start));
        if (diagnostics.error_count() > 0 || fragment.instances.empty()) {
            print(diagnostics);
            std::fprintf(stderr,
                         "%s: not a catalog file with instance types that decodes clean on its "
                         "own\n",
                         argv[1]);
            return 1;
        }
    }
    std::printf("parse %.2f ms, decode %.2f ms, free the tree %.2f ms (medians of %d)\n",
                median(parse),
                median(decode),
                median(free),
                k_runs);
    return 0;
}
