// gpuadvisor: the command-line entry point. Everything else is in app.cpp and cmd_*.cpp.
#include "app.hpp"
#include "exit_status.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>

#ifdef __GLIBC__
#include <malloc.h>
#endif

int main(int argc, char** argv) {
#ifdef __GLIBC__
    // glibc gives a thread's own heap more room one page at a time, with an mprotect(2) call
    // each, unless the heap starts with room: a large catalog is decoded on several threads,
    // and at 100k offers that was some 2,300 calls, a sixth of `catalog validate` (20,000 at
    // 1M offers). A pad of 64 MB, a thread heap's
    // largest size, makes each such heap whole from the start. Room is address space only:
    // memory is used when touched (docs/performance.md).
    mallopt(M_TOP_PAD, 64 << 20);
#endif
    // A closed pipe (gpuadvisor ... | head) ends the output quietly: writes fail with EPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    std::ios::sync_with_stdio(true);
    int status = gpuadvisor::cli::k_exit_internal;
    try {
        status = gpuadvisor::cli::run_app(argc, argv, std::cout, std::cerr);
    } catch (const std::exception& error) {
        std::cerr << "gpuadvisor: internal error: " << error.what() << '\n';
        return gpuadvisor::cli::k_exit_internal;
    } catch (...) {
        std::cerr << "gpuadvisor: internal error\n";
        return gpuadvisor::cli::k_exit_internal;
    }
    std::cout.flush();
    if (std::cout.fail() || std::fflush(stdout) != 0) {
        if (errno == EPIPE) {
            return status; // the reader went away: not an error of ours
        }
        std::cerr << "gpuadvisor: error: cannot write the output: " << std::strerror(errno) << '\n';
        return status == 0 ? gpuadvisor::cli::k_exit_internal : status;
    }
    return status;
}
