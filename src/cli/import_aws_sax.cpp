// The SAX handler of the AWS importer: follows the offer file's layout (products, then terms)
// and get-products output (PriceList: one product + its terms a JSON string), keeping the
// products the filter keeps and their terms, nothing else.
#include "import_aws.hpp"
#include "import_aws_reader.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <string_view>
#include <unordered_set>

namespace gpuadvisor::cli {

namespace {

using json = nlohmann::json;

constexpr std::size_t k_max_kept_products = 200'000;
constexpr std::size_t k_max_terms_a_product = 64;
constexpr std::size_t k_max_errors = 100;

class FeedSax {
  public:
    // `element`: one get-products entry, positioned as a whole at `fixed`.
    FeedSax(AwsFeed& feed, const AwsKeep& keep, AwsByteReader* reader, const AwsPos* fixed)
        : m_feed(feed), m_keep(keep), m_reader(reader), m_fixed(fixed),
          m_product_level(fixed == nullptr ? 3 : 2), m_term_base(fixed == nullptr ? 4 : 3) {}

    bool null() { return scalar("null", ""); }
    bool boolean(bool) { return scalar("a boolean", ""); }
    bool number_integer(json::number_integer_t) { return scalar("a number", ""); }
    bool number_unsigned(json::number_unsigned_t) { return scalar("a number", ""); }
    bool number_float(json::number_float_t, const json::string_t&) {
        return scalar("a number", "");
    }
    bool binary(json::binary_t&) { return scalar("binary", ""); }
    bool string(json::string_t& value) { return scalar(nullptr, value); }
    bool key(json::string_t& name);
    bool start_object(std::size_t);
    bool end_object();
    bool start_array(std::size_t);
    bool end_array() {
        m_keys.pop_back();
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e);

    // An element's terms, kept until its product is known (its keys may come in any order).
    void finish_element();
    bool aborted() const { return m_aborted; }

  private:
    AwsFeed& m_feed;
    const AwsKeep& m_keep;
    AwsByteReader* m_reader;
    const AwsPos* m_fixed;
    const std::size_t m_product_level; // keys up to a product's field
    // Keys up to a term's offer term code: terms.KIND.SKU.CODE in an offer file, terms.KIND.CODE
    // in a get-products entry.
    const std::size_t m_term_base;
    std::vector<std::string> m_keys; // one a container open: its current key, "[]" an array
    bool m_seen_products = false;
    std::optional<AwsProduct> m_product;
    std::string m_family; // productFamily of m_product
    std::optional<AwsTerm> m_term;
    std::string m_unit, m_usd; // the price dimension being read
    AwsPos m_usd_pos;
    bool m_usd_seen = false;
    std::vector<AwsTerm> m_element_terms;
    std::map<std::string, std::size_t> m_terms_of;     // sku -> terms kept
    std::map<std::string, std::uint32_t> m_term_lines; // "sku.code" -> line
    std::optional<std::string> m_element_sku;          // the product's of a get-products entry
    bool m_aborted = false;

    AwsPos here() const { return m_fixed != nullptr ? *m_fixed : m_reader->last(); }
    std::string where() const {
        std::string path;
        for (const std::string& k : m_keys) {
            path += path.empty() ? k : "." + k;
        }
        return path.empty() ? "the document" : path;
    }
    bool problem(const char* code, std::string message, std::string hint) {
        m_feed.problems.push_back({false, here(), code, std::move(message), std::move(hint)});
        const auto errors = std::count_if(m_feed.problems.begin(),
                                          m_feed.problems.end(),
                                          [](const AwsProblem& p) { return !p.warning; });
        if (static_cast<std::size_t>(errors) >= k_max_errors) {
            m_aborted = true;
        }
        return !m_aborted;
    }
    // The root key being read, kept as it is read (the keys are compared once).
    enum class Section { other, products, terms, price_list };
    Section m_section = Section::other;
    bool in_products() const { return m_section == Section::products && !m_keys.empty(); }
    bool in_terms() const { return m_section == Section::terms && m_keys.size() >= 2; }
    bool scalar(const char* not_string, const std::string& value);
    bool product_value(const char* not_string, const std::string& value);
    bool term_value(const char* not_string, const std::string& value);
    bool container(bool object);
    static bool read(const std::string& name) {
        static const std::unordered_set<std::string_view> names(std::begin(k_aws_attributes),
                                                                std::end(k_aws_attributes));
        return names.contains(name);
    }
    void finish_product();
    void finish_term();
    bool element(const std::string& text);
};

bool FeedSax::key(json::string_t& name) {
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

bool FeedSax::start_object(std::size_t) {
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

bool FeedSax::end_object() {
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

bool FeedSax::start_array(std::size_t) {
    if (!container(false)) {
        return false;
    }
    m_keys.emplace_back("[]");
    return true;
}

// An object or array where the layout has a string, or not an object where it has one.
bool FeedSax::container(bool object) {
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

bool FeedSax::scalar(const char* not_string, const std::string& value) {
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

bool FeedSax::product_value(const char* not_string, const std::string& value) {
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

bool FeedSax::term_value(const char* not_string, const std::string& value) {
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

void FeedSax::finish_product() {
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

void FeedSax::finish_term() {
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

void FeedSax::finish_element() {
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
bool FeedSax::element(const std::string& text) {
    const AwsPos pos = here();
    FeedSax inner(m_feed, m_keep, nullptr, &pos);
    const bool ok = json::sax_parse(text, &inner);
    if (ok) {
        inner.finish_element();
    }
    m_aborted = m_aborted || inner.aborted();
    return !m_aborted;
}

bool FeedSax::parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) {
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

} // namespace

AwsFeed read_aws_feed(const std::string& file, std::FILE* stream, const AwsKeep& keep) {
    (void)file;
    AwsFeed feed;
    AwsByteReader reader(stream);
    FeedSax sax(feed, keep, &reader, nullptr);
    json::sax_parse(AwsByteIterator(reader), AwsByteIterator(), &sax);
    return feed;
}

} // namespace gpuadvisor::cli
