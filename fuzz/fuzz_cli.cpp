// Fuzzes the command line: the input is split at newlines into arguments after
// "gpuadvisor" (so the seeds are readable command lines), then run as the CLI runs them,
// planner included. Any exit code is fine but 4: a crash, a hang, a sanitizer report or an
// internal error (run_app turns an exception into exit 4, with its failure report) is not.
#include "app.hpp"
#include "exit_status.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
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
        if (arg.find("--catalog") == 0 || arg.find("--profile") == 0 || arg.find("--rules") == 0 ||
            arg == "validate" || arg == "__generate" || arg == "fetch") { // fetch: the network
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
    const int status =
        gpuadvisor::cli::run_app(static_cast<int>(args.size()), argv.data(), out, err);
    if (status == gpuadvisor::cli::k_exit_internal) {
        std::abort(); // an exception in a command: a bug, whatever it printed
    }
    return 0;
}
