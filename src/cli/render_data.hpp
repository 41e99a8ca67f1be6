// The data parts (--dataset-tb) as JSON and as an explanation line: recommend, price and size.
#pragma once

#include "gpuadvisor/transfer.hpp"
#include "output.hpp"

#include <string>
#include <string_view>

namespace gpuadvisor::cli {

// {"dataset_tb", "from", "path", "link_gbps", "transfer_hours", "egress", "storage_tier",
// "storage_product", "storage_hours", "storage", "storage_as_of", "storage_confidence"}; the
// money objects in `currency` (the converted amounts).
Json data_move_json(const DataMove& move,
                    const DataMoveRequest& request,
                    std::string_view currency);

// "Data (#1): 10 TB inter-region ..." (rank 0: "Data: ...").
std::string data_move_line(const DataMove& move, int rank);

} // namespace gpuadvisor::cli
