// --dataset-tb in the planner: an option's transfer time, egress and storage, added to its
// hours and totals before the deadline, the budget and the ranking see them.
#include "planner/planner_internal.hpp"

#include <limits>

namespace gpuadvisor::planner_detail {

bool Planner::add_data_move(const PriceRow& row,
                            Totals& paid,
                            std::optional<double>& hours,
                            std::shared_ptr<const DataMove>& data) {
    const InstanceType& instance = *m_at.instance;
    DataMove move = plan_data_move(*m_c.data_move,
                                   instance,
                                   row.region,
                                   m_at.count,
                                   hours.value_or(k_hours_per_month),
                                   *m_in.transfer,
                                   *m_in.assumptions);
    const FxTable& fx = *m_in.fx;
    const auto egress = move.error.empty() && move.egress_micros > 0
                            ? fx.convert(move.egress_micros, move.egress_currency, m_c.currency)
                            : std::optional<std::int64_t>(0);
    const auto storage = move.error.empty()
                             ? fx.convert(move.storage_micros, move.storage_currency, m_c.currency)
                             : std::nullopt;
    const std::int64_t room = std::numeric_limits<std::int64_t>::max() - paid.total_micros;
    if (!egress || !storage || *egress > room || *storage > room - *egress) {
        reject(instance, row.region, m_at.count, "price", [&] {
            return move.error.empty() ? std::string("the data's egress or storage does not "
                                                    "convert to the answer's currency")
                                      : "data: " + move.error;
        });
        return false;
    }
    move.egress_converted_micros = *egress;
    move.storage_converted_micros = *storage;
    paid.total_micros += *egress + *storage;
    paid.list_total_micros += *egress + *storage;
    if (hours) {
        *hours += move.transfer_hours;
    }
    data = std::make_shared<const DataMove>(std::move(move));
    return true;
}

} // namespace gpuadvisor::planner_detail
