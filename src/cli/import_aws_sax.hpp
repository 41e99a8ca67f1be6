// The SAX handler of the AWS importer (import_aws_sax.cpp: the layout's events;
// import_aws_values.cpp: the values it keeps): follows the offer file's layout (products, then
// terms) and get-products output (PriceList: one product + its terms a JSON string), keeping
// the products the filter keeps and their terms, nothing else.
#pragma once

#include "import_aws.hpp"
#include "import_aws_reader.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace gpuadvisor::cli {

class AwsFeedSax {
  public:
    using json = nlohmann::json;
    static constexpr std::size_t k_max_kept_products = 200'000;
    static constexpr std::size_t k_max_terms_a_product = 64;
    static constexpr std::size_t k_max_errors = 100;

    // `element`: one get-products entry, positioned as a whole at `fixed`.
    AwsFeedSax(AwsFeed& feed, const AwsKeep& keep, AwsByteReader* reader, const AwsPos* fixed)
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

} // namespace gpuadvisor::cli
