// RFC 4180 CSV: quoted fields, "" escapes, CRLF or LF line ends, a UTF-8 BOM tolerated.
#pragma once

#include "gpuadvisor/diagnostic.hpp"
#include "gpuadvisor/input.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor::cli {

struct CsvField {
    std::string text;
    std::uint32_t line = 0;
    std::uint32_t column = 0; // 1-based, in characters (code points), of the field's start
};

struct CsvRecord {
    std::vector<CsvField> fields;
    std::uint32_t line = 0;
};

// Gives `each` the records of `text` one by one (blank lines left out) until it returns false.
// Malformed UTF-8, a NUL or a bare CR, an unterminated quote, a quote inside an unquoted field or
// text after a closing quote is an error at its place (code `encoding` or `syntax`); the record
// with it is left out, and an encoding error or an unterminated quote ends the reading. The
// file's bytes are read with read_file_capped (gpuadvisor/input.hpp), as catalog files are.
void read_csv(std::string_view file,
              std::string_view text,
              Diagnostics& out,
              const std::function<bool(const CsvRecord&)>& each);

// True when `record` has `width` fields (the header's count); otherwise a `wrong-type` error at
// the record's line, with `hint` on the likely cause.
bool has_header_width(const CsvRecord& record,
                      std::size_t width,
                      std::string_view file,
                      std::string_view hint,
                      Diagnostics& out);

} // namespace gpuadvisor::cli
