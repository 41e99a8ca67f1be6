// Fuzzes the command line: the input is split at newlines into arguments after
// "gpuadvisor" (so the seeds are readable command lines), then run as the CLI runs them,
// planner included. Any exit code is fine; a crash, a hang, a sanitizer report or an
// exception escaping run_app is not.
#include "app.hpp"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> args{"gpuadvisor"};
    std::string current;
    for (std::size_t i = 0; i < size && args.size() < 64; ++i) {
        const char c = static_cast<char>(data[i]);
        if (c == '\n') {
            args.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.empty()) {
        args.push_back(current);
    }
    for (const std::string& arg : args) { // files and folders are fuzz_files' job
        if (arg.find("--catalog") == 0 || arg.find("--profile") == 0 ||
            arg.find("--rules") == 0 || arg == "validate") {
            return 0;
        }
    }
    std::vector<char*> argv;
    for (std::string& arg : args) {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    std::ostringstream out;
    std::ostringstream err;
    (void)gpuadvisor::cli::run_app(static_cast<int>(args.size()), argv.data(), out, err);
    return 0;
}
