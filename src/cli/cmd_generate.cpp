// gpuadvisor __generate man DIR | completions bash|zsh|fish: the build's man pages and shell
// completions, read off the command tree --help prints. Hidden: not a user's command.
#include "app.hpp"
#include "exit_status.hpp"
#include "generate.hpp"
#include "output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>

namespace gpuadvisor::cli {

namespace {

// "cost|time" -> cost, time; "USD|CNY|EUR|..." -> USD, CNY, EUR; "PATH" -> none.
std::vector<std::string> choices_of(const std::string& value) {
    if (value.find('|') == std::string::npos || value.find(' ') != std::string::npos) {
        return {};
    }
    std::vector<std::string> choices;
    std::size_t start = 0;
    while (start <= value.size()) {
        const std::size_t end = std::min(value.find('|', start), value.size());
        if (const std::string choice = value.substr(start, end - start); choice != "...") {
            choices.push_back(choice);
        }
        start = end + 1;
    }
    return choices;
}

OptionDoc option_doc(const CLI::Option& option) {
    OptionDoc doc;
    if (option.nonpositional()) {
        for (const std::string& name : option.get_snames()) {
            doc.names.push_back("-" + name);
        }
        for (const std::string& name : option.get_lnames()) {
            doc.names.push_back("--" + name);
        }
    } else {
        doc.names.push_back(option.get_name());
    }
    if (option.get_type_size_max() != 0) {
        doc.value = option.get_type_name();
        doc.choices = choices_of(doc.value.substr(0, doc.value.find(':')));
    }
    doc.help = option.get_description();
    doc.group = option.get_group();
    doc.required = option.get_required();
    return doc;
}

void collect(const CLI::App& app, std::vector<std::string> path, std::vector<CommandDoc>& out) {
    CommandDoc doc{path, app.get_description(), app.get_footer(), {}, {}, {}};
    const auto options = app.get_options(
        [](const CLI::Option* o) { return !o->get_group().empty() && !is_old_spelling(*o); });
    for (const CLI::Option* option : options) {
        (option->nonpositional() ? doc.options : doc.positionals).push_back(option_doc(*option));
    }
    const auto commands = app.get_subcommands(is_listed);
    for (const CLI::App* command : commands) {
        doc.commands.emplace_back(command->get_name(), command->get_description());
    }
    out.push_back(std::move(doc));
    for (const CLI::App* command : commands) {
        std::vector<std::string> below = path;
        below.push_back(command->get_name());
        collect(*command, std::move(below), out);
    }
}

int cannot_write(const std::string& path, Io& io) {
    return fail("__generate", "io", fmt::format("cannot write {}", path), "", k_exit_input, io);
}

int write_man_pages(const CLI::App& app, const std::string& dir, Io& io) {
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    const std::vector<CommandDoc> commands = command_docs(app);
    for (const CommandDoc& command : commands) {
        const std::string path = dir + "/" + man_name(command) + ".1";
        if (!write_text_file(path, man_page(command, commands, GPUADVISOR_VERSION))) {
            return cannot_write(path, io);
        }
    }
    return k_exit_ok;
}

std::optional<std::string> completion(const std::string& shell, const CLI::App& app) {
    if (shell == "bash") {
        return bash_completion(command_docs(app));
    }
    if (shell == "zsh") {
        return zsh_completion(command_docs(app));
    }
    if (shell == "fish") {
        return fish_completion(command_docs(app));
    }
    return std::nullopt;
}

// man DIR: the pages in DIR; completions SHELL [FILE]: the script, in FILE or on stdout.
int run(const CLI::App& app, const std::vector<std::string>& args, Io& io) {
    if (args.size() == 2 && args[0] == "man") {
        return write_man_pages(app, args[1], io);
    }
    const auto script = args.size() >= 2 && args.size() <= 3 && args[0] == "completions"
                            ? completion(args[1], app)
                            : std::nullopt;
    if (!script) {
        return fail("__generate",
                    "usage",
                    "usage: gpuadvisor __generate man DIR | completions bash|zsh|fish [FILE]",
                    "",
                    k_exit_usage,
                    io);
    }
    if (args.size() == 2) {
        io.out << *script;
        return k_exit_ok;
    }
    return write_text_file(args[2], *script) ? k_exit_ok : cannot_write(args[2], io);
}

} // namespace

std::vector<CommandDoc> command_docs(const CLI::App& app) {
    std::vector<CommandDoc> commands;
    collect(app, {}, commands);
    return commands;
}

void register_generate(CLI::App& app, Registry registry) {
    auto args = std::make_shared<std::vector<std::string>>();
    CLI::App* cmd = app.add_subcommand("__generate", "");
    cmd->group(""); // hidden: from help, suggestions, man pages and completions
    cmd->add_option("args", *args, "man DIR | completions bash|zsh|fish [FILE]");
    registry.runners.push_back({cmd, [args, &app](Io& io) {
                                    return run(app, *args, io);
                                }});
}

} // namespace gpuadvisor::cli
