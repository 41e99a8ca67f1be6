#include "gpuadvisor/diagnostic.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

namespace gpuadvisor {

std::string_view to_string(Severity severity) {
    switch (severity) {
    case Severity::error:
        return "error";
    case Severity::warning:
        return "warning";
    case Severity::info:
        return "info";
    }
    return "error";
}

void Diagnostics::add(Diagnostic diagnostic) {
    (diagnostic.severity == Severity::error     ? m_errors
     : diagnostic.severity == Severity::warning ? m_warnings
                                                : m_infos) += 1;
    if (m_items.size() >= m_cap) {
        ++m_dropped;
        return;
    }
    m_items.push_back(std::move(diagnostic));
}

void Diagnostics::error(const SourcePos& pos,
                        std::string code,
                        std::string message,
                        std::string hint) {
    add({pos, Severity::error, std::move(code), std::move(message), std::move(hint)});
}

void Diagnostics::warning(const SourcePos& pos,
                          std::string code,
                          std::string message,
                          std::string hint) {
    add({pos, Severity::warning, std::move(code), std::move(message), std::move(hint)});
}

void Diagnostics::info(const SourcePos& pos,
                       std::string code,
                       std::string message,
                       std::string hint) {
    add({pos, Severity::info, std::move(code), std::move(message), std::move(hint)});
}

void Diagnostics::append(const Diagnostics& other) {
    m_errors += other.m_errors;
    m_warnings += other.m_warnings;
    m_infos += other.m_infos;
    m_dropped += other.m_dropped;
    for (const auto& item : other.m_items) {
        if (m_items.size() >= m_cap) {
            ++m_dropped;
        } else {
            m_items.push_back(item);
        }
    }
}

void Diagnostics::sort() {
    std::stable_sort(m_items.begin(), m_items.end(), [](const Diagnostic& a, const Diagnostic& b) {
        return std::tie(a.pos.file, a.pos.line, a.pos.column, a.code, a.message) <
               std::tie(b.pos.file, b.pos.line, b.pos.column, b.code, b.message);
    });
}

std::string format_diagnostic(const Diagnostic& d) {
    std::string where = d.pos.file;
    if (d.pos.line > 0) {
        where += fmt::format(":{}:{}", d.pos.line, d.pos.column);
    }
    return fmt::format("{}: {}[{}]: {}", where, to_string(d.severity), d.code, d.message);
}

} // namespace gpuadvisor
