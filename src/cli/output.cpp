#include "output.hpp"

#include "gpuadvisor/date.hpp"
#include "gpuadvisor/units.hpp"
#include "text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <ostream>

namespace gpuadvisor::cli {

bool write_text_file(const std::string& path, std::string_view text) {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file.write(text.data(), static_cast<std::streamsize>(text.size()));
    file.close();
    return !file.fail();
}

Json json_document(std::string_view command) {
    Json document;
    document["schema_version"] = k_json_schema_version;
    document["command"] = command;
    document["ok"] = true;
    return document;
}

void write_json(const Json& document, Io& io) {
    io.out << document.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

Json diagnostic_json(const Diagnostic& diagnostic) {
    Json item;
    item["file"] = diagnostic.pos.file;
    // Lines and columns are 1-based: 0 is no position (a usage error, a failure of the run).
    item["line"] = diagnostic.pos.line > 0 ? Json(diagnostic.pos.line) : Json(nullptr);
    item["column"] = diagnostic.pos.column > 0 ? Json(diagnostic.pos.column) : Json(nullptr);
    item["severity"] = to_string(diagnostic.severity);
    item["code"] = diagnostic.code;
    item["message"] = diagnostic.message;
    item["hint"] = diagnostic.hint.empty() ? Json(nullptr) : Json(diagnostic.hint);
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

Json count_json(double value) {
    constexpr double k_exact = 9'007'199'254'740'992.0; // 2^53: every whole double below is exact
    if (std::isfinite(value) && std::trunc(value) == value && std::abs(value) < k_exact) {
        return Json(static_cast<std::int64_t>(value));
    }
    return Json(value);
}

Json rate_amount(std::optional<std::int64_t> micros) {
    return micros ? Json(format_micros(*micros, 2)) : Json(nullptr);
}

Json billed_amount(std::optional<std::int64_t> micros) {
    return micros ? Json(format_cents(*micros)) : Json(nullptr);
}

Json money_json(std::string_view currency, std::initializer_list<MoneyAmount> amounts) {
    Json money;
    money["currency"] = currency;
    for (const MoneyAmount& amount : amounts) {
        money[std::string(amount.key)] = amount.amount;
    }
    return money;
}

Json total_json(std::string_view currency, std::optional<std::int64_t> micros) {
    return money_json(currency, {{"total", billed_amount(micros)}});
}

Json conversion_json(const FxTable& fx, std::string_view from, std::string_view to) {
    const FxRate* source = fx.find(from);
    const FxRate* target = fx.find(to);
    if (from == to || source == nullptr || target == nullptr || source->per_usd <= 0) {
        return nullptr;
    }
    std::optional<Date> as_of;
    std::vector<std::string> sources;
    for (const FxRate* rate : {source, target}) {
        if (rate->currency != "USD") { // (USD is 1 by definition: no date, no source)
            as_of = as_of ? std::min(*as_of, rate->provenance.as_of) : rate->provenance.as_of;
            sources.push_back(rate->provenance.source.str());
        }
    }
    const double rate = std::stod(fmt::format("{:.8g}", target->per_usd / source->per_usd));
    return {{"from", from},
            {"to", to},
            {"rate", rate},
            {"as_of", as_of ? Json(format_date(*as_of)) : Json(nullptr)},
            {"source",
             sources.empty() ? Json(nullptr) : Json(fmt::format("{}", fmt::join(sources, "; ")))}};
}

namespace {

// The currencies converted from: each once, in code order, `to` and those without a rate left
// out.
std::vector<std::string>
converted_from(const FxTable& fx, std::vector<std::string> from, std::string_view to) {
    std::erase_if(from, [&](const std::string& code) {
        return code == to || fx.find(code) == nullptr || fx.find(to) == nullptr;
    });
    std::sort(from.begin(), from.end());
    from.erase(std::unique(from.begin(), from.end()), from.end());
    return from;
}

} // namespace

Json conversions_json(const FxTable& fx, std::vector<std::string> from, std::string_view to) {
    Json list = Json::array();
    for (const std::string& currency : converted_from(fx, std::move(from), to)) {
        if (Json conversion = conversion_json(fx, currency, to); !conversion.is_null()) {
            list.push_back(std::move(conversion));
        }
    }
    return list;
}

std::vector<std::string>
conversion_lines(const FxTable& fx, std::vector<std::string> from, std::string_view to) {
    std::vector<std::string> lines;
    for (const std::string& currency : converted_from(fx, std::move(from), to)) {
        lines.push_back(fx.describe(currency, to));
    }
    return lines;
}

} // namespace gpuadvisor::cli
