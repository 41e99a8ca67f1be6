// Diagnostics: what went wrong in an input, where, and what to do about it.
#pragma once

#include "gpuadvisor/interned.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor {

// info: worth knowing, never a fault (not counted by --strict).
enum class Severity { error, warning, info };

std::string_view to_string(Severity severity);

// A 1-based position in a file. line 0 means "the whole file".
struct SourcePos {
    InternedText file;
    std::uint32_t line = 0;
    std::uint32_t column = 0;

    bool operator==(const SourcePos&) const = default;
};

struct Diagnostic {
    SourcePos pos;
    Severity severity = Severity::error;
    std::string code;    // stable, e.g. "unknown-field"
    std::string message; // names the field path first: "gpus[2].memory_gb: ..."
    std::string hint;    // may be empty

    bool operator==(const Diagnostic&) const = default;
};

// Collects diagnostics; stops storing after a cap but keeps counting.
class Diagnostics {
  public:
    // Storage bound (memory stays small on hostile files); output shows fewer (k_shown).
    static constexpr std::size_t k_default_cap = 100000;
    static constexpr std::size_t k_shown = 100;

    explicit Diagnostics(std::size_t cap = k_default_cap) : m_cap(cap) {}

    void add(Diagnostic diagnostic);
    void error(const SourcePos& pos, std::string code, std::string message, std::string hint = {});
    void
    warning(const SourcePos& pos, std::string code, std::string message, std::string hint = {});
    void info(const SourcePos& pos, std::string code, std::string message, std::string hint = {});
    void append(const Diagnostics& other);

    const std::vector<Diagnostic>& items() const { return m_items; }
    std::size_t error_count() const { return m_errors; }
    std::size_t warning_count() const { return m_warnings; }
    std::size_t info_count() const { return m_infos; }
    std::size_t dropped() const { return m_dropped; }
    bool has_errors() const { return m_errors > 0; }

    // Sorts by file, line, column, then code (stable output whatever the check order).
    void sort();

  private:
    std::size_t m_cap;
    std::vector<Diagnostic> m_items;
    std::size_t m_errors = 0;
    std::size_t m_warnings = 0;
    std::size_t m_infos = 0;
    std::size_t m_dropped = 0;
};

// "file:line:column: severity[code]: message" (without the hint).
std::string format_diagnostic(const Diagnostic& diagnostic);

} // namespace gpuadvisor
