// Which negotiated discount applies to an offer's plan, and what it leaves to pay.
// Discounts come from users' catalog files (docs/catalog-format.md, "Discounts").
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/date.hpp"

#include <cstdint>
#include <span>
#include <string>

namespace gpuadvisor {

// How specific a discount is: naming an instance beats naming a family beats the whole
// provider; at the same level, naming regions, then plans, is more specific.
int discount_rank(const Discount& discount);

// True if the discount names this offer's provider and matches its instance, family,
// region and the plan.
bool discount_covers(const Discount& discount, const Offer& offer, Plan plan);

// The most specific unexpired discount covering the plan on the offer; nullptr if none.
const Discount*
find_discount(std::span<const Discount> discounts, const Offer& offer, Plan plan, Date today);

// The price after the discount, exact (rounded half to even to the micro-unit).
std::int64_t apply_discount(std::int64_t list_micros, const Discount& discount);

// The share off as a percentage: 12.5 for 125000 ppm.
double discount_percent(const Discount& discount);

// "aws-edp (12% off; Enterprise agreement 2026)".
std::string describe_discount(const Discount& discount);

} // namespace gpuadvisor
