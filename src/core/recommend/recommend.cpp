#include "gpuadvisor/recommend.hpp"

#include "gpuadvisor/assumptions.hpp"
#include "gpuadvisor/pricing.hpp"
#include "gpuadvisor/transfer.hpp"

namespace gpuadvisor {

Recommendation recommend(const NormalizedWorkload& workload,
                         const RecommendOptions& options,
                         const Catalog& catalog) {
    const Assumptions& assumptions = builtin_assumptions();
    Recommendation answer{workload, requirements(workload, assumptions), {}};
    const PricingData& pricing = builtin_pricing();
    PlanInput input{
        &answer.workload,
        &answer.requirements,
        &catalog,
        &assumptions,
        options.rules != nullptr ? options.rules : &builtin_rules(),
        options.fx != nullptr ? options.fx : &builtin_fx(),
        {pricing.spot_defaults, pricing.rules, false, catalog.discounts(), options.today},
        options.constraints,
        &catalog.transfer()};
    // Serving and desktops are replicas: one taken back does not stop the others.
    input.pricing.spot.one_job = is_finite_work(workload.kind);
    answer.result = plan(input);
    return answer;
}

} // namespace gpuadvisor
