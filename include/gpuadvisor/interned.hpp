// Texts kept once per process: file names, sources and notes, which repeat on every price row
// of a large catalog. A copy is a pointer; the text itself is never freed (the distinct ones
// are few: one per file, source or note ever read).
#pragma once

#include <fmt/format.h>

#include <compare>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>

namespace gpuadvisor {

class InternedText {
  public:
    InternedText() = default; // empty
    InternedText(std::string_view text);
    InternedText(const std::string& text) : InternedText(std::string_view(text)) {}
    InternedText(const char* text) : InternedText(std::string_view(text)) {}

    const std::string& str() const { return *m_text; }
    operator const std::string&() const { return *m_text; }
    operator std::string_view() const { return *m_text; }
    bool empty() const { return m_text->empty(); }
    std::size_t size() const { return m_text->size(); }
    const char* c_str() const { return m_text->c_str(); }

    // Equal texts are the same object.
    friend bool operator==(const InternedText& a, const InternedText& b) {
        return a.m_text == b.m_text;
    }
    friend std::strong_ordering operator<=>(const InternedText& a, const InternedText& b) {
        return a.m_text == b.m_text ? std::strong_ordering::equal : *a.m_text <=> *b.m_text;
    }
    template <class Text>
    requires(std::is_convertible_v<const Text&, std::string_view> &&
             !std::is_same_v<Text, InternedText>) friend bool
    operator==(const InternedText& a, const Text& b) {
        return std::string_view(*a.m_text) == std::string_view(b);
    }
    friend std::ostream& operator<<(std::ostream& out, const InternedText& text) {
        return out << *text.m_text;
    }

  private:
    static const std::string k_empty;
    const std::string* m_text = &k_empty;
};

} // namespace gpuadvisor

template <> struct fmt::formatter<gpuadvisor::InternedText> : fmt::formatter<std::string_view> {
    template <class Context>
    auto format(const gpuadvisor::InternedText& text, Context& context) const {
        return fmt::formatter<std::string_view>::format(std::string_view(text), context);
    }
};
