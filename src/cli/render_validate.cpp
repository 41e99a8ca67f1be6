#include "render_validate.hpp"

#include "output.hpp"
#include "text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <ostream>
#include <span>
#include <utility>

namespace gpuadvisor::cli {

namespace {

// SARIF's tool.driver.informationUri. The project has no public home yet: this is the name its
// docs use (docs/cli.md's GitHub Actions example), to be replaced by the real one.
constexpr std::string_view k_information_uri = "https://github.com/OWNER/gpuadvisor";
constexpr std::string_view k_sarif_schema =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
constexpr std::string_view k_suite_name = "gpuadvisor catalog validate";

struct CodeDescription {
    std::string_view code;
    std::string_view text;
};

// Each diagnostic code's short description for SARIF's rules (docs/catalog-format.md "What
// validation checks", docs/rules.md), sorted by code.
constexpr std::array k_code_descriptions{
    CodeDescription{"alias-conflict", "A GPU alias equals another GPU's id or alias"},
    CodeDescription{"ambiguous-gpu", "A GPU reference matches several GPUs"},
    CodeDescription{"ambiguous-name", "A name matches several catalog entries"},
    CodeDescription{"bad-number", "A number is not written as a plain decimal"},
    CodeDescription{"bad-value", "A value is not among the allowed ones, or is malformed"},
    CodeDescription{"discount-expired", "A discount is past its expiry date"},
    CodeDescription{"discount-overlap", "Two equally specific discounts cover the same offers"},
    CodeDescription{"dropped-price", "An overlay row replaced a row that priced more plans"},
    CodeDescription{"duplicate-id", "The same id twice"},
    CodeDescription{"duplicate-key", "The same key twice in a mapping"},
    CodeDescription{"encoding", "Not UTF-8, or a NUL, control byte or bare CR"},
    CodeDescription{"fp64-above-fp32", "FP64 throughput above FP32"},
    CodeDescription{"future-date", "A price dated after today"},
    CodeDescription{"gpu-memory-mismatch", "GPU memory disagrees with the GPU count"},
    CodeDescription{"implausible-bandwidth", "Memory bandwidth written in TB/s"},
    CodeDescription{"implausible-discount", "A discount percentage out of the plausible range"},
    CodeDescription{"implausible-interruption", "A spot interruption rate above 100%"},
    CodeDescription{"io", "The file cannot be read"},
    CodeDescription{"limit", "The file exceeds a nesting, size or node limit"},
    CodeDescription{"missing-field", "A required field is absent"},
    CodeDescription{"no-price", "A price row with no price"},
    CodeDescription{"no-rate", "A currency with no exchange rate"},
    CodeDescription{"nothing-to-remove", "A removal of a row that does not exist"},
    CodeDescription{"null-value", "A required field is null"},
    CodeDescription{"out-of-range", "A value out of its allowed range"},
    CodeDescription{"price-above-on-demand", "A discounted price above on-demand"},
    CodeDescription{"removed-row", "An overlay removed an earlier row"},
    CodeDescription{"reserved-order", "A 3-year reservation above the 1-year one"},
    CodeDescription{"schema-version", "schema_version missing or unsupported"},
    CodeDescription{"skipped-file", "A folder entry that is not a file was skipped"},
    CodeDescription{"sparse-figure", "A dense FP16/BF16 figure that is the sparse one"},
    CodeDescription{"stale-price", "A price older than --max-age-days"},
    CodeDescription{"syntax", "YAML syntax error"},
    CodeDescription{"unknown-field", "A key that is not a field"},
    CodeDescription{"unknown-gpu", "A GPU reference names no GPU"},
    CodeDescription{"unknown-name", "A name matches nothing in the catalog"},
    CodeDescription{"unknown-provider", "A provider that is not in the catalog"},
    CodeDescription{"unknown-reference", "A reference to something not in the catalog"},
    CodeDescription{"unknown-region", "A region not in the provider's regions"},
    CodeDescription{"wrong-type", "A value of the wrong type"},
    CodeDescription{"yaml-feature", "A YAML feature gpuadvisor does not accept"},
};

std::string code_description(std::string_view code) {
    const auto found =
        std::find_if(k_code_descriptions.begin(),
                     k_code_descriptions.end(),
                     [code](const CodeDescription& entry) { return entry.code == code; });
    return found != k_code_descriptions.end() ? std::string(found->text)
                                              : fmt::format("gpuadvisor check '{}'", code);
}

std::span<const Diagnostic> shown(const Diagnostics& diagnostics) {
    const auto& items = diagnostics.items();
    return {items.data(), std::min(items.size(), Diagnostics::k_shown)};
}

// The message with its hint, as the human form shows them.
std::string message_with_hint(const Diagnostic& diagnostic) {
    return diagnostic.hint.empty() ? diagnostic.message
                                   : diagnostic.message + "\nhint: " + diagnostic.hint;
}

// The name a CI format gives a severity: ours, but for info, which GitHub calls a notice and
// SARIF a note.
std::string_view severity_name(Severity severity, std::string_view info) {
    return severity == Severity::info ? info : to_string(severity);
}

std::string escaped(std::string_view text, bool property) {
    std::string result;
    result.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '%':
            result += "%25";
            break;
        case '\r':
            result += "%0D";
            break;
        case '\n':
            result += "%0A";
            break;
        case ':':
            result += property ? "%3A" : ":";
            break;
        case ',':
            result += property ? "%2C" : ",";
            break;
        default:
            result += c;
        }
    }
    return terminal_safe(result);
}

} // namespace

bool is_validate_only_format(OutputFormat format) {
    return format == OutputFormat::github || format == OutputFormat::sarif ||
           format == OutputFormat::junit;
}

std::string github_property(std::string_view text) {
    return escaped(text, true);
}

std::string github_message(std::string_view text) {
    return escaped(text, false);
}

std::string uri_reference(std::string_view path) {
    std::string result;
    for (const char c : path) {
        const auto byte = static_cast<unsigned char>(c);
        const bool unreserved = (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') ||
                                (byte >= '0' && byte <= '9') || c == '-' || c == '.' || c == '_' ||
                                c == '~' || c == '/';
        result += unreserved ? std::string(1, c) : fmt::format("%{:02X}", byte);
    }
    return result;
}

std::string xml_text(std::string_view text) {
    std::string result;
    for (const char c : terminal_safe(text)) {
        switch (c) {
        case '&':
            result += "&amp;";
            break;
        case '<':
            result += "&lt;";
            break;
        case '>':
            result += "&gt;";
            break;
        case '"':
            result += "&quot;";
            break;
        case '\'':
            result += "&apos;";
            break;
        default:
            result += c;
        }
    }
    return result;
}

void write_github(const Diagnostics& diagnostics, Io& io) {
    for (const Diagnostic& diagnostic : shown(diagnostics)) {
        std::vector<std::string> properties;
        if (!diagnostic.pos.file.empty()) {
            properties.push_back("file=" + github_property(diagnostic.pos.file));
        }
        if (diagnostic.pos.line > 0) {
            properties.push_back(fmt::format("line={}", diagnostic.pos.line));
            if (diagnostic.pos.column > 0) {
                properties.push_back(fmt::format("col={}", diagnostic.pos.column));
            }
        }
        properties.push_back("title=" + github_property(diagnostic.code));
        io.out << "::" << severity_name(diagnostic.severity, "notice") << ' '
               << fmt::format("{}", fmt::join(properties, ","))
               << "::" << github_message(message_with_hint(diagnostic)) << '\n';
    }
}

void write_sarif(const Diagnostics& diagnostics, Io& io) {
    std::map<std::string, std::size_t> rule_index; // code -> index in rules, sorted by code
    for (const Diagnostic& diagnostic : shown(diagnostics)) {
        rule_index.emplace(diagnostic.code, 0);
    }
    Json rules = Json::array();
    for (auto& [code, index] : rule_index) {
        index = rules.size();
        Json rule;
        rule["id"] = code;
        rule["shortDescription"] = {{"text", code_description(code)}};
        rules.push_back(std::move(rule));
    }
    Json results = Json::array();
    for (const Diagnostic& diagnostic : shown(diagnostics)) {
        Json result;
        result["ruleId"] = diagnostic.code;
        result["ruleIndex"] = rule_index.at(diagnostic.code);
        result["level"] = severity_name(diagnostic.severity, "note");
        result["message"] = {{"text", message_with_hint(diagnostic)}};
        Json physical;
        physical["artifactLocation"] = {{"uri", uri_reference(diagnostic.pos.file)}};
        if (diagnostic.pos.line > 0) {
            Json region;
            region["startLine"] = diagnostic.pos.line;
            if (diagnostic.pos.column > 0) {
                region["startColumn"] = diagnostic.pos.column;
            }
            physical["region"] = std::move(region);
        }
        result["locations"] = Json::array({{{"physicalLocation", std::move(physical)}}});
        results.push_back(std::move(result));
    }
    Json driver;
    driver["name"] = "gpuadvisor";
    driver["version"] = GPUADVISOR_VERSION;
    driver["informationUri"] = k_information_uri;
    driver["rules"] = std::move(rules);
    Json run;
    run["tool"] = {{"driver", std::move(driver)}};
    run["results"] = std::move(results);
    Json log;
    log["$schema"] = k_sarif_schema;
    log["version"] = "2.1.0";
    log["runs"] = Json::array({std::move(run)});
    write_json(log, io);
}

void write_junit(const Diagnostics& diagnostics,
                 const std::vector<std::string>& files,
                 bool strict,
                 Io& io) {
    // Each file checked is a test case, in the order checked; a diagnostic about another path
    // (one a folder listing named) gets its own.
    std::vector<std::pair<std::string, std::vector<const Diagnostic*>>> cases;
    const auto case_of = [&cases](std::string_view file) -> auto& {
        const auto found = std::find_if(
            cases.begin(), cases.end(), [file](const auto& entry) { return entry.first == file; });
        if (found != cases.end()) {
            return found->second;
        }
        cases.emplace_back(std::string(file), std::vector<const Diagnostic*>{});
        return cases.back().second;
    };
    for (const std::string& file : files) {
        case_of(file);
    }
    const auto fails = [strict](const Diagnostic& diagnostic) {
        return diagnostic.severity == Severity::error ||
               (strict && diagnostic.severity == Severity::warning);
    };
    std::size_t failures = 0;
    for (const Diagnostic& diagnostic : shown(diagnostics)) {
        case_of(diagnostic.pos.file).push_back(&diagnostic);
        if (fails(diagnostic)) {
            ++failures;
        }
    }
    const auto human = [](const Diagnostic& diagnostic) {
        std::string text = xml_text(format_diagnostic(diagnostic));
        if (!diagnostic.hint.empty()) {
            text += "\n  hint: " + xml_text(diagnostic.hint);
        }
        return text;
    };
    const std::string counts =
        fmt::format(R"(tests="{}" failures="{}" errors="0" skipped="0")", cases.size(), failures);
    io.out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           << fmt::format("<testsuites name=\"{}\" {}>\n", k_suite_name, counts)
           << fmt::format("  <testsuite name=\"{}\" {}>\n", k_suite_name, counts);
    for (const auto& [file, found] : cases) {
        io.out << fmt::format("    <testcase name=\"{}\" classname=\"catalog\"", xml_text(file));
        if (found.empty()) {
            io.out << "/>\n";
            continue;
        }
        io.out << ">\n";
        std::string out;
        for (const Diagnostic* diagnostic : found) {
            if (fails(*diagnostic)) {
                io.out << fmt::format("      <failure type=\"{}\" message=\"{}\">{}</failure>\n",
                                      xml_text(diagnostic->code),
                                      xml_text(diagnostic->message),
                                      human(*diagnostic));
            } else {
                out += human(*diagnostic) + "\n";
            }
        }
        if (!out.empty()) {
            io.out << "      <system-out>" << out << "</system-out>\n";
        }
        io.out << "    </testcase>\n";
    }
    io.out << "  </testsuite>\n</testsuites>\n";
}

} // namespace gpuadvisor::cli
