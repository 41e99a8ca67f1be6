// gpuadvisor help [COMMAND], gpuadvisor version (and --version), the global options named in
// every command's help, and an unknown option named with the nearest real ones.
#include "app.hpp"
#include "exit_status.hpp"
#include "gpuadvisor/catalog_io.hpp"
#include "gpuadvisor/date.hpp"
#include "gpuadvisor/spelling.hpp"
#include "output.hpp"
#include "revision.hpp" // generated at build time: GPUADVISOR_REVISION

#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <set>

namespace gpuadvisor::cli {

namespace {

// The long names of the options a command takes: its own, then its parents' (global ones).
std::vector<std::string> option_names(const CLI::App& command) {
    std::vector<std::string> names;
    for (const CLI::App* app = &command; app != nullptr; app = app->get_parent()) {
        for (const CLI::Option* option : app->get_options()) {
            if (option->get_group().empty() || is_old_spelling(*option)) { // not to suggest
                continue;
            }
            for (const std::string& name : option->get_lnames()) {
                names.push_back("--" + name);
            }
        }
    }
    return names;
}

// The command a path of names reaches from `app` ("catalog", "list"); else nullptr, with
// `missed` the first name no command has and `names` those of its level.
const CLI::App* find_command(const CLI::App& app,
                             const std::vector<std::string>& path,
                             std::string& missed,
                             std::vector<std::string>& names) {
    const CLI::App* at = &app;
    for (const std::string& name : path) {
        const CLI::App* next = nullptr;
        names.clear();
        for (const CLI::App* command : at->get_subcommands(is_listed)) {
            names.push_back(command->get_name());
            next = command->get_name() == name ? command : next;
        }
        if (next == nullptr) {
            missed = name;
            return nullptr;
        }
        at = next;
    }
    return at;
}

} // namespace

std::string version_text() {
    std::optional<Date> oldest;
    std::optional<Date> newest;
    std::set<std::string_view> providers;
    std::size_t offers = 0;
    for (const InstanceType& instance : builtin_catalog().instances()) {
        providers.insert(instance.provider);
        for (const PriceRow& row : instance.regions) {
            ++offers;
            const Date as_of = row.provenance.as_of;
            oldest = oldest ? std::min(*oldest, as_of) : as_of;
            newest = newest ? std::max(*newest, as_of) : as_of;
        }
    }
    return fmt::format("gpuadvisor {} (revision {})\nbuilt-in catalog: {} offers of {} instance "
                       "types from {} providers, prices dated {} to {}",
                       GPUADVISOR_VERSION,
                       GPUADVISOR_REVISION,
                       offers,
                       builtin_catalog().instances().size(),
                       providers.size(),
                       oldest ? format_date(*oldest) : "-",
                       newest ? format_date(*newest) : "-");
}

namespace {

// "Global options (before or after the command): --catalog PATH, ..." from the program's own
// options and their values, wrapped between options for a help screen.
std::string global_options_line(const CLI::App& program) {
    std::vector<std::string> names;
    for (const CLI::Option* option : program.get_options()) {
        std::string name = option->get_name(false, true); // "-o,--format"
        if (option == program.get_help_ptr() || name == "--version" || name.empty()) {
            continue;
        }
        std::replace(name.begin(), name.end(), ',', '/');
        const std::string value = option->get_type_name();
        names.push_back(value.empty() ? name : name + " " + value);
    }
    names.emplace_back("('gpuadvisor --help' says more).");
    std::string text = "Global options (before or after the command):";
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string item = names[i] + (i + 2 < names.size() ? "," : "");
        const bool fits = text.size() - line_start + 1 + item.size() <= 88;
        text += fits ? " " : "\n";
        line_start = fits ? line_start : text.size();
        text += item;
    }
    return text + "\n";
}

void add_footer(CLI::App& app, const std::string& line) {
    for (CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
        std::string footer = command->get_footer();
        while (!footer.empty() && footer.back() == '\n') {
            footer.pop_back();
        }
        command->footer(footer.empty() ? line : footer + "\n\n" + line);
        add_footer(*command, line);
    }
}

} // namespace

void add_global_options_footer(CLI::App& app) {
    add_footer(app, global_options_line(app));
}

std::optional<std::string> unknown_option(const CLI::App& app, const CLI::App& reached) {
    const std::vector<std::string> left = app.remaining(true);
    const auto option = std::find_if(left.begin(), left.end(), [](const std::string& arg) {
        return arg.starts_with("--") && arg.size() > 2;
    });
    if (option == left.end()) {
        return std::nullopt;
    }
    const std::string name = option->substr(0, option->find('='));
    std::string message = fmt::format("'{}' is not an option of '{}'", name, command_path(reached));
    const std::string nearest = did_you_mean(nearest_names(name, option_names(reached)));
    return nearest.empty() ? message : message + "; " + nearest;
}

int run_help(const CLI::App& app, const std::vector<std::string>& path, Io& io) {
    std::string missed;
    std::vector<std::string> names;
    const CLI::App* command = find_command(app, path, missed, names);
    if (command == nullptr) {
        std::string message = fmt::format("'{}' is not a gpuadvisor command", fmt::join(path, " "));
        const std::string nearest = did_you_mean(nearest_names(missed, names));
        return fail(
            "help",
            "unknown-command",
            nearest.empty() ? message : message + "; " + nearest,
            fmt::format("commands here: {}; run 'gpuadvisor --help'", fmt::join(names, ", ")),
            k_exit_usage,
            io);
    }
    // (CLI::App::help would give the parsed command's help: this one, `help`.)
    io.out << command->get_formatter()->make_help(
        command, command_path(*command), CLI::AppFormatMode::Normal);
    return k_exit_ok;
}

} // namespace gpuadvisor::cli
