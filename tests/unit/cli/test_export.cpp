// export's names and its reader of `recommend -o json` files (export_render.cpp,
// export_read.cpp): the names each tool knows a GPU by, YAML quoting, and every error's message.
#include "export_source.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace gpuadvisor;
using namespace gpuadvisor::cli;

namespace {

// A file holding `text` for the reader (its own name: mkstemp), removed after the test.
struct TempFile {
    std::string path;
    explicit TempFile(const std::string& text) {
        std::string name =
            (std::filesystem::temp_directory_path() / "gpuadvisor-export-XXXXXX").string();
        const int fd = ::mkstemp(name.data());
        REQUIRE(fd >= 0);
        ::close(fd);
        path = name;
        std::ofstream(path, std::ios::binary) << text;
    }
    ~TempFile() { std::remove(path.c_str()); }
};

const std::string k_row = R"({"provider": "aws", "instance": "p4de.24xlarge",
  "region": "us-east-1", "gpu": "A100-80GB", "gpus_per_instance": 8, "instance_count": 2,
  "pricing": "on-demand", "cost": {"currency": "USD", "per_hour": "54.8941", "total": "1.00"},
  "estimate": {"hours": 12.25}})";

std::string answer(const std::string& rows, const std::string& version = "2") {
    return R"({"schema_version": )" + version +
           R"(, "command": "recommend", "ok": true, "workload": {"kind": "training",
           "model": "llama-2-7b"}, "recommendations": [)" +
           rows + "]}";
}

// The one error's "message (hint)" for a file holding `text`.
std::string error_of(const std::string& text, int rank = 1) {
    const TempFile file(text);
    Diagnostics diagnostics;
    const auto source = read_recommendation(file.path, rank, diagnostics);
    REQUIRE_FALSE(source);
    REQUIRE(diagnostics.items().size() >= 1);
    const Diagnostic& d = diagnostics.items().front();
    return std::to_string(d.pos.line) + ":" + std::to_string(d.pos.column) + " " + d.message;
}

} // namespace

TEST_CASE("gpu_family drops the memory and form factor, SkyPilot keeps A100-80GB and V100-32GB") {
    CHECK(gpu_family("A100-80GB-PCIe") == "A100");
    CHECK(gpu_family("H100-94GB-NVL") == "H100");
    CHECK(gpu_family("H200-141GB") == "H200");
    CHECK(gpu_family("T4") == "T4");
    CHECK(gpu_family("RTX-A6000") == "RTX-A6000");
    CHECK(gpu_family("P100-16GB-PCIe") == "P100");
    CHECK(skypilot_accelerator("A100-80GB") == "A100-80GB");
    CHECK(skypilot_accelerator("A100-80GB-PCIe") == "A100-80GB");
    CHECK(skypilot_accelerator("A100-40GB") == "A100");
    CHECK(skypilot_accelerator("V100-32GB-PCIe") == "V100-32GB");
    CHECK(skypilot_accelerator("V100-16GB") == "V100");
    CHECK(skypilot_accelerator("H100-80GB") == "H100");
    CHECK(skypilot_accelerator("L40S") == "L40S");
}

TEST_CASE("yaml_quote writes a double-quoted scalar that no content can break out of") {
    CHECK(yaml_quote("plain") == "\"plain\"");
    CHECK(yaml_quote("a\"b\nkind: Pod") == "\"a\\\"b\\nkind: Pod\"");
    CHECK(yaml_quote("# {{ $labels }}") == "\"# {{ $labels }}\"");
    CHECK(yaml_quote("\x01") == "\"\\u0001\"");
    CHECK(yaml_quote("bad \xff") == "\"bad \xef\xbf\xbd\""); // invalid UTF-8 replaced
}

TEST_CASE("read_recommendation reads a row of a recommend answer") {
    const TempFile file(answer(k_row + "," + k_row));
    Diagnostics diagnostics;
    const auto source = read_recommendation(file.path, 2, diagnostics);
    REQUIRE(source);
    CHECK(source->rank == 2);
    CHECK(source->kind == "training");
    CHECK(source->model == "llama-2-7b");
    CHECK(source->instance == "p4de.24xlarge");
    CHECK(source->instance_count == 2);
    CHECK(source->gpus_per_instance == 8);
    CHECK(source->per_hour_micros == 54'894'100);
    CHECK(source->hours == 12.25);
    CHECK(describe(*source) == "#2: 2 x p4de.24xlarge (8 x A100-80GB each), aws us-east-1, "
                               "on-demand, 12.2 h, USD 54.8941/h");
}

TEST_CASE("read_recommendation: each bad input names where, by position or JSON pointer") {
    CHECK(error_of("{\n  \"schema_version\": 2,,\n}") ==
          "2:23 syntax error while parsing object key - unexpected ','; expected string literal");
    CHECK(error_of(std::string(100, '[')) == "1:65 nested more than 64 levels");
    CHECK(error_of("[]") == "0:0 : expected a JSON object");
    CHECK(error_of(answer(k_row, "3")) == "0:0 /schema_version: is 3; this gpuadvisor reads "
                                          "version 2");
    CHECK(error_of(R"({"schema_version": 2, "command": "size"})") ==
          "0:0 /command: \"size\" is not a recommend answer");
    CHECK(error_of(answer("")) ==
          "0:0 /recommendations: empty: the recommendation found no configuration");
    CHECK(error_of(answer(k_row), 2) == "0:0 /recommendations: --rank 2: the file has 1 row(s)");
    std::string row = k_row;
    row.replace(row.find("\"p4de.24xlarge\""), 15, "\"p4de\\nkind: Pod\"");
    CHECK(error_of(answer(row)) ==
          "0:0 /recommendations/0/instance: expected a name (letters, digits, ._:/+-; at most "
          "128), got \"p4de\\nkind: Pod\"");
    row = k_row;
    row.replace(row.find("\"instance_count\": 2"), 19, "\"instance_count\": 2.5");
    CHECK(error_of(answer(row)) == "0:0 /recommendations/0/instance_count: expected a whole "
                                   "number in [1 - 100000], got 2.5");
    row = k_row;
    row.replace(row.find("\"54.8941\""), 9, "54.8941");
    CHECK(error_of(answer(row)) ==
          "0:0 /recommendations/0/cost/per_hour: expected a decimal string such as \"32.7726\"");
    row = k_row;
    row.replace(row.find("\"gpu\": \"A100-80GB\", "), 20, "");
    CHECK(error_of(answer(row)) == "0:0 /recommendations/0/gpu: missing");
}
