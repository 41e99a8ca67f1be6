// Which GPU cloud configuration trains Llama 2 7B on 1T tokens within 30 days, cheapest first?
#include <gpuadvisor/recommend.hpp>
#include <iostream>

int main() {
    const gpuadvisor::Workload ask{.kind = gpuadvisor::WorkloadKind::training,
                                   .model = "llama-2-7b",
                                   .tokens = 1e12,
                                   .deadline_hours = 30 * 24};
    const gpuadvisor::NormalizeResult normalized =
        gpuadvisor::normalize(ask, gpuadvisor::builtin_models());
    if (!normalized.workload) {
        return 2; // normalized.diagnostics say which field is wrong
    }
    const gpuadvisor::Recommendation answer =
        gpuadvisor::recommend(*normalized.workload, {}, gpuadvisor::builtin_catalog());
    if (answer.result.recommendations.empty()) {
        std::cout << "nothing fits: " << answer.result.no_fit << '\n';
        return 1;
    }
    const gpuadvisor::Candidate& best = answer.result.recommendations.front();
    std::cout << best.instance->provider << ' ' << best.instance->id << ' ' << best.row->region
              << " x" << best.count << ' ' << best.pricing << '\n';
}
