// The yaml-cpp alternative the speed benchmark compares with (bench/scale.py): each catalog
// file through YAML::LoadFile, then a tree walk doing what `catalog list offers --gpu A100`
// does at its core: every instance type whose GPU id starts with A100, every region row's
// on-demand price converted to USD per hour, and the cheapest.
//   gpuadvisor_yaml_walk FILE...
// Prints the offers matched and the cheapest; exits 1 on a file it cannot load.
#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <exception>
#include <limits>
#include <string>

int main(int argc, char** argv) {
    constexpr double k_cny_per_usd = 7.2;
    long matched = 0;
    double cheapest = std::numeric_limits<double>::infinity();
    try {
        for (int i = 1; i < argc; ++i) {
            const YAML::Node root = YAML::LoadFile(argv[i]);
            for (const YAML::Node& instance : root["instances"]) {
                if (instance["gpu"].as<std::string>().rfind("A100", 0) != 0) {
                    continue;
                }
                for (const YAML::Node& row : instance["regions"]) {
                    if (!row["on_demand"]) {
                        continue;
                    }
                    double price = row["on_demand"].as<double>();
                    if (row["currency"] && row["currency"].as<std::string>() == "CNY") {
                        price /= k_cny_per_usd;
                    }
                    ++matched;
                    cheapest = std::min(cheapest, price);
                }
            }
        }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "yaml_walk: %s\n", error.what());
        return 1;
    }
    std::printf("%ld offers, cheapest %.4f USD/h\n", matched, cheapest);
    return 0;
}
