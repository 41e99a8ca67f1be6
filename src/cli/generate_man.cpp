// Man pages (man(7) markup) from the command tree: one per command, as --help says it.
#include "generate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <sstream>

namespace gpuadvisor::cli {

namespace {

// Text for roff: backslashes and hyphens escaped, no line starting a request, non-ASCII as
// \[uXXXX].
std::string roff(const std::string& text) {
    std::string out;
    bool line_start = true;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (line_start && (c == '.' || c == '\'')) {
            out += "\\&";
        }
        line_start = c == '\n';
        if (c == '\\') {
            out += "\\e";
        } else if (c == '-') {
            out += "\\-";
        } else if (c < 0x80) {
            out += static_cast<char>(c);
        } else {
            // A UTF-8 sequence: its code point.
            const int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1;
            unsigned point = c & (0x3Fu >> extra);
            for (int k = 0; k < extra && i + 1 < text.size(); ++k) {
                point = (point << 6) | (static_cast<unsigned char>(text[++i]) & 0x3Fu);
            }
            out += fmt::format("\\[u{:04X}]", point);
        }
    }
    return out;
}

std::string joined(const std::vector<std::string>& words, std::string_view between) {
    return fmt::format("{}", fmt::join(words, between));
}

// The options group by group in the order --help gives them (its "Options" without a title).
void write_options(std::ostream& out, const std::vector<OptionDoc>& options) {
    std::vector<std::string> groups;
    for (const OptionDoc& option : options) {
        if (std::find(groups.begin(), groups.end(), option.group) == groups.end()) {
            groups.push_back(option.group);
        }
    }
    for (const std::string& group : groups) {
        if (group != "Options") {
            out << ".SS " << roff(group) << '\n';
        }
        for (const OptionDoc& option : options) {
            if (option.group != group) {
                continue;
            }
            out << ".TP\n\\fB" << roff(joined(option.names, ", ")) << "\\fR";
            if (!option.value.empty()) {
                out << " \\fI" << roff(option.value) << "\\fR";
            }
            out << '\n' << roff(option.help) << '\n';
        }
    }
}

// The footer's paragraphs: "Example(s):" ones as EXAMPLES, the others as NOTES, kept as lines.
void write_footer(std::ostream& out, const std::string& footer) {
    std::string examples;
    std::string notes;
    std::istringstream in(footer + "\n");
    std::string paragraph;
    std::string line;
    const auto flush = [&] {
        if (paragraph.starts_with("Example")) {
            examples += paragraph.substr(paragraph.find('\n') + 1);
        } else if (!paragraph.empty()) {
            notes += (notes.empty() ? "" : "\n") + paragraph;
        }
        paragraph.clear();
    };
    while (std::getline(in, line)) {
        if (line.empty()) {
            flush();
        } else {
            paragraph += line + "\n";
        }
    }
    flush();
    if (!examples.empty()) {
        out << ".SH EXAMPLES\n.nf\n" << roff(examples) << ".fi\n";
    }
    if (!notes.empty()) {
        out << ".SH NOTES\n.nf\n" << roff(notes) << ".fi\n";
    }
}

void write_see_also(std::ostream& out,
                    const CommandDoc& command,
                    const std::vector<CommandDoc>& all) {
    std::vector<std::string> pages;
    for (const CommandDoc& other : all) {
        const bool parent = other.path.size() + 1 == command.path.size() &&
                            std::equal(other.path.begin(), other.path.end(), command.path.begin());
        const bool child = other.path.size() == command.path.size() + 1 &&
                           std::equal(command.path.begin(), command.path.end(), other.path.begin());
        if (parent || child) {
            pages.push_back(fmt::format("\\fB{}\\fR(1)", roff(man_name(other))));
        }
    }
    if (!pages.empty()) {
        out << ".SH SEE ALSO\n" << joined(pages, ",\n") << '\n';
    }
}

} // namespace

std::string man_name(const CommandDoc& command) {
    std::string name = "gpuadvisor";
    for (const std::string& word : command.path) {
        name += "-" + word;
    }
    return name;
}

std::string man_page(const CommandDoc& command,
                     const std::vector<CommandDoc>& all,
                     const std::string& version) {
    std::ostringstream out;
    std::string upper = man_name(command);
    for (char& c : upper) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    out << ".TH " << roff(upper) << " 1 \"\" \"gpuadvisor " << roff(version)
        << "\" \"gpuadvisor manual\"\n";
    out << ".SH NAME\n" << roff(man_name(command)) << " \\- " << roff(command.description) << '\n';
    out << ".SH SYNOPSIS\n.B gpuadvisor";
    for (const std::string& word : command.path) {
        out << ' ' << roff(word);
    }
    out << "\n[\\fIOPTIONS\\fR]";
    for (const OptionDoc& positional : command.positionals) {
        const std::string name = "\\fI" + roff(positional.names.front()) + "\\fR";
        out << ' ' << (positional.required ? name : "[" + name + "]");
    }
    out << (command.commands.empty() ? "" : " \\fICOMMAND\\fR") << '\n';
    out << ".SH DESCRIPTION\n" << roff(command.description) << '\n';
    if (!command.commands.empty()) {
        out << ".SH COMMANDS\n";
        for (const auto& [name, description] : command.commands) {
            out << ".TP\n.B " << roff(name) << '\n' << roff(description) << '\n';
        }
    }
    if (!command.positionals.empty()) {
        out << ".SH ARGUMENTS\n";
        write_options(out, command.positionals);
    }
    out << ".SH OPTIONS\n";
    write_options(out, command.options);
    write_footer(out, command.footer);
    write_see_also(out, command, all);
    return out.str();
}

} // namespace gpuadvisor::cli
