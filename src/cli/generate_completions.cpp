// Shell completions from the command tree: commands, options, and the values of options and
// arguments that list theirs ("cost|time"). Global options complete at every level.
#include "generate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

namespace gpuadvisor::cli {

namespace {

std::string words(const std::vector<std::string>& list) {
    return fmt::format("{}", fmt::join(list, " "));
}

std::string path_text(const CommandDoc& command) {
    return words(command.path);
}

// What may follow a command: its commands, its arguments' values, its options and the
// program's (global) ones.
std::vector<std::string> candidates(const CommandDoc& command, const CommandDoc& program) {
    std::vector<std::string> list;
    for (const auto& entry : command.commands) {
        list.push_back(entry.first);
    }
    for (const OptionDoc& positional : command.positionals) {
        list.insert(list.end(), positional.choices.begin(), positional.choices.end());
    }
    for (const OptionDoc& option : command.options) {
        list.insert(list.end(), option.names.begin(), option.names.end());
    }
    if (&command != &program) {
        for (const OptionDoc& option : program.options) {
            if (option.names.back() != "--help") {
                list.insert(list.end(), option.names.begin(), option.names.end());
            }
        }
    }
    return list;
}

// The case patterns a shell's loop steps into a command with: "|catalog", "catalog|list".
std::string command_patterns(const std::vector<CommandDoc>& commands, std::string_view open) {
    std::vector<std::string> patterns;
    for (const CommandDoc& command : commands) {
        if (!command.path.empty()) {
            std::vector<std::string> parent(command.path.begin(), command.path.end() - 1);
            patterns.push_back(fmt::format("\"{}|{}\"", words(parent), command.path.back()));
        }
    }
    return fmt::format("{}{}", open, fmt::join(patterns, " | "));
}

// A value named PATH, FILE or DIR is a file's name: the shell completes it.
bool takes_file(const OptionDoc& option) {
    const std::string type = option.value.substr(0, option.value.find(':'));
    return type == "PATH" || type == "FILE" || type == "DIR";
}

bool takes_files(const CommandDoc& command) {
    return std::any_of(command.positionals.begin(), command.positionals.end(), takes_file);
}

// One case branch per option taking a value: its choices, files, or nothing to offer.
struct ValueBranches {
    std::string (*choices)(const std::string& pattern, const std::string& values);
    std::string (*files)(const std::string& pattern);
    std::string (*nothing)(const std::string& pattern);
};

void value_cases(std::ostream& out,
                 const std::vector<CommandDoc>& commands,
                 const ValueBranches& branches) {
    for (const CommandDoc& command : commands) {
        for (const OptionDoc& option : command.options) {
            if (option.value.empty()) {
                continue;
            }
            std::vector<std::string> patterns;
            for (const std::string& name : option.names) {
                patterns.push_back(command.path.empty()
                                       ? fmt::format("*\"|{}\"", name)
                                       : fmt::format("\"{}|{}\"", path_text(command), name));
            }
            const std::string pattern = fmt::format("{}", fmt::join(patterns, " | "));
            out << "        "
                << (!option.choices.empty() ? branches.choices(pattern, words(option.choices))
                    : takes_file(option)    ? branches.files(pattern)
                                            : branches.nothing(pattern))
                << '\n';
        }
    }
}

} // namespace

std::string bash_completion(const std::vector<CommandDoc>& commands) {
    std::ostringstream out;
    out << "# bash completion for gpuadvisor: generated at build time "
           "from its command tree\n"
           "_gpuadvisor() {\n"
           "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
           "    local cmdpath=\"\" i\n"
           "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
           "        case \"$cmdpath|${COMP_WORDS[i]}\" in\n"
        << command_patterns(commands, "            ")
        << ") cmdpath=\"${cmdpath:+$cmdpath }${COMP_WORDS[i]}\" ;;\n"
           "        esac\n"
           "    done\n"
           "    case \"$cmdpath|$prev\" in\n";
    value_cases(
        out,
        commands,
        {[](const std::string& pattern, const std::string& values) {
             return fmt::format(
                 "{}) COMPREPLY=($(compgen -W \"{}\" -- \"$cur\")); return ;;", pattern, values);
         },
         [](const std::string& pattern) {
             return fmt::format("{}) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;", pattern);
         },
         [](const std::string& pattern) {
             return fmt::format("{}) COMPREPLY=(); return ;;", pattern);
         }});
    out << "    esac\n"
           "    local words=\"\" files=\"\"\n"
           "    case \"$cmdpath\" in\n";
    for (const CommandDoc& command : commands) {
        out << "        \"" << path_text(command) << "\") words=\""
            << words(candidates(command, commands.front())) << "\""
            << (takes_files(command) ? " files=1" : "") << " ;;\n";
    }
    out << "    esac\n"
           "    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
           "    if [ -n \"$files\" ] && [[ $cur != -* ]]; then\n"
           "        COMPREPLY+=($(compgen -f -- \"$cur\"))\n"
           "    fi\n"
           "}\n"
           "complete -F _gpuadvisor gpuadvisor\n";
    return out.str();
}

std::string zsh_completion(const std::vector<CommandDoc>& commands) {
    std::ostringstream out;
    out << "#compdef gpuadvisor\n"
           "# zsh completion for gpuadvisor: generated at build time "
           "from its command tree\n"
           "_gpuadvisor() {\n"
           "    local cmdpath=\"\" cur=${words[CURRENT]} prev=${words[CURRENT-1]} i\n"
           "    for ((i = 2; i < CURRENT; i++)); do\n"
           "        case \"$cmdpath|${words[i]}\" in\n"
        << command_patterns(commands, "            (")
        << ") cmdpath=\"${cmdpath:+$cmdpath }${words[i]}\" ;;\n"
           "        esac\n"
           "    done\n"
           "    case \"$cmdpath|$prev\" in\n";
    value_cases(
        out,
        commands,
        {[](const std::string& pattern, const std::string& values) {
             return fmt::format("({}) compadd -- {}; return ;;", pattern, values);
         },
         [](const std::string& pattern) { return fmt::format("({}) _files; return ;;", pattern); },
         [](const std::string& pattern) {
             return fmt::format("({}) return ;;", pattern);
         }});
    out << "    esac\n"
           "    case \"$cmdpath\" in\n";
    for (const CommandDoc& command : commands) {
        out << "        (\"" << path_text(command) << "\") compadd -- "
            << words(candidates(command, commands.front()))
            << (takes_files(command) ? "; _files" : "") << " ;;\n";
    }
    out << "    esac\n"
           "}\n"
           "_gpuadvisor \"$@\"\n";
    return out.str();
}

namespace {

std::string fish_quoted(const std::string& text) {
    std::string out = "'";
    for (const char c : text) {
        if (c == '\'' || c == '\\') {
            out += '\\';
        }
        out += c;
    }
    return out + "'";
}

// When fish offers a command's options: once each word of its path has been seen.
std::string fish_seen(const CommandDoc& command) {
    std::vector<std::string> seen;
    for (const std::string& word : command.path) {
        seen.push_back("__fish_seen_subcommand_from " + word);
    }
    return fmt::format("{}", fmt::join(seen, "; and "));
}

std::string fish_condition(const CommandDoc& command) {
    return command.path.empty() ? std::string() : " -n " + fish_quoted(fish_seen(command));
}

// Its commands, while none of them has been given.
void fish_commands(std::ostream& out, const CommandDoc& command) {
    std::vector<std::string> names;
    for (const auto& entry : command.commands) {
        names.push_back(entry.first);
    }
    const std::string condition =
        command.path.empty()
            ? std::string("__fish_use_subcommand")
            : fish_seen(command) + "; and not __fish_seen_subcommand_from " + words(names);
    for (const auto& [name, description] : command.commands) {
        out << "complete -c gpuadvisor -n " << fish_quoted(condition) << " -a " << name << " -d "
            << fish_quoted(description) << '\n';
    }
}

void fish_option(std::ostream& out, const CommandDoc& command, const OptionDoc& option) {
    out << "complete -c gpuadvisor" << fish_condition(command);
    for (const std::string& name : option.names) {
        out << (name.starts_with("--") ? " -l " + name.substr(2) : " -s " + name.substr(1));
    }
    if (!option.choices.empty()) {
        out << " -x -a " << fish_quoted(words(option.choices));
    } else if (takes_file(option)) {
        out << " -r -F";
    } else if (!option.value.empty()) {
        out << " -x";
    }
    out << " -d " << fish_quoted(option.help) << '\n';
}

} // namespace

std::string fish_completion(const std::vector<CommandDoc>& commands) {
    std::ostringstream out;
    out << "# fish completion for gpuadvisor: generated at build time "
           "from its command tree\n"
           "complete -c gpuadvisor -f\n";
    for (const CommandDoc& command : commands) {
        fish_commands(out, command);
        for (const OptionDoc& positional : command.positionals) {
            if (!positional.choices.empty()) {
                out << "complete -c gpuadvisor" << fish_condition(command) << " -a "
                    << fish_quoted(words(positional.choices)) << '\n';
            } else if (takes_file(positional)) {
                out << "complete -c gpuadvisor" << fish_condition(command) << " -F\n";
            }
        }
        for (const OptionDoc& option : command.options) {
            fish_option(out, command, option);
        }
    }
    return out.str();
}

} // namespace gpuadvisor::cli
