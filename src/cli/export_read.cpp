// `export --from FILE`: a row of a `recommend -o json` document, read as untrusted input.
#include "export_source.hpp"
#include "gpuadvisor/input.hpp"
#include "gpuadvisor/units.hpp"
#include "gpuadvisor/workload.hpp"
#include "output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace gpuadvisor::cli {

namespace {

constexpr std::size_t k_max_depth = 64;

struct Reader {
    const std::string& path;
    Diagnostics& diagnostics;

    void error(const std::string& pointer, const std::string& message, std::string hint) {
        diagnostics.error(SourcePos{InternedText(path), 0, 0},
                          "bad-value",
                          fmt::format("{}: {}", pointer, message),
                          std::move(hint));
    }
};

// 1-based line and column of a byte offset.
SourcePos position(const std::string& path, const std::string& text, std::size_t offset) {
    offset = std::min(offset, text.size());
    const auto begin = text.begin();
    const auto end = begin + static_cast<std::ptrdiff_t>(offset);
    const auto line = std::count(begin, end, '\n') + 1;
    const auto last = text.rfind('\n', offset == 0 ? 0 : offset - 1);
    const std::size_t column =
        last == std::string::npos || offset == 0 ? offset + 1 : offset - last;
    return {
        InternedText(path), static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(column)};
}

// The offset where nesting passes k_max_depth, outside strings (nlohmann's parser and its
// destructor recurse per level).
std::optional<std::size_t> too_deep(const std::string& text) {
    std::size_t depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\') {
                ++i;
            } else if (c == '"') {
                in_string = false;
            }
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > k_max_depth) {
                return i;
            }
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return std::nullopt;
}

// A name that goes into YAML, labels and file names as it is: letters, digits and ._:/+-.
bool is_safe_name(const std::string& text) {
    if (text.empty() || text.size() > 128 || !std::isalnum(static_cast<unsigned char>(text[0]))) {
        return false;
    }
    return std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) ||
               std::string_view("._:/+-").find(c) != std::string_view::npos;
    });
}

const Json* member(Reader& r,
                   const Json& object,
                   const std::string& pointer,
                   const char* key,
                   bool required = true) {
    const auto it = object.find(key);
    if (it == object.end() || (it->is_null() && required)) {
        if (required) {
            r.error(pointer + "/" + key,
                    it == object.end() ? "missing" : "is null",
                    "is the file a 'recommend -o json' answer?");
        }
        return nullptr;
    }
    return &*it;
}

std::optional<std::string>
name_field(Reader& r, const Json& object, const std::string& pointer, const char* key) {
    const Json* value = member(r, object, pointer, key);
    if (value == nullptr) {
        return std::nullopt;
    }
    if (!value->is_string() || !is_safe_name(value->get<std::string>())) {
        r.error(
            pointer + "/" + key,
            fmt::format("expected a name (letters, digits, ._:/+-; at most 128), got {}",
                        value->dump(-1, ' ', false, Json::error_handler_t::replace).substr(0, 60)),
            "the file was changed after 'recommend -o json' wrote it; write it again");
        return std::nullopt;
    }
    return value->get<std::string>();
}

std::optional<double> number_field(Reader& r,
                                   const Json& object,
                                   const std::string& pointer,
                                   const char* key,
                                   double min,
                                   double max,
                                   bool whole) {
    const Json* value = member(r, object, pointer, key);
    if (value == nullptr) {
        return std::nullopt;
    }
    const double number = value->is_number() ? value->get<double>() : std::nan("");
    if (!std::isfinite(number) || number < min || number > max ||
        (whole && number != std::floor(number))) {
        r.error(
            pointer + "/" + key,
            fmt::format("expected {} in [{} - {}], got {}",
                        whole ? "a whole number" : "a number",
                        min,
                        max,
                        value->dump(-1, ' ', false, Json::error_handler_t::replace).substr(0, 60)),
            "the file was changed after 'recommend -o json' wrote it; write it again");
        return std::nullopt;
    }
    return number;
}

std::optional<Json>
parse(const std::string& path, const std::string& text, Diagnostics& diagnostics) {
    if (const auto deep = too_deep(text)) {
        diagnostics.error(position(path, text, *deep),
                          "too-deep",
                          fmt::format("nested more than {} levels", k_max_depth),
                          "a recommend answer is a few levels deep; is this the right file?");
        return std::nullopt;
    }
    try {
        return Json::parse(text);
    } catch (const Json::parse_error& error) {
        const std::string what = error.what();
        const auto colon = what.find(": ", what.find("column"));
        diagnostics.error(position(path, text, error.byte == 0 ? 0 : error.byte - 1),
                          "bad-json",
                          colon == std::string::npos ? what : what.substr(colon + 2),
                          "write it with 'gpuadvisor recommend ... -o json > FILE'");
        return std::nullopt;
    }
}

bool check_envelope(Reader& r, const Json& document) {
    if (!document.is_object()) {
        r.error("", "expected a JSON object", "write it with 'gpuadvisor recommend ... -o json'");
        return false;
    }
    const Json* version = member(r, document, "", "schema_version");
    if (version == nullptr) {
        return false;
    }
    if (!version->is_number_integer() || version->get<std::int64_t>() != k_json_schema_version) {
        r.error(
            "/schema_version",
            fmt::format("is {}; this gpuadvisor reads version {}",
                        version->dump(-1, ' ', false, Json::error_handler_t::replace).substr(0, 20),
                        k_json_schema_version),
            "write the file again with this gpuadvisor's 'recommend -o json'");
        return false;
    }
    const Json* command = member(r, document, "", "command");
    if (command != nullptr && *command != "recommend") {
        r.error("/command",
                fmt::format(
                    "{} is not a recommend answer",
                    command->dump(-1, ' ', false, Json::error_handler_t::replace).substr(0, 40)),
                "export reads what 'gpuadvisor recommend ... -o json' writes");
        return false;
    }
    return command != nullptr;
}

std::optional<ExportSource> read_row(Reader& r, const Json& row, const std::string& at) {
    if (!row.is_object()) {
        r.error(at, "expected an object", "write the file again with 'recommend -o json'");
        return std::nullopt;
    }
    ExportSource s;
    const auto provider = name_field(r, row, at, "provider");
    const auto instance = name_field(r, row, at, "instance");
    const auto region = name_field(r, row, at, "region");
    const auto gpu = name_field(r, row, at, "gpu");
    const auto pricing = name_field(r, row, at, "pricing");
    const auto per_instance = number_field(r, row, at, "gpus_per_instance", 0.01, 1024, false);
    const auto count = number_field(r, row, at, "instance_count", 1, 100000, true);
    const Json* cost = member(r, row, at, "cost");
    if (!provider || !instance || !region || !gpu || !pricing || !per_instance || !count ||
        cost == nullptr) {
        return std::nullopt;
    }
    s.provider = *provider;
    s.instance = *instance;
    s.region = *region;
    s.gpu = *gpu;
    s.pricing = *pricing;
    s.gpus_per_instance = *per_instance;
    s.instance_count = static_cast<int>(*count);
    const auto currency =
        cost->is_object() ? name_field(r, *cost, at + "/cost", "currency") : std::nullopt;
    if (!currency) {
        if (!cost->is_object()) {
            r.error(at + "/cost", "expected a money object", "write the file again");
        }
        return std::nullopt;
    }
    s.currency = *currency;
    const Json* per_hour = member(r, *cost, at + "/cost", "per_hour", false);
    if (per_hour != nullptr && !per_hour->is_null()) {
        const auto micros =
            per_hour->is_string() ? parse_money_micros(per_hour->get<std::string>()) : std::nullopt;
        if (!micros) {
            r.error(at + "/cost/per_hour",
                    "expected a decimal string such as \"32.7726\"",
                    "money in gpuadvisor's JSON is an exact decimal string");
            return std::nullopt;
        }
        s.per_hour_micros = micros;
    }
    const Json* estimate = member(r, row, at, "estimate", false);
    if (estimate != nullptr && estimate->is_object() && estimate->contains("hours") &&
        !(*estimate)["hours"].is_null()) {
        s.hours = number_field(r, *estimate, at + "/estimate", "hours", 0, 1e9, false);
        if (!s.hours) {
            return std::nullopt;
        }
    }
    return s;
}

} // namespace

std::optional<ExportSource>
read_recommendation(const std::string& path, int rank, Diagnostics& diagnostics) {
    LoadLimits limits;
    limits.max_file_bytes = 16u << 20;
    const auto text = read_file_capped(path, limits, diagnostics);
    if (!text) {
        return std::nullopt;
    }
    const auto document = parse(path, *text, diagnostics);
    Reader r{path, diagnostics};
    if (!document || !check_envelope(r, *document)) {
        return std::nullopt;
    }
    const Json* rows = member(r, *document, "", "recommendations");
    if (rows == nullptr) {
        return std::nullopt;
    }
    if (!rows->is_array() || rows->empty()) {
        r.error("/recommendations",
                rows->is_array() ? "empty: the recommendation found no configuration"
                                 : "expected a list",
                "relax the constraints and run recommend again");
        return std::nullopt;
    }
    if (static_cast<std::size_t>(rank) > rows->size()) {
        r.error("/recommendations",
                fmt::format("--rank {}: the file has {} row(s)", rank, rows->size()),
                fmt::format("choose --rank 1 to {}", rows->size()));
        return std::nullopt;
    }
    const std::string at = fmt::format("/recommendations/{}", rank - 1);
    auto source = read_row(r, (*rows)[static_cast<std::size_t>(rank - 1)], at);
    const Json* workload = member(r, *document, "", "workload");
    if (!source || workload == nullptr || !workload->is_object()) {
        return std::nullopt;
    }
    const auto kind = name_field(r, *workload, "/workload", "kind");
    if (!kind) {
        return std::nullopt;
    }
    if (!value_named(k_workload_kind_names, *kind)) {
        r.error("/workload/kind",
                fmt::format("'{}' is not a workload kind", *kind),
                "training, finetune, inference, hpc or graphics");
        return std::nullopt;
    }
    source->kind = *kind;
    const auto model = workload->find("model");
    if (model != workload->end() && model->is_string()) {
        source->model = model->get<std::string>().substr(0, 128); // words only: always quoted
    }
    source->rank = rank;
    return source;
}

} // namespace gpuadvisor::cli
