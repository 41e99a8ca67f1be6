#include "util/currency_codes.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace gpuadvisor {

namespace {

// ISO 4217 list one, alphabetic codes in force on 2026-01-01 (amendments up to number 180:
// XCG replaced ANG on 2025-03-31, ZWG replaced ZWL in 2024, XAD added 2025-05-12, BGN withdrawn
// when Bulgaria took the euro on 2026-01-01). Source: the ISO 4217 maintenance agency's list
// one as mirrored in OpenJDK (test/jdk/java/util/Currency/ISO4217-list-one.txt, amendment
// 179) with amendment 180's changes. Sorted, for a binary search.
constexpr std::array<std::string_view, 176> k_codes{
    "AED", "AFN", "ALL", "AMD", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT", "BHD",
    "BIF", "BMD", "BND", "BOB", "BOV", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD", "CAD", "CDF",
    "CHE", "CHF", "CHW", "CLF", "CLP", "CNY", "COP", "COU", "CRC", "CUP", "CVE", "CZK", "DJF",
    "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP", "GEL", "GHS", "GIP",
    "GMD", "GNF", "GTQ", "GYD", "HKD", "HNL", "HTG", "HUF", "IDR", "ILS", "INR", "IQD", "IRR",
    "ISK", "JMD", "JOD", "JPY", "KES", "KGS", "KHR", "KMF", "KPW", "KRW", "KWD", "KYD", "KZT",
    "LAK", "LBP", "LKR", "LRD", "LSL", "LYD", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP",
    "MRU", "MUR", "MVR", "MWK", "MXN", "MXV", "MYR", "MZN", "NAD", "NGN", "NIO", "NOK", "NPR",
    "NZD", "OMR", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "PYG", "QAR", "RON", "RSD", "RUB",
    "RWF", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SOS", "SRD", "SSP", "STN",
    "SVC", "SYP", "SZL", "THB", "TJS", "TMT", "TND", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH",
    "UGX", "USD", "USN", "UYI", "UYU", "UYW", "UZS", "VED", "VES", "VND", "VUV", "WST", "XAD",
    "XAF", "XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XCD", "XCG", "XDR", "XOF", "XPD", "XPF",
    "XPT", "XSU", "XUA", "YER", "ZAR", "ZMW", "ZWG"};

// Codes people write that ISO 4217 does not have (now): the code meant.
constexpr std::array<std::pair<std::string_view, std::string_view>, 17> k_meant{{
    {"ANG", "XCG"}, // withdrawn 2025-03-31
    {"BGN", "EUR"}, // withdrawn 2026-01-01
    {"CUC", "CUP"}, // withdrawn 2021
    {"EEK", "EUR"},
    {"HRK", "EUR"}, // withdrawn 2023-01-01
    {"LTL", "EUR"},
    {"LVL", "EUR"},
    {"MRO", "MRU"},
    {"NTD", "TWD"}, // common names
    {"RMB", "CNY"},
    {"SLL", "SLE"}, // withdrawn 2024
    {"STD", "STN"},
    {"UKP", "GBP"},
    {"VEF", "VES"},
    {"XXX", "USD"}, // "no currency": a price has one
    {"ZWL", "ZWG"}, // withdrawn 2024
    {"XTS", "USD"}, // the testing code
}};

} // namespace

bool is_iso4217_code(std::string_view code) {
    static_assert(std::is_sorted(k_codes.begin(), k_codes.end()));
    return std::binary_search(k_codes.begin(), k_codes.end(), code);
}

std::string_view iso4217_code_meant(std::string_view code) {
    for (const auto& [written, meant] : k_meant) {
        if (written == code) {
            return meant;
        }
    }
    return {};
}

} // namespace gpuadvisor
