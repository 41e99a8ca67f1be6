// Merging decoded files into one catalog, and the checks that need the whole of it.
#pragma once

#include "catalog/catalog_decode.hpp"
#include "gpuadvisor/catalog_io.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor {

// Merges fragments in overlay order (later wins on the same id), resolves inherited
// provenance and currency, resolves GPU references, and runs the plausibility checks.
// `base` (may be null) is an already built catalog the fragments are laid over. The instance
// types are merged on `threads` threads (0: one below 2048 instance types, else one per core
// up to 8); the catalog and the diagnostics, in order, are the same whatever the count.
Catalog merge_fragments(const Catalog* base,
                        std::vector<CatalogFragment> fragments,
                        const CheckOptions& options,
                        Diagnostics& diagnostics,
                        std::size_t threads = 0);

// A figure as decoded (nullopt: absent, or it did not decode) and where it is written.
struct Figure {
    std::optional<double> value;
    SourcePos pos;
};

// One GPU's figures as the plausibility checks read them.
struct GpuFigures {
    std::string path;                       // "gpus[A100-80GB]"
    std::string vendor;                     // empty when it did not decode
    std::optional<std::string> memory_type; // as written
    Figure memory_bandwidth_gb_per_s;
    Figure fp64_tflops; // vector
    Figure fp32_tflops; // vector
    Figure tf32_tflops;
    Figure fp16_tflops; // dense
    Figure bf16_tflops; // dense
    Figure fp8_tflops;  // dense
};

// Warnings on figures that are valid numbers but not plausible together: a memory bandwidth
// written in TB/s (implausible-bandwidth), FP64 vector above FP32 vector (fp64-above-fp32), a
// dense FP16 or BF16 figure that is the datasheet's with-sparsity one (sparse-figure). Each
// check reads only the figures that decoded.
void check_gpu_figures(const GpuFigures& gpu, Diagnostics& diagnostics);

// A warning when a price row's spot_interruption band names a rate above 100%
// (implausible-interruption): '>200%', '5-150%'.
void check_interruption_band(std::string_view band,
                             const SourcePos& pos,
                             std::string_view path,
                             Diagnostics& diagnostics);

} // namespace gpuadvisor
