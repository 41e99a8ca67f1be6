// `catalog validate`'s reports for CI systems: GitHub Actions workflow commands, SARIF 2.1.0 and
// JUnit XML (docs/cli.md "catalog validate").
#pragma once

#include "gpuadvisor/diagnostic.hpp"
#include "io.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor::cli {

// The formats only `catalog validate` writes.
bool is_validate_only_format(OutputFormat format);

// GitHub's escaping of a workflow command's property value (file, title): %, CR, LF, ':' and
// ',' as %25, %0D, %0A, %3A, %2C; then terminal_safe for any other control byte.
std::string github_property(std::string_view text);
// ... and of its message: %, CR and LF only.
std::string github_message(std::string_view text);

// A path as a URI reference for SARIF's artifactLocation.uri: relative as given, each byte
// but the unreserved ones (RFC 3986: letters, digits, -._~) and '/' percent-encoded.
std::string uri_reference(std::string_view path);

// Text for XML 1.0 (element content and attribute values): terminal_safe first (no control
// byte but those added here, valid UTF-8), then &, <, >, " and ' as entities.
std::string xml_text(std::string_view text);

// One "::error file=...,line=...,col=...,title=code::message" line per diagnostic shown.
void write_github(const Diagnostics& diagnostics, Io& io);
// A SARIF 2.1.0 log: one run, one rule per code used, one result per diagnostic shown.
void write_sarif(const Diagnostics& diagnostics, Io& io);
// JUnit XML: a testcase per file checked, a <failure> per error (and per warning with
// --strict), other warnings and info in the testcase's <system-out>.
void write_junit(const Diagnostics& diagnostics,
                 const std::vector<std::string>& files,
                 bool strict,
                 Io& io);

} // namespace gpuadvisor::cli
