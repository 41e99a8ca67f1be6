#include "output.hpp"

#include "text.hpp"

#include <algorithm>
#include <ostream>

namespace gpuadvisor::cli {

Json json_document(std::string_view command) {
    Json document;
    document["schema_version"] = 1;
    document["command"] = command;
    return document;
}

void write_json(const Json& document, Io& io) {
    io.out << document.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

Json diagnostic_json(const Diagnostic& diagnostic) {
    Json item;
    item["file"] = diagnostic.pos.file;
    item["line"] = diagnostic.pos.line;
    item["column"] = diagnostic.pos.column;
    item["severity"] = to_string(diagnostic.severity);
    item["code"] = diagnostic.code;
    item["message"] = diagnostic.message;
    item["hint"] = diagnostic.hint;
    return item;
}

void print_diagnostics(const Diagnostics& diagnostics, Io& io) {
    const auto& items = diagnostics.items();
    const std::size_t shown = std::min(items.size(), Diagnostics::k_shown);
    for (std::size_t i = 0; i < shown; ++i) {
        io.err << terminal_safe(format_diagnostic(items[i])) << '\n';
        if (!items[i].hint.empty()) {
            io.err << "  hint: " << terminal_safe(items[i].hint) << '\n';
        }
    }
    const std::size_t more = items.size() - shown + diagnostics.dropped();
    if (more > 0) {
        io.err << "... and " << more << " more\n";
    }
}

Json diagnostics_json(const Diagnostics& diagnostics) {
    Json list = Json::array();
    const auto& items = diagnostics.items();
    for (std::size_t i = 0; i < items.size() && i < Diagnostics::k_shown; ++i) {
        list.push_back(diagnostic_json(items[i]));
    }
    return list;
}

int fail(std::string_view command, const Diagnostics& diagnostics, int exit_code, Io& io) {
    print_diagnostics(diagnostics, io);
    if (io.format == OutputFormat::json) {
        Json document = json_document(command);
        document["ok"] = false;
        document["diagnostics"] = diagnostics_json(diagnostics);
        write_json(document, io);
    }
    return exit_code;
}

int fail(std::string_view command,
         std::string code,
         std::string message,
         std::string hint,
         int exit_code,
         Io& io) {
    Diagnostics diagnostics;
    diagnostics.error({"gpuadvisor", 0, 0}, std::move(code), std::move(message), std::move(hint));
    return fail(command, diagnostics, exit_code, io);
}

std::string cell_text(const Json& value) {
    if (value.is_string()) {
        return value.get<std::string>();
    }
    if (value.is_null()) {
        return {};
    }
    if (value.is_number_float()) {
        return format_number(value.get<double>());
    }
    return value.dump();
}

Json optional_number(const std::optional<double>& value) {
    return value ? Json(*value) : Json(nullptr);
}

double money_units(std::int64_t micros) {
    return static_cast<double>(micros) / static_cast<double>(Money::k_micros_per_unit);
}

} // namespace gpuadvisor::cli
