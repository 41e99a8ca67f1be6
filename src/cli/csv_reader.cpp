#include "csv_reader.hpp"

#include "gpuadvisor/input.hpp"
#include "text.hpp"

#include <fmt/format.h>

namespace gpuadvisor::cli {

namespace {

class Reader {
  public:
    Reader(std::string_view file, std::string_view text, Diagnostics& out)
        : m_file(file), m_text(text), m_out(out) {
        if (m_text.starts_with("\xEF\xBB\xBF")) {
            m_at = 3;
        }
    }

    void records(const std::function<bool(const CsvRecord&)>& each) {
        while (!m_stop && m_at < m_text.size()) {
            const CsvRecord record = this->record();
            const bool blank =
                record.fields.size() == 1 && record.fields[0].text.empty() && !m_quoted_seen;
            if (!m_bad && !blank && !each(record)) {
                return;
            }
        }
    }

  private:
    std::string_view m_file;
    std::string_view m_text;
    Diagnostics& m_out;
    std::size_t m_at = 0;
    std::uint32_t m_line = 1;
    std::uint32_t m_column = 1;
    bool m_stop = false;        // an error that ends the reading
    bool m_bad = false;         // an error in the current record
    bool m_quoted_seen = false; // the current record has a quoted field

    void error(std::uint32_t line,
               std::uint32_t column,
               const char* code,
               std::string message,
               std::string hint) {
        m_out.error({std::string(m_file), line, column}, code, std::move(message), std::move(hint));
        m_bad = true;
    }

    // The next character's bytes (a line end is "\n" or "\r\n"); empty at the end or on an
    // encoding error (reported; reading stops).
    std::string_view next() {
        if (m_at >= m_text.size()) {
            return {};
        }
        const char c = m_text[m_at];
        if (c == '\0' || (c == '\r' && (m_at + 1 >= m_text.size() || m_text[m_at + 1] != '\n'))) {
            error(m_line,
                  m_column,
                  "encoding",
                  c == '\0' ? "a NUL byte" : "a bare CR line end",
                  "save the sheet as UTF-8 text with LF or CRLF line ends");
            m_stop = true;
            return {};
        }
        const std::size_t length = c == '\r' ? 2 : utf8_length(m_text, m_at);
        if (length == 0) {
            error(m_line, m_column, "encoding", "not UTF-8", "save the sheet as UTF-8 text");
            m_stop = true;
            return {};
        }
        const std::string_view got = m_text.substr(m_at, length);
        m_at += length;
        if (got == "\n" || got == "\r\n") {
            ++m_line;
            m_column = 1;
            return "\n";
        }
        ++m_column;
        return got;
    }

    std::string_view peek() const {
        return m_at < m_text.size() ? m_text.substr(m_at, 1) : std::string_view();
    }

    // Skips to the end of the line (after an error in a record).
    void skip_line() {
        for (std::string_view c = next(); !c.empty() && c != "\n"; c = next()) {
        }
    }

    CsvRecord record() {
        m_bad = false;
        m_quoted_seen = false;
        CsvRecord record{{}, m_line};
        while (true) {
            CsvField field{{}, m_line, m_column};
            const bool end = peek() == "\"" ? quoted(field) : plain(field);
            record.fields.push_back(std::move(field));
            if (end || m_bad || m_stop) {
                if (m_bad && !m_stop && !end) {
                    skip_line();
                }
                return record;
            }
        }
    }

    // Reads an unquoted field; true if the record ended after it.
    bool plain(CsvField& field) {
        for (std::string_view c = next(); !c.empty(); c = next()) {
            if (c == "\n") {
                return true;
            }
            if (c == ",") {
                return false;
            }
            if (c == "\"") {
                error(m_line,
                      m_column - 1,
                      "syntax",
                      "a quote inside an unquoted field",
                      "quote the whole field and double the quote: \"a \"\"b\"\" c\"");
                return false;
            }
            field.text.append(c);
        }
        return true;
    }

    // Reads a quoted field; true if the record ended after it.
    bool quoted(CsvField& field) {
        m_quoted_seen = true;
        next(); // the opening quote
        while (true) {
            const std::string_view c = next();
            if (c.empty()) {
                if (!m_stop) {
                    error(field.line,
                          field.column,
                          "syntax",
                          "the quoted field is not closed before the end of the file",
                          "close it with a quote (a quote inside it is written \"\")");
                    m_stop = true;
                }
                return true;
            }
            if (c != "\"") {
                field.text.append(c);
                continue;
            }
            if (peek() == "\"") {
                next();
                field.text.push_back('"');
                continue;
            }
            const std::uint32_t line = m_line;
            const std::uint32_t column = m_column;
            const std::string_view after = next();
            if (after.empty() || after == "\n") {
                return true;
            }
            if (after == ",") {
                return false;
            }
            error(line,
                  column,
                  "syntax",
                  "text after the closing quote of a field",
                  "put the whole field in quotes, a quote inside it doubled (\"\")");
            return false;
        }
    }
};

} // namespace

void read_csv(std::string_view file,
              std::string_view text,
              Diagnostics& out,
              const std::function<bool(const CsvRecord&)>& each) {
    Reader(file, text, out).records(each);
}

bool has_header_width(const CsvRecord& record,
                      std::size_t width,
                      std::string_view file,
                      std::string_view hint,
                      Diagnostics& out) {
    if (record.fields.size() == width) {
        return true;
    }
    out.error({std::string(file), record.line, 1},
              "wrong-type",
              fmt::format("row: {} field(s), the header has {}", record.fields.size(), width),
              std::string(hint));
    return false;
}

} // namespace gpuadvisor::cli
