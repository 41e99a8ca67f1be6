// The price-sheet CSV importer: provider, instance, region, plan, price, currency, as_of,
// source, notes, confidence (docs/cli.md, "catalog import").
#include "catalog_import.hpp"
#include "csv_reader.hpp"
#include "gpuadvisor/spelling.hpp"
#include "sheet_values.hpp"

#include <fmt/format.h>

#include <array>
#include <map>
#include <optional>
#include <tuple>

namespace gpuadvisor::cli {

namespace {

constexpr std::array<std::string_view, 10> k_columns{"provider",
                                                     "instance",
                                                     "region",
                                                     "plan",
                                                     "price",
                                                     "currency",
                                                     "as_of",
                                                     "source",
                                                     "notes",
                                                     "confidence"};
constexpr std::size_t k_required = 8; // the first eight
// Errors after which a file is read no further (Diagnostics would keep counting, slowly).
constexpr std::size_t k_max_errors = 1000;
bool is_text(std::string_view text) {
    for (const char c : text) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
            return false;
        }
    }
    return text.size() <= 4096;
}

// One file's rows against the header's columns.
class Sheet {
  public:
    Sheet(const std::string& file, const ImportContext& context, ImportResult& result)
        : m_file(file), m_context(context), m_result(result) {}

    // The header, then each row; false to stop reading (a bad header, too many errors).
    bool take(const CsvRecord& record) {
        if (m_width == 0) {
            return header(record);
        }
        if (m_result.diagnostics.error_count() >= k_max_errors) {
            error(
                {m_file, record.line, 1},
                "limit",
                fmt::format("more than {} errors: the rest of the file is not read", k_max_errors),
                "fix these and import again");
            return false;
        }
        row(record);
        return true;
    }

    // After the last record: a file without a header is an error.
    void finish() {
        if (m_width == 0 && m_result.diagnostics.error_count() == m_errors_before) {
            error({m_file, 1, 1},
                  "missing-field",
                  "the sheet has no header row",
                  fmt::format("start it with the header: {}", fmt::join(k_columns, ",")));
        }
    }

  private:
    const std::string& m_file;
    const ImportContext& m_context;
    ImportResult& m_result;
    std::array<std::optional<std::size_t>, k_columns.size()> m_index; // column -> field number
    std::size_t m_width = 0; // fields of the header; 0 before it
    std::size_t m_errors_before = m_result.diagnostics.error_count();
    std::map<std::tuple<std::string, std::string, std::string, Plan>, std::uint32_t> m_seen;
    const CsvRecord* m_record = nullptr;
    bool m_row_ok = true;

    void error(SourcePos pos, const char* code, std::string message, std::string hint) {
        m_result.diagnostics.error(pos, code, std::move(message), std::move(hint));
        m_row_ok = false;
    }

    bool header(const CsvRecord& record) {
        const std::vector<std::string> known(k_columns.begin(), k_columns.end());
        bool ok = true;
        for (std::size_t i = 0; i < record.fields.size(); ++i) {
            const CsvField& field = record.fields[i];
            const SourcePos pos{m_file, field.line, field.column};
            const auto found = std::find(k_columns.begin(), k_columns.end(), field.text);
            if (found == k_columns.end()) {
                const std::string hint = did_you_mean(nearest_names(field.text, known));
                error(pos,
                      "unknown-field",
                      fmt::format("header: unknown column '{}'", field.text),
                      hint.empty() ? fmt::format("the columns are {}", fmt::join(k_columns, ", "))
                                   : hint);
                ok = false;
            } else if (auto& index = m_index[static_cast<std::size_t>(found - k_columns.begin())]) {
                error(pos,
                      "duplicate-key",
                      fmt::format("header: column '{}' twice", field.text),
                      fmt::format("the first is column {}", record.fields[*index].column));
                ok = false;
            } else {
                index = i;
            }
        }
        for (std::size_t c = 0; c < k_required; ++c) {
            if (!m_index[c]) {
                error({m_file, record.line, 1},
                      "missing-field",
                      fmt::format("header: no column '{}'", k_columns[c]),
                      fmt::format(
                          "the required columns are {}",
                          fmt::join(k_columns.begin(), k_columns.begin() + k_required, ", ")));
                ok = false;
            }
        }
        m_width = record.fields.size();
        return ok;
    }

    // The field of a column, or nullptr for an optional column the header does not have.
    const CsvField* field(std::size_t column) const {
        return m_index[column] ? &m_record->fields[*m_index[column]] : nullptr;
    }
    SourcePos pos(const CsvField& field) const { return {m_file, field.line, field.column}; }

    // The column's text, checked as non-empty text (an error names the column).
    std::optional<std::string> text(std::size_t column, bool required) {
        const CsvField* f = field(column);
        if (f == nullptr || (f->text.empty() && !required)) {
            return std::string();
        }
        if (f->text.empty()) {
            error(pos(*f),
                  "missing-field",
                  fmt::format("{}: empty", k_columns[column]),
                  "every row gives provider, instance, region, plan, price, currency, as_of "
                  "and source");
            return std::nullopt;
        }
        if (!is_text(f->text)) {
            error(pos(*f),
                  "bad-value",
                  fmt::format("{}: a control character (a line break, a tab) or over 4096 bytes",
                              k_columns[column]),
                  "write the text on one line, without tabs");
            return std::nullopt;
        }
        return f->text;
    }

    void row(const CsvRecord& record);
    const InstanceType* instance(const std::string& provider, const CsvField& f);
};

const InstanceType* Sheet::instance(const std::string& provider, const CsvField& f) {
    const auto matches = m_context.catalog.match_instances(f.text);
    for (const InstanceType* each : matches) {
        if (each->provider == provider) {
            return each;
        }
    }
    if (!matches.empty()) {
        error(pos(f),
              "unknown-reference",
              fmt::format("instance: '{}' is an instance type of {}, not of {}",
                          f.text,
                          matches[0]->provider,
                          provider),
              fmt::format("set provider to {}, or name an instance type of {}",
                          matches[0]->provider,
                          provider));
        return nullptr;
    }
    const std::string hint = did_you_mean(m_context.catalog.instance_names_near(f.text));
    error(pos(f),
          "unknown-reference",
          fmt::format("instance: no {} instance type is called '{}'", provider, f.text),
          hint.empty() ? "import prices of instance types the catalog has (see 'gpuadvisor "
                         "catalog list instances'); add new ones with --catalog first"
                       : hint);
    return nullptr;
}

void Sheet::row(const CsvRecord& record) {
    m_record = &record;
    m_row_ok = true;
    if (!has_header_width(record,
                          m_width,
                          m_file,
                          "a comma inside a value needs the value in quotes: \"a, b\"",
                          m_result.diagnostics)) {
        m_row_ok = false;
        return;
    }
    ImportedPrice entry;
    entry.pos = {m_file, record.line, 1};
    const auto provider = text(0, true);
    const auto region = text(2, true);
    const auto plan_text = text(3, true);
    const auto currency = text(5, true);
    const auto as_of = text(6, true);
    const auto source = text(7, true);
    const auto notes = text(8, false);
    const auto confidence = text(9, false);
    // A problem of the value of `column`, at its field.
    const auto report = [&](std::size_t column, SheetCheck problem) {
        if (problem) {
            error(pos(*field(column)),
                  problem->code,
                  std::move(problem->message),
                  std::move(problem->hint));
        }
        return !problem;
    };
    const Provider* known = nullptr;
    if (provider) {
        report(0, check_provider(m_context.catalog, *provider, known));
    }
    const InstanceType* type = nullptr;
    if (field(1)->text.empty()) {
        error(pos(*field(1)), "missing-field", "instance: empty", "name the instance type");
    } else if (known != nullptr) {
        type = instance(known->id, *field(1));
    }
    if (region) {
        report(2, check_region(*region, known));
    }
    Plan chosen = Plan::on_demand;
    const bool plan = plan_text && report(3, check_plan(*plan_text, chosen));
    if (currency) {
        report(5, check_currency(*currency));
    }
    Date day{};
    const bool date = as_of && report(6, check_as_of(*as_of, m_context.today, day));
    std::optional<Confidence> sure = Confidence::high;
    if (confidence && !confidence->empty()) {
        sure = parse_confidence(*confidence);
        if (!sure) {
            error(pos(*field(9)),
                  "bad-value",
                  fmt::format("confidence: '{}' is not high, medium or low", *confidence),
                  "leave it empty for high");
        }
    }
    std::int64_t micros = 0;
    if (field(4)->text.empty()) {
        error(pos(*field(4)), "missing-field", "price: empty", "leave an unsold plan's row out");
    } else if (plan) {
        report(4, check_price(field(4)->text, chosen, currency.value_or(""), m_context.fx, micros));
    }
    if (!m_row_ok || type == nullptr || !plan || !date || !sure) {
        return;
    }
    const auto key = std::make_tuple(type->provider, type->id, *region, chosen);
    const auto [first, fresh] = m_seen.emplace(key, record.line);
    if (!fresh) {
        error({m_file, record.line, 1},
              "duplicate-id",
              fmt::format("row: {} {} {} {} again", type->provider, type->id, *region, *plan_text),
              fmt::format("the first is line {}; keep one of them", first->second));
        return;
    }
    entry.provider = type->provider;
    entry.instance = type->id;
    entry.region = *region;
    entry.plan = chosen;
    entry.micros = micros;
    entry.currency = *currency;
    entry.as_of = day;
    entry.source = *source;
    entry.notes = *notes;
    entry.confidence = *sure;
    m_result.prices.push_back(std::move(entry));
}

} // namespace

ImportResult import_sheet(const std::vector<std::string>& files, const ImportContext& context) {
    ImportResult result;
    for (const std::string& file : files) {
        const auto text = read_file_capped(file, LoadLimits{}, result.diagnostics);
        if (!text) {
            continue;
        }
        Sheet sheet(file, context, result);
        read_csv(
            file, *text, result.diagnostics, [&](const CsvRecord& r) { return sheet.take(r); });
        sheet.finish();
    }
    return result;
}

} // namespace gpuadvisor::cli
