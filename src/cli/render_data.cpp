#include "render_data.hpp"

#include "text.hpp"

#include <fmt/format.h>

#include <cmath>

namespace gpuadvisor::cli {

namespace {

double round3(double value) {
    return std::round(value * 1000) / 1000;
}

} // namespace

Json data_move_json(const DataMove& move,
                    const DataMoveRequest& request,
                    std::string_view currency) {
    Json json;
    json["dataset_tb"] = request.dataset_tb;
    json["from"] = request.data_provider.empty()
                       ? Json(nullptr)
                       : Json(request.data_provider + ":" + request.data_region);
    json["path"] = to_string(move.path);
    json["link_gbps"] = move.link_gbps;
    json["transfer_hours"] = round3(move.transfer_hours);
    json["egress"] = total_json(currency, move.egress_converted_micros);
    json["storage_tier"] = to_string(move.tier);
    json["storage_product"] = move.storage != nullptr ? move.storage->product : "";
    json["storage_copies"] = move.storage_copies;
    json["storage_hours"] = round3(move.storage_hours);
    json["storage"] = total_json(currency, move.storage_converted_micros);
    if (move.storage != nullptr) {
        json["storage_as_of"] = format_date(move.storage->provenance.as_of);
        json["storage_confidence"] = to_string(move.storage->provenance.confidence);
    }
    return json;
}

std::string data_move_line(const DataMove& move, int rank) {
    return fmt::format("Data{}: {}", rank > 0 ? fmt::format(" (#{})", rank) : "", move.basis);
}

} // namespace gpuadvisor::cli
