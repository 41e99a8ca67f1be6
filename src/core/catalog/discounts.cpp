#include "gpuadvisor/discounts.hpp"

#include "gpuadvisor/units.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gpuadvisor {

namespace {

__extension__ using Int128 = __int128;

bool names(const std::vector<std::string>& list, const std::string& value) {
    return list.empty() || std::find(list.begin(), list.end(), value) != list.end();
}

} // namespace

int discount_rank(const Discount& discount) {
    const int scope = !discount.instance.empty() ? 2 : !discount.family.empty() ? 1 : 0;
    return scope * 4 + (discount.regions.empty() ? 0 : 2) + (discount.plans.empty() ? 0 : 1);
}

bool discount_covers(const Discount& discount, const Offer& offer, Plan plan) {
    const InstanceType& instance = *offer.instance;
    return discount.provider == instance.provider &&
           (discount.instance.empty() || to_lower(discount.instance) == to_lower(instance.id)) &&
           (discount.family.empty() || discount.family == instance.family) &&
           names(discount.regions, offer.prices->region) &&
           (discount.plans.empty() ||
            std::find(discount.plans.begin(), discount.plans.end(), plan) != discount.plans.end());
}

const Discount*
find_discount(std::span<const Discount> discounts, const Offer& offer, Plan plan, Date today) {
    const Discount* best = nullptr;
    for (const Discount& discount : discounts) {
        if (discount.expires && *discount.expires < today) {
            continue;
        }
        if (discount_covers(discount, offer, plan) &&
            (best == nullptr || discount_rank(discount) > discount_rank(*best))) {
            best = &discount;
        }
    }
    return best;
}

std::int64_t apply_discount(std::int64_t list_micros, const Discount& discount) {
    const Int128 scaled = static_cast<Int128>(list_micros) * (1'000'000 - discount.off_ppm);
    Int128 quotient = scaled / 1'000'000;
    const Int128 twice_remainder = (scaled % 1'000'000) * 2;
    if (twice_remainder > 1'000'000 || (twice_remainder == 1'000'000 && quotient % 2 != 0)) {
        quotient += 1;
    }
    return static_cast<std::int64_t>(quotient);
}

double discount_percent(const Discount& discount) {
    return static_cast<double>(discount.off_ppm) / 10'000;
}

std::string describe_discount(const Discount& discount) {
    return fmt::format("{} ({}% off; {})",
                       discount.id,
                       format_number(discount_percent(discount)),
                       discount.provenance.source);
}

} // namespace gpuadvisor
