// ISO 4217 currency codes: what a catalog's `currency` may be.
#pragma once

#include <string_view>

namespace gpuadvisor {

// An active code of ISO 4217 list one (currencies, funds, precious metals), but for XTS (testing)
// and XXX (no currency).
bool is_iso4217_code(std::string_view code);

// For a code that is not one: the code meant, where one is known (a withdrawn code's successor,
// a common name such as RMB for CNY), else empty.
std::string_view iso4217_code_meant(std::string_view code);

} // namespace gpuadvisor
