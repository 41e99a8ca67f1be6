// The AWS importer's SAX handler: the layout's events (import_aws_sax.hpp).
#include "import_aws_sax.hpp"

#include <fmt/format.h>

namespace gpuadvisor::cli {

bool AwsFeedSax::key(json::string_t& name) {
    m_keys.back().swap(name); // the lexer's buffer, cleared before its next token
    if (m_keys.size() != 1) {
        return true;
    }
    const std::string& root = m_keys[0];
    m_section = root == (m_fixed == nullptr ? "products" : "product") ? Section::products
                : root == "terms"                                     ? Section::terms
                : root == "PriceList"                                 ? Section::price_list
                                                                      : Section::other;
    if (m_fixed != nullptr) {
        return true;
    }
    if (m_section == Section::products) {
        m_seen_products = true;
    } else if (m_section == Section::terms && !m_seen_products) {
        problem("wrong-order",
                "terms: before products; an offer file lists products first",
                "AWS's offer files list products before terms: re-download the file, or "
                "import the `aws pricing get-products` output");
        m_aborted = true;
        return false;
    } else if (m_section == Section::price_list) {
        m_feed.get_products = true;
    }
    return true;
}

bool AwsFeedSax::start_object(std::size_t) {
    const std::size_t n = m_keys.size();
    const std::size_t b = m_term_base;
    if (!container(true)) {
        return false;
    }
    if (in_products() && n == m_product_level - 1) {
        m_product = AwsProduct{};
        m_product->sku = m_fixed == nullptr ? m_keys[1] : "";
        m_family.clear();
    } else if (in_terms() && n == b && (m_keys[1] == "OnDemand" || m_keys[1] == "Reserved") &&
               (m_fixed != nullptr || m_feed.products.contains(m_keys[2]))) {
        m_term = AwsTerm{};
        m_term->sku = m_fixed == nullptr ? m_keys[2] : "";
        m_term->code = m_keys[b - 1];
        m_term->reserved = m_keys[1] == "Reserved";
    } else if (in_terms() && n == 3 && m_fixed == nullptr && !m_feed.products.contains(m_keys[2])) {
        m_keys.emplace_back();
        m_reader->skip_object(); // the terms of a product not kept
        return true;
    } else if (m_term && n == b + 2 && m_keys[b] == "priceDimensions") {
        m_unit.clear();
        m_usd.clear();
        m_usd_seen = false;
    }
    m_keys.emplace_back();
    return !m_aborted;
}

bool AwsFeedSax::end_object() {
    const std::size_t n = m_keys.size();
    const std::size_t b = m_term_base;
    if (m_product && in_products() && n == m_product_level) {
        finish_product();
    } else if (m_term && n == b + 1) {
        finish_term();
    } else if (m_term && n == b + 3 && m_keys[b] == "priceDimensions") {
        if (!m_usd_seen) {
            m_term->units.push_back(m_unit.empty() ? "(no USD price)" : m_unit + " (no USD)");
        } else if (m_unit == "Hrs") {
            m_term->hourly = m_usd;
            m_term->hourly_pos = m_usd_pos;
        } else if (m_unit == "Quantity") {
            m_term->upfront = m_usd;
            m_term->upfront_pos = m_usd_pos;
        } else {
            m_term->units.push_back(m_unit);
        }
    }
    m_keys.pop_back();
    return !m_aborted;
}

bool AwsFeedSax::start_array(std::size_t) {
    if (!container(false)) {
        return false;
    }
    m_keys.emplace_back("[]");
    return true;
}

// An object or array where the layout has a string, or not an object where it has one.
bool AwsFeedSax::container(bool object) {
    const std::size_t n = m_keys.size();
    const std::size_t b = m_term_base;
    static const std::string k_root;
    const std::string& name = n == 0 ? k_root : m_keys.back();
    bool expects_object = false;
    bool expects_array = false;
    bool reads_string = false;
    if (n == 0) {
        expects_object = true;
    } else if (n == 1 && m_fixed == nullptr) {
        expects_object = name == "products" || name == "terms";
        expects_array = name == "PriceList";
    } else if (n == 2 && m_fixed == nullptr && m_section == Section::price_list) {
        reads_string = true; // an entry is JSON text
    } else if (in_products()) {
        expects_object = n < m_product_level || (n == m_product_level && name == "attributes");
        reads_string = (n == m_product_level && (name == "sku" || name == "productFamily")) ||
                       (n == m_product_level + 1 && m_keys[n - 2] == "attributes" && read(name));
    } else if (in_terms()) {
        expects_object = n <= b ||
                         (n == b + 1 && (name == "priceDimensions" || name == "termAttributes")) ||
                         (n == b + 2 && m_keys[b] == "priceDimensions") ||
                         (n == b + 3 && m_keys[b] == "priceDimensions" && name == "pricePerUnit");
        reads_string = (n == b + 1 && name == "sku") ||
                       (n == b + 2 && m_keys[b] == "termAttributes") ||
                       (n == b + 3 && m_keys[b] == "priceDimensions" && name == "unit") ||
                       (n == b + 4 && m_keys[b + 2] == "pricePerUnit" && name == "USD");
    }
    if (reads_string || (expects_object && !object) || (expects_array && object)) {
        problem("wrong-type",
                fmt::format("{}: {}, not {}",
                            where(),
                            object ? "an object" : "an array",
                            reads_string     ? "a string"
                            : expects_object ? "an object"
                                             : "an array"),
                "the layout is docs/cli.md's 'catalog import aws'");
        return false;
    }
    return true;
}

bool AwsFeedSax::parse_error(std::size_t,
                             const std::string&,
                             const nlohmann::detail::exception& e) {
    std::string what = e.what();
    const auto colon = what.find(": ", what.find("column"));
    if (colon != std::string::npos) {
        what = what.substr(colon + 2);
    }
    if (m_fixed != nullptr) {
        problem("syntax", fmt::format("PriceList entry: {}", what), "each entry is JSON text");
    } else if (m_reader->overrun()) {
        problem("limit",
                fmt::format("over {} MiB without a double quote: a string or number too long "
                            "for an offer file",
                            AwsByteReader::k_max_run >> 20),
                "is this an AWS Price List file?");
    } else if (m_reader->failed()) {
        problem("io", "the file cannot be read to its end", "check the file");
    } else {
        const bool truncated = m_reader->at_end(); // the error is at the end of the file
        problem("syntax",
                truncated ? fmt::format("the file ends early (truncated?): {}", what) : what,
                truncated ? "download the file again" : "is this an AWS Price List file?");
    }
    return false;
}

AwsFeed read_aws_feed(std::FILE* stream, const AwsKeep& keep) {
    AwsFeed feed;
    AwsByteReader reader(stream);
    AwsFeedSax sax(feed, keep, &reader, nullptr);
    AwsFeedSax::json::sax_parse(AwsByteIterator(reader), AwsByteIterator(), &sax);
    return feed;
}

} // namespace gpuadvisor::cli
