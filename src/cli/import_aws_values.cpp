// The AWS importer's SAX handler: the values it keeps, the products and terms it ends
// (import_aws_sax.hpp).
#include "import_aws_sax.hpp"

#include <fmt/format.h>

namespace gpuadvisor::cli {

bool AwsFeedSax::scalar(const char* not_string, const std::string& value) {
    const std::size_t n = m_keys.size();
    if (n == 1 && m_fixed == nullptr &&
        (m_keys[0] == "products" || m_keys[0] == "terms" || m_keys[0] == "PriceList")) {
        return problem(
            "wrong-type",
            fmt::format("{}: {}, not an object", m_keys[0], not_string ? not_string : "a string"),
            "the layout is docs/cli.md's 'catalog import aws'");
    }
    if (n == 1) {
        if (not_string == nullptr && m_keys[0] == "version") {
            m_feed.version = value;
        } else if (not_string == nullptr && m_keys[0] == "publicationDate") {
            m_feed.publication_date = value;
        }
        return true;
    }
    if (n == 2 && m_fixed == nullptr && m_keys[1] == "[]") {
        return not_string == nullptr
                   ? element(value)
                   : problem("wrong-type",
                             fmt::format("PriceList: {}, not a string", not_string),
                             "each PriceList entry is one product and its terms as JSON text");
    }
    if (m_product && in_products()) {
        return product_value(not_string, value);
    }
    if (m_term && in_terms()) {
        return term_value(not_string, value);
    }
    return true;
}

bool AwsFeedSax::product_value(const char* not_string, const std::string& value) {
    const std::size_t n = m_keys.size();
    const std::string& name = m_keys.back();
    const bool field = n == m_product_level && (name == "sku" || name == "productFamily");
    const bool attribute = n == m_product_level + 1 && m_keys[n - 2] == "attributes" && read(name);
    if (!field && !attribute) {
        return true;
    }
    if (not_string != nullptr) {
        return problem("wrong-type",
                       fmt::format("{}: {}, not a string", where(), not_string),
                       "AWS writes every product attribute as a string: \"8\", not 8");
    }
    if (name == "sku" && field) {
        m_product->sku = value;
    } else if (field) {
        m_family = value;
    } else {
        m_product->attributes[name] = value;
        const auto rejects = [&](const AwsFilter& f) {
            return name == f.attribute && value != f.value;
        };
        if (m_reader != nullptr &&
            std::any_of(std::begin(k_aws_filter), std::end(k_aws_filter), rejects)) {
            m_reader->skip_object(); // the rest of a product the filter drops is not read
        }
    }
    return true;
}

bool AwsFeedSax::term_value(const char* not_string, const std::string& value) {
    const std::size_t n = m_keys.size();
    const std::size_t b = m_term_base;
    const bool sku = n == b + 1 && m_keys[b] == "sku";
    const bool attribute = n == b + 2 && m_keys[b] == "termAttributes";
    const bool unit = n == b + 3 && m_keys[b] == "priceDimensions" && m_keys[b + 2] == "unit";
    const bool usd = n == b + 4 && m_keys[b + 2] == "pricePerUnit" && m_keys[b + 3] == "USD";
    if (!sku && !attribute && !unit && !usd) {
        return true;
    }
    if (not_string != nullptr) {
        return problem("wrong-type",
                       fmt::format("{}: {}, not a string", where(), not_string),
                       "AWS writes prices and term attributes as strings: \"1.2340000000\"");
    }
    if (sku) {
        if (m_term->sku.empty()) {
            m_term->sku = value;
        }
    } else if (unit) {
        m_unit = value;
    } else if (usd) {
        m_usd = value;
        m_usd_seen = true;
        m_usd_pos = here();
    } else if (m_keys[b + 1] == "LeaseContractLength") {
        m_term->lease = value;
    } else if (m_keys[b + 1] == "OfferingClass") {
        m_term->offering_class = value;
    } else if (m_keys[b + 1] == "PurchaseOption") {
        m_term->purchase = value;
    }
    return true;
}

void AwsFeedSax::finish_product() {
    AwsProduct product = std::move(*m_product);
    m_product.reset();
    const bool compute = m_family == "Compute Instance";
    if (!compute || !m_keep(product)) {
        ++m_feed.skipped_products;
        return;
    }
    product.pos = here();
    if (m_feed.products.contains(product.sku)) {
        problem("duplicate-id",
                fmt::format("products: SKU {} twice", product.sku),
                fmt::format("the first is line {}; an offer file lists each SKU once",
                            m_feed.products.at(product.sku).pos.line));
        return;
    }
    if (m_feed.products.size() >= k_max_kept_products) {
        problem("limit",
                fmt::format("over {} GPU instance products: not an AWS offer file's size",
                            k_max_kept_products),
                "import one region's offer file at a time");
        m_aborted = true;
        return;
    }
    const std::string sku = product.sku;
    m_element_sku = sku;
    m_feed.products.emplace(sku, std::move(product));
}

void AwsFeedSax::finish_term() {
    AwsTerm term = std::move(*m_term);
    m_term.reset();
    term.pos = here();
    if (m_fixed != nullptr) {
        m_element_terms.push_back(std::move(term));
        return;
    }
    if (!m_feed.products.contains(term.sku)) {
        return;
    }
    std::size_t& count = m_terms_of[term.sku];
    if (++count > k_max_terms_a_product) {
        if (count == k_max_terms_a_product + 1) {
            problem("limit",
                    fmt::format("terms: over {} terms of SKU {}", k_max_terms_a_product, term.sku),
                    "an EC2 product has one on-demand and at most 12 reserved terms");
        }
        return;
    }
    const auto [first, fresh] = m_term_lines.emplace(term.sku + "." + term.code, term.pos.line);
    if (!fresh) {
        problem("duplicate-id",
                fmt::format("terms: term {} of SKU {} twice", term.code, term.sku),
                fmt::format("the first is line {}", first->second));
        return;
    }
    m_feed.terms.push_back(std::move(term));
}

void AwsFeedSax::finish_element() {
    for (AwsTerm& term : m_element_terms) {
        if (term.sku.empty() && m_element_sku) {
            term.sku = *m_element_sku;
        }
        if (m_feed.products.contains(term.sku)) {
            m_feed.terms.push_back(std::move(term));
        }
    }
    m_element_terms.clear();
}

// One get-products entry: its text parsed (bounded by the reader's run limit) as a document.
bool AwsFeedSax::element(const std::string& text) {
    const AwsPos pos = here();
    AwsFeedSax inner(m_feed, m_keep, nullptr, &pos);
    const bool ok = json::sax_parse(text, &inner);
    if (ok) {
        inner.finish_element();
    }
    m_aborted = m_aborted || inner.aborted();
    return !m_aborted;
}

} // namespace gpuadvisor::cli
