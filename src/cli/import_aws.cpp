// The AWS Price List importer: EC2 offer files and `aws pricing get-products` output, streamed
// (docs/cli.md, "catalog import aws").
#include "import_aws.hpp"

#include "catalog_import.hpp"
#include "gpuadvisor/spelling.hpp"
#include "import_aws_plans.hpp"
#include "import_aws_types.hpp"
#include "sheet_values.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <memory>
#include <set>

namespace gpuadvisor::cli {

namespace {

const std::string& attribute(const AwsProduct& product, const char* name) {
    static const std::string none;
    const auto found = product.attributes.find(name);
    return found == product.attributes.end() ? none : found->second;
}

bool is_aws_type(const Catalog& catalog, const std::string& id) {
    for (const InstanceType* type : catalog.match_instances(id)) {
        if (type->provider == "aws" && type->id == id) {
            return true;
        }
    }
    return false;
}

// Linux, shared tenancy, no software, used capacity, no licence, on-demand market, a region;
// and a type the catalog has or one with a GPU.
bool keep(const Catalog& catalog, const AwsProduct& product) {
    for (const AwsFilter& filter : k_aws_filter) {
        const std::string& value = attribute(product, filter.attribute);
        if (value != filter.value && !(filter.optional && value.empty())) {
            return false;
        }
    }
    const auto gpus = aws_count(attribute(product, "gpu"));
    return (gpus && *gpus > 0) || is_aws_type(catalog, attribute(product, "instanceType"));
}

// The importer's state over all files.
class AwsImport {
  public:
    AwsImport(const ImportContext& context, ImportResult& result)
        : m_context(context), m_result(result) {}

    void file(const std::string& path);
    void finish();

  private:
    const ImportContext& m_context;
    ImportResult& m_result;
    std::map<std::pair<std::string, std::string>, std::string> m_priced; // (type, region) -> SKU
    // A GPU type of no known family -> where its first product is, its products' regions.
    std::map<std::string, std::pair<SourcePos, std::vector<std::string>>> m_unknown;
    std::set<std::string> m_defined;
    std::set<std::string> m_new_regions;

    void report(const std::string& path, const AwsProblem& problem) {
        const SourcePos pos{path, problem.pos.line, problem.pos.column};
        if (problem.warning) {
            m_result.diagnostics.warning(pos, problem.code, problem.message, problem.hint);
        } else {
            m_result.diagnostics.error(pos, problem.code, problem.message, problem.hint);
        }
    }
    bool source(const std::string& path, const AwsFeed& feed, Provenance& provenance);
    bool instance(const std::string& path, const AwsProduct& product, const Provenance& provenance);
    bool region(const std::string& path, const AwsProduct& product);
    void product(const std::string& path,
                 const AwsProduct& product,
                 const std::vector<const AwsTerm*>& terms,
                 const Provenance& provenance);
};

bool AwsImport::source(const std::string& path, const AwsFeed& feed, Provenance& provenance) {
    const std::string name = std::filesystem::path(path).filename().string();
    const auto problem =
        check_as_of(feed.publication_date.substr(0, 10), m_context.today, provenance.as_of);
    if (feed.publication_date.empty() || problem) {
        m_result.diagnostics.error(
            {path, 1, 1},
            feed.publication_date.empty() ? "missing-field" : problem->code,
            feed.publication_date.empty()
                ? "publicationDate: missing; the prices' as_of is its date"
                : "publicationDate: " + problem->message.substr(problem->message.find(':') + 2),
            "an offer file starts with formatVersion, version and publicationDate");
        return false;
    }
    provenance.source = fmt::format("AWS Price List {} {} version {} published {}",
                                    feed.get_products ? "get-products output" : "offer file",
                                    name,
                                    feed.version.empty() ? "(none)" : feed.version,
                                    feed.publication_date);
    provenance.confidence = Confidence::high;
    return true;
}

// A GPU type the catalog lacks: defined from the product, its GPU by its family.
bool AwsImport::instance(const std::string& path,
                         const AwsProduct& product,
                         const Provenance& provenance) {
    const std::string& id = attribute(product, "instanceType");
    if (is_aws_type(m_context.catalog, id) || m_defined.contains(id)) {
        return true;
    }
    const std::string gpu = aws_family_gpu(m_context.catalog, aws_family(id));
    if (gpu.empty()) {
        auto& [first, regions] = m_unknown[id];
        if (regions.empty()) {
            first = {path, product.pos.line, product.pos.column};
        }
        regions.push_back(attribute(product, "regionCode"));
        return false;
    }
    Provenance specs = provenance;
    specs.confidence = Confidence::low;
    specs.notes = fmt::format(
        "Defined by the import from the AWS Price List product attributes (vcpu, memory, gpu, "
        "gpuMemory, networkPerformance, storage); GPU {} from the {} family. The feed states no "
        "NVLink, EFA or RDMA: nvlink and rdma are false, no fabric; check before sizing "
        "multi-GPU or multi-node work.",
        gpu,
        aws_family(id));
    std::string problem;
    auto type = aws_instance(product, gpu, specs, problem);
    if (!type) {
        report(path,
               {true,
                product.pos,
                "bad-value",
                fmt::format("SKU {} ({}): {}; the type is not defined, its prices are left out",
                            product.sku,
                            id,
                            problem),
                "define it with --catalog first; AWS writes figures such as \"96\", \"2048 "
                "GiB\", \"3200 Gigabit\""});
        return false;
    }
    m_defined.insert(id);
    m_result.instances.push_back(std::move(*type));
    return true;
}

bool AwsImport::region(const std::string& path, const AwsProduct& product) {
    const std::string& id = attribute(product, "regionCode");
    const Provider* aws = m_context.catalog.find_provider("aws");
    const bool known =
        aws != nullptr && std::any_of(aws->regions.begin(),
                                      aws->regions.end(),
                                      [&](const RegionInfo& r) { return r.id == id; });
    if (known || m_new_regions.contains(id)) {
        return true;
    }
    const std::string country = aws_region_country(id);
    if (id.empty() || country.empty() || check_region(id, nullptr)) {
        report(path,
               {true,
                product.pos,
                "unknown-region",
                fmt::format("SKU {}: region '{}' ({}) is not one the importer knows the "
                            "country of; its prices are left out",
                            product.sku,
                            id,
                            attribute(product, "location")),
                "add the region to the aws provider with --catalog first"});
        return false;
    }
    m_new_regions.insert(id);
    m_result.regions.push_back({"aws", RegionInfo{id, attribute(product, "location"), country}});
    return true;
}

void AwsImport::product(const std::string& path,
                        const AwsProduct& product,
                        const std::vector<const AwsTerm*>& terms,
                        const Provenance& provenance) {
    const std::string& id = attribute(product, "instanceType");
    const std::string& where = attribute(product, "regionCode");
    if (id.empty() || where.empty()) {
        report(
            path,
            {false,
             product.pos,
             "missing-field",
             fmt::format("SKU {}: no {}", product.sku, id.empty() ? "instanceType" : "regionCode"),
             "an EC2 product's attributes name its instanceType and regionCode"});
        return;
    }
    const auto [first, fresh] = m_priced.emplace(std::make_pair(id, where), product.sku);
    if (!fresh) {
        report(path,
               {false,
                product.pos,
                "duplicate-id",
                fmt::format("SKUs {} and {} both price {} in {} (Linux, shared tenancy, "
                            "used capacity)",
                            first->second,
                            product.sku,
                            id,
                            where),
                "import one offer file a region, once"});
        return;
    }
    std::vector<AwsProblem> problems;
    const auto prices = aws_plan_prices(terms, m_context.fx, problems);
    for (const AwsProblem& problem : problems) {
        report(path, problem);
    }
    if (terms.empty()) {
        report(path,
               {true,
                product.pos,
                "no-price",
                fmt::format("SKU {} ({} in {}): no terms; left out", product.sku, id, where),
                "the offer file's terms section prices each SKU"});
    }
    if (prices.empty() || !instance(path, product, provenance) || !region(path, product)) {
        return;
    }
    for (const AwsPlanPrice& price : prices) {
        ImportedPrice entry;
        entry.provider = "aws";
        entry.instance = id;
        entry.region = where;
        entry.plan = price.plan;
        entry.micros = price.micros;
        entry.currency = "USD";
        entry.as_of = provenance.as_of;
        entry.source = provenance.source.str();
        entry.notes = price.notes;
        entry.confidence = Confidence::high;
        entry.pos = {path, price.pos.line, price.pos.column};
        m_result.prices.push_back(std::move(entry));
    }
}

void AwsImport::file(const std::string& path) {
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> stream(std::fopen(path.c_str(), "rb"),
                                                                 &std::fclose);
    if (!stream) {
        m_result.diagnostics.error({path, 0, 0}, "io", "cannot read the file", "check the path");
        return;
    }
    const std::size_t errors = m_result.diagnostics.error_count();
    const AwsFeed feed = read_aws_feed(
        stream.get(), [&](const AwsProduct& product) { return keep(m_context.catalog, product); });
    for (const AwsProblem& problem : feed.problems) {
        report(path, problem);
    }
    if (m_result.diagnostics.error_count() != errors) {
        return;
    }
    if (!feed.get_products && feed.products.empty() && feed.skipped_products == 0) {
        m_result.diagnostics.error({path, 1, 1},
                                   "missing-field",
                                   "no products: not an EC2 offer file or get-products output",
                                   "import the AmazonEC2 offer file of a region, or the output "
                                   "of 'aws pricing get-products --service-code AmazonEC2'");
        return;
    }
    Provenance provenance;
    if (!source(path, feed, provenance)) {
        return;
    }
    std::map<std::string, std::vector<const AwsTerm*>> terms;
    for (const AwsTerm& term : feed.terms) {
        terms[term.sku].push_back(&term);
    }
    for (const auto& [sku, each] : feed.products) {
        product(path, each, terms[sku], provenance);
    }
}

void AwsImport::finish() {
    for (const auto& [id, unknown] : m_unknown) {
        const auto& [first, regions] = unknown;
        const std::string hint = did_you_mean(m_context.catalog.instance_names_near(id));
        m_result.diagnostics.warning(
            first,
            "unknown-reference",
            fmt::format("instance type {} ({} product{}: {}) has a GPU, but the catalog has no "
                        "such type and no GPU is known for its family {}; its prices are left out",
                        id,
                        regions.size(),
                        regions.size() == 1 ? "" : "s",
                        fmt::join(regions, ", "),
                        aws_family(id)),
            hint.empty() ? "define the type with --catalog first" : hint);
    }
}

} // namespace

ImportResult import_aws(const std::vector<std::string>& files, const ImportContext& context) {
    ImportResult result;
    AwsImport import(context, result);
    for (const std::string& file : files) {
        import.file(file);
    }
    import.finish();
    return result;
}

} // namespace gpuadvisor::cli
