// The AWS importer's plans: a kept product's terms -> on-demand and effective-hourly reserved
// prices (hourly + upfront / hours of the term, as ec2instances.info computes them).
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/fx.hpp"
#include "import_aws.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace gpuadvisor::cli {

struct AwsPlanPrice {
    Plan plan = Plan::on_demand;
    std::int64_t micros = 0;
    std::string notes;
    AwsPos pos;
};

// The prices of one product's terms: on_demand, and reserved_1y / reserved_3y from the
// standard No Upfront terms, the other reserved variants named in their notes. Problems
// (a price "abc", negative, a term twice, an unknown lease) go to `problems`.
std::vector<AwsPlanPrice> aws_plan_prices(const std::vector<const AwsTerm*>& terms,
                                          const FxTable& fx,
                                          std::vector<AwsProblem>& problems);

} // namespace gpuadvisor::cli
