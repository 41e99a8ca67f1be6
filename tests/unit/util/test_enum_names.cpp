// An enum's table of names: a value's name, the value a name gives, the names alone; and each
// table of the core lists every value of its enum once, in the enum's order.
#include "gpuadvisor/enum_names.hpp"
#include "gpuadvisor/pricing.hpp"
#include "gpuadvisor/provenance.hpp"
#include "gpuadvisor/workload.hpp"

#include <catch2/catch.hpp>

using namespace gpuadvisor;

namespace {

enum class Shade { light, dark };
constexpr EnumNames<Shade, 2> k_shades{{{Shade::light, "light"}, {Shade::dark, "dark"}}};

// Entry i names the enum's value i: every value once, in order.
template <class Enum, std::size_t N> bool in_enum_order(const EnumNames<Enum, N>& names) {
    for (std::size_t i = 0; i < N; ++i) {
        if (static_cast<std::size_t>(names[i].value) != i) {
            return false;
        }
    }
    return true;
}

} // namespace

TEST_CASE("enum names: a value's name, a name's value, the names alone") {
    STATIC_REQUIRE(name_of(k_shades, Shade::dark) == "dark");
    STATIC_REQUIRE(name_of(k_shades, static_cast<Shade>(7)) == "light"); // not in the table
    STATIC_REQUIRE(value_named(k_shades, "light") == Shade::light);
    STATIC_REQUIRE_FALSE(value_named(k_shades, "Light")); // exact names only
    STATIC_REQUIRE_FALSE(value_named(k_shades, ""));
    STATIC_REQUIRE(names_only(k_shades) == std::array<std::string_view, 2>{"light", "dark"});
}

TEST_CASE("enum names: the core's tables list every value once, in the enum's order") {
    CHECK(in_enum_order(k_confidence_names));
    CHECK(in_enum_order(k_workload_kind_names));
    CHECK(in_enum_order(k_precision_names));
    CHECK(in_enum_order(k_finetune_method_names));
    CHECK(in_enum_order(k_plan_names));
    CHECK(to_string(Confidence::medium) == "medium");
    CHECK(parse_plan("reserved-3y") == Plan::reserved_3y);
    CHECK(plan_flag_name(Plan::subscription_monthly) == "subscription");
    CHECK(parse_precision("int4") == Precision::int4);
    CHECK_FALSE(parse_workload_kind("train"));
}
