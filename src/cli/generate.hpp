// The command tree as plain data, and what is generated from it at build time: one man page
// per command and the bash, zsh and fish completions (gpuadvisor __generate, a hidden command).
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace gpuadvisor::cli {

struct OptionDoc {
    std::vector<std::string> names;   // "-o", "--format"; a positional's name alone
    std::string value;                // "PATH", "cost|time"; empty: a flag
    std::vector<std::string> choices; // the values a `value` like "cost|time" lists
    std::string help;
    std::string group; // "Options", "Constraints", ...
    bool required = false;
};

struct CommandDoc {
    std::vector<std::string> path; // {"catalog", "list"}; empty: the program
    std::string description;
    std::string footer;                                        // examples and notes, as --help ends
    std::vector<std::pair<std::string, std::string>> commands; // name, description
    std::vector<OptionDoc> positionals;
    std::vector<OptionDoc> options;
};

// The program and every command under it, depth first in --help's order; hidden commands and
// options (those in no group) left out.
std::vector<CommandDoc> command_docs(const CLI::App& app);

// "gpuadvisor-catalog-list": a command's man page name.
std::string man_name(const CommandDoc& command);
// The page in man(7) markup.
std::string
man_page(const CommandDoc& command, const std::vector<CommandDoc>& all, const std::string& version);

std::string bash_completion(const std::vector<CommandDoc>& commands);
std::string zsh_completion(const std::vector<CommandDoc>& commands);
std::string fish_completion(const std::vector<CommandDoc>& commands);

} // namespace gpuadvisor::cli
