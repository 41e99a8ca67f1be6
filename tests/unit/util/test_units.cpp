#include "gpuadvisor/date.hpp"
#include "gpuadvisor/diagnostic.hpp"
#include "gpuadvisor/interned.hpp"
#include "gpuadvisor/units.hpp"

#include <catch2/catch.hpp>

#include <limits>
#include <string>
#include <thread>
#include <vector>

using namespace gpuadvisor;

TEST_CASE("money parses exactly to micro-units") {
    CHECK(parse_money_micros("32.7726") == 32'772'600);
    CHECK(parse_money_micros("0.526") == 526'000);
    CHECK(parse_money_micros("16676") == 16'676'000'000);
    CHECK(parse_money_micros("0.0000005") == 0);  // half to even: 0 stays
    CHECK(parse_money_micros("0.0000015") == 2);  // half to even: 1 -> 2
    CHECK(parse_money_micros("0.00000151") == 2); // above half rounds up
    CHECK(parse_money_micros("40.96575") == 40'965'750);
}

TEST_CASE("money refuses anything but a plain decimal") {
    for (const char* text : {"",
                             "-1",
                             "+1",
                             "1e3",
                             "01.5",
                             "1.",
                             ".5",
                             "1,5",
                             "1 ",
                             "0x10",
                             "nan",
                             "inf",
                             "1234567890123"}) {
        INFO(text);
        CHECK_FALSE(parse_money_micros(text).has_value());
    }
}

TEST_CASE("money formats exactly and trims zeros past the minimum") {
    CHECK(format_micros(32'772'600) == "32.7726");
    CHECK(format_micros(1'500'000) == "1.50");
    CHECK(format_micros(16'676'000'000, 0) == "16676");
    CHECK(format_micros(-1'250'000) == "-1.25");
    CHECK(format_micros(1) == "0.000001");
    CHECK(format_micros(0) == "0.00");
    CHECK(format_micros(0, 0) == "0");
    CHECK(format_micros(-1, 0) == "-0.000001");
    CHECK(format_micros(1'000'000, 6) == "1.000000");
    CHECK(format_micros(1'000'010, 9) == "1.000010"); // six decimals at most
    CHECK(format_micros(std::numeric_limits<std::int64_t>::max()) == "9223372036854.775807");
    CHECK(format_micros(std::numeric_limits<std::int64_t>::min()) == "-9223372036854.775808");
}

TEST_CASE("strict numbers follow the data-file grammar") {
    CHECK(parse_strict_number("19.5") == 19.5);
    CHECK(parse_strict_number("-3") == -3.0);
    CHECK(parse_strict_number("1e3") == 1000.0);
    CHECK(parse_strict_number("0.25") == 0.25);
    for (const char* text : {"010",
                             "0x10",
                             ".5",
                             "5.",
                             "1e999",
                             "nan",
                             ".nan",
                             ".inf",
                             "+1",
                             "1_000",
                             "80GB",
                             "1,5",
                             ""}) {
        INFO(text);
        CHECK_FALSE(parse_strict_number(text).has_value());
    }
}

TEST_CASE("quantities on the command line take SI suffixes") {
    CHECK(parse_quantity("7B", QuantityKind::count).value == 7e9);
    CHECK(parse_quantity("1.5T", QuantityKind::count).value == 1.5e12);
    CHECK(parse_quantity("80GB", QuantityKind::bytes).value == 80.0);
    CHECK(parse_quantity("80", QuantityKind::bytes).value == 80.0);
    CHECK(parse_quantity("30d", QuantityKind::duration_hours).value == 720.0);
    CHECK(parse_quantity("12h", QuantityKind::duration_hours).value == 12.0);
    CHECK(parse_quantity("2w", QuantityKind::duration_hours).value == 336.0);
    CHECK(parse_quantity("1e9", QuantityKind::count).value == 1e9);
    CHECK(parse_quantity("2.5E+3K", QuantityKind::count).value == 2.5e6);
    const auto bad = parse_quantity("7Q", QuantityKind::count);
    CHECK_FALSE(bad.value.has_value());
    CHECK(bad.error == "unknown unit 'Q' in '7Q'; expected a number, optionally with K, M, B or "
                       "T (e.g. 7B, 1.5T)");
    CHECK_FALSE(parse_quantity("-5", QuantityKind::count).value.has_value());
    CHECK_FALSE(parse_quantity("nan", QuantityKind::count).value.has_value());
}

TEST_CASE("numbers print without locale or exponent") {
    CHECK(format_number(19.5) == "19.5");
    CHECK(format_number(100000) == "100000");
    CHECK(format_number(0.1667) == "0.1667");
    CHECK(format_number(8.086e22) == "8.086e+22");
}

TEST_CASE("milliseconds print whole from 10 up, else to 2 significant digits") {
    CHECK(format_ms(1702.4) == "1702");
    CHECK(format_ms(12.3) == "12");
    CHECK(format_ms(9.58) == "9.6");
    CHECK(format_ms(2.517) == "2.5");
    CHECK(format_ms(0.165) == "0.17"); // not "0 ms" for a fast model
    CHECK(format_ms(0.996) == "1.0");  // two digits after rounding, not "1.00"
    CHECK(format_ms(0.0996) == "0.10");
}

TEST_CASE("dates are ISO calendar dates") {
    const auto date = parse_date("2025-06-01");
    REQUIRE(date);
    CHECK(format_date(*date) == "2025-06-01");
    CHECK(parse_date("1970-01-02")->days == 1);
    for (const char* text : {"2024-02-30", "2025-6-1", "2025/06/01", "20250601", "2025-13-01"}) {
        INFO(text);
        CHECK_FALSE(parse_date(text).has_value());
    }
    CHECK(parse_date("2024-02-29").has_value());
}

TEST_CASE("diagnostics keep every error past the shown ones, and count them all") {
    Diagnostics diagnostics;
    for (int i = 0; i < 150; ++i) {
        diagnostics.warning({"builtin", 1, 1}, "stale-price", "old");
    }
    diagnostics.error({"mine.yaml", 3, 4}, "unknown-gpu", "no GPU");
    CHECK(diagnostics.error_count() == 1);
    CHECK(diagnostics.warning_count() == 150);
    CHECK(diagnostics.items().size() == 151);
    CHECK(diagnostics.items().back().pos.file == "mine.yaml");
}

TEST_CASE("interned texts: equal texts are one object, compared and ordered by content") {
    const InternedText empty;
    CHECK(empty.empty());
    CHECK(empty == InternedText(""));
    const std::string made = std::string("data/") + "catalog.yaml";
    const InternedText a(made);
    const InternedText b("data/catalog.yaml");
    CHECK(a == b);
    CHECK(&a.str() == &b.str()); // kept once
    CHECK(a == "data/catalog.yaml");
    CHECK(std::string("data/catalog.yaml") == a);
    CHECK_FALSE(a == "data/catalog.yml");
    CHECK(InternedText("a.yaml") < InternedText("b.yaml"));
    CHECK(fmt::format("{}:{}", a, 3) == "data/catalog.yaml:3");
    // From several threads at once, still one object per text.
    std::vector<const std::string*> seen(4);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < seen.size(); ++t) {
        threads.emplace_back([&seen, t] {
            for (int i = 0; i < 1000; ++i) {
                seen[t] = &InternedText("text " + std::to_string(i)).str();
            }
        });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    for (const std::string* text : seen) {
        CHECK(text == seen.front());
        CHECK(*text == "text 999");
    }
}

TEST_CASE("interned texts: a thread's recent texts are the pool's, whatever shares their slot") {
    // "a" and "i" share a slot of the thread's recent texts (same size, ends 8 apart): each
    // evicts the other, and every answer is still the pool's one object for that text.
    const std::string* a = &InternedText("a").str();
    const std::string* i = &InternedText("i").str();
    CHECK(a != i);
    for (int round = 0; round < 3; ++round) {
        CHECK(&InternedText("a").str() == a);
        CHECK(&InternedText("i").str() == i);
        CHECK(InternedText("a") == "a");
        CHECK(InternedText("i") == "i");
    }
    // Texts that differ only inside (same size, same ends) are not mistaken for each other.
    CHECK(InternedText("us-east-1") == "us-east-1");
    CHECK(InternedText("us-west-1") == "us-west-1");
    CHECK(&InternedText("us-east-1").str() != &InternedText("us-west-1").str());
    // Another thread meets "a" first in its own recent texts, and gets the same object.
    const std::string* elsewhere = nullptr;
    std::thread([&] { elsewhere = &InternedText(std::string("a")).str(); }).join();
    CHECK(elsewhere == a);
}
