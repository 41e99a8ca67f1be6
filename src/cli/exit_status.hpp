// Exit codes: part of the interface (CLI.md).
#pragma once

namespace gpuadvisor::cli {

enum ExitStatus : int {
    k_exit_ok = 0,
    k_exit_negative = 1, // no configuration fits, or validate found errors
    k_exit_usage = 2,    // unknown flag, bad value
    k_exit_input = 3,    // a catalog or profile file could not be read or is invalid
    k_exit_internal = 4,
};

} // namespace gpuadvisor::cli
