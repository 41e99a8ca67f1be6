// The command table and the top-level run: parse, dispatch, map errors to exit codes.
#pragma once

#include "gpuadvisor/enum_names.hpp"
#include "io.hpp"

#include <CLI/CLI.hpp>

#include <array>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor::cli {

// A leaf command: its CLI11 node and what runs when it was the one parsed.
struct Runner {
    CLI::App* app = nullptr;
    std::function<int(Io&)> run;
};

struct Registry {
    const GlobalOptions& global;
    std::vector<Runner>& runners;
};

// What `catalog list` lists; its JSON names the kind in `command` ("catalog list gpus").
inline constexpr std::array<std::string_view, 9> k_catalog_list_kinds{"gpus",
                                                                      "instances",
                                                                      "offers",
                                                                      "models",
                                                                      "regions",
                                                                      "currencies",
                                                                      "servers",
                                                                      "providers",
                                                                      "cpus"};

void register_catalog_list(CLI::App& catalog, Registry registry);
void register_catalog_show(CLI::App& catalog, Registry registry);
void register_catalog_validate(CLI::App& catalog, Registry registry);
void register_catalog_diff(CLI::App& catalog, Registry registry);
void register_catalog_import(CLI::App& catalog, Registry registry);
void register_catalog_fetch(CLI::App& catalog, Registry registry);
void register_size(CLI::App& app, Registry registry);
void register_scaling(CLI::App& app, Registry registry);
void register_price(CLI::App& app, Registry registry);
void register_compare(CLI::App& app, Registry registry);
void register_tco(CLI::App& app, Registry registry);
void register_recommend(CLI::App& app, Registry registry);
void register_export(CLI::App& app, Registry registry);
void register_upgrade(CLI::App& app, Registry registry);
// gpuadvisor __generate (hidden): man pages and completions from the tree under `app`.
void register_generate(CLI::App& app, Registry registry);

// A command --help, suggestions, man pages and completions name (not a hidden one: no group).
bool is_listed(const CLI::App* command);

// "gpuadvisor catalog list": a command's full name, for help hints.
std::string command_path(const CLI::App& command);
// "gpuadvisor 0.1.0 (revision ...)" and the built-in catalog's size and price dates.
std::string version_text();
// Appends a line naming the global options to every command's help (theirs is the program's).
void add_global_options_footer(CLI::App& app);
// "'--dedline' is not an option of 'gpuadvisor recommend'; did you mean '--deadline'?" for the
// first unknown option left over, or nullopt when what is left is no option.
std::optional<std::string> unknown_option(const CLI::App& app, const CLI::App& reached);
// gpuadvisor help [COMMAND...]: the command's help on stdout (exit 0), or unknown-command.
int run_help(const CLI::App& app, const std::vector<std::string>& path, Io& io);

// An old spelling of `current`, kept for one release: it writes `target` as `current` does (the
// caller gives it the same checks), is left out of help and did-you-mean (is_old_spelling), is
// refused with `current` or what `current` excludes (old_spelling_conflict), and is named in a
// note when used (old_spelling_notes).
inline constexpr std::string_view k_old_spelling_of = "old spelling of ";
template <class T>
CLI::Option*
add_old_spelling(CLI::App& command, CLI::Option* current, const std::string& old_name, T& target) {
    return command.add_option(
        old_name, target, std::string(k_old_spelling_of) + current->get_name());
}
bool is_old_spelling(const CLI::Option& option);
// "'--plan' is now '--pricing' ..." for each old spelling `command` was given.
std::vector<std::string> old_spelling_notes(const CLI::App& command);
// "--plan excludes --mix" when an old spelling was given with its current name or with an option
// that name excludes; empty when none was.
std::string old_spelling_conflict(const CLI::App& command);
// CLI11's help without the old spellings.
class HelpFormatter : public CLI::Formatter {
  public:
    std::string make_option(const CLI::Option* option, bool is_positional) const override {
        return is_old_spelling(*option) ? std::string()
                                        : CLI::Formatter::make_option(option, is_positional);
    }
};

// IsMember without CLI11's own listing in the help (the type name shows the values).
CLI::Validator one_of(std::vector<std::string> values);

// An enum's names, from its table, as a flag's values, after `before` ("auto").
template <class Enum, std::size_t N>
std::vector<std::string> choices(const EnumNames<Enum, N>& names,
                                 std::initializer_list<std::string_view> before = {}) {
    std::vector<std::string> values(before.begin(), before.end());
    for (const EnumName<Enum>& entry : names) {
        values.emplace_back(entry.name);
    }
    return values;
}
// "a|b|c": the type name of a flag taking these values.
std::string choices_type(const std::vector<std::string>& values);
// "a, b or c": the values in help text.
std::string choices_text(const std::vector<std::string>& values);

// A validator for whole numbers in [min, max], written in digits (not 8.0, 1e3, +8, 0x8).
CLI::Validator whole_range(double min, double max);

// A validator for finite numbers in [min, max] written as plain decimals (16, 0.5, 1e3; not
// 0x10, +16, " 16", .5, 016). CLI::Range lets NaN, hex and octal through.
CLI::Validator finite_range(double min, double max);

int run_app(int argc, char** argv, std::ostream& out, std::ostream& err);

} // namespace gpuadvisor::cli
