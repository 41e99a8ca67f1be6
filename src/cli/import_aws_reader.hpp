// A buffered byte reader for nlohmann's SAX parser: it keeps only its buffer in memory, knows
// the byte offset, line and column of what was read, and refuses a run of more than
// k_max_run bytes without a double quote (a string or number too long to hold).
#pragma once

#include "import_aws.hpp"

#include <array>
#include <cstddef>
#include <cstdio>
#include <iterator>

namespace gpuadvisor::cli {

class AwsByteReader {
  public:
    static constexpr std::size_t k_max_run = 16u << 20; // 16 MiB

    explicit AwsByteReader(std::FILE* stream) : m_stream(stream) {}

    bool at_end() {
        if (m_pos < m_len) {
            return false;
        }
        refill();
        return m_pos >= m_len;
    }
    const char& current() const { return m_buffer[m_pos]; }
    void advance() { ++m_pos; }
    // Just after an object's '{': moves to its closing '}' (left to read), scanning for braces
    // outside strings only, much faster than parsing what it skips (which is not checked).
    void skip_object();
    // Where the last byte read is.
    AwsPos last() const;
    bool overrun() const { return m_overrun; }
    bool failed() const { return m_failed; }

  private:
    std::FILE* m_stream;
    std::array<char, 1u << 16> m_buffer{};
    std::size_t m_pos = 0;
    std::size_t m_len = 0;
    std::uint64_t m_base = 0;         // offset of m_buffer[0]
    std::uint64_t m_lines_before = 0; // newlines before m_buffer
    std::uint64_t m_last_newline = 0; // offset + 1 of the last newline before m_buffer (0: none)
    std::size_t m_run = 0;            // bytes since the last quote, before m_buffer
    bool m_overrun = false;
    bool m_failed = false;

    void refill();
};

// An input iterator over the reader, for nlohmann::json::sax_parse(first, last, ...).
class AwsByteIterator {
  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    AwsByteIterator() = default;
    explicit AwsByteIterator(AwsByteReader& reader) : m_reader(&reader) {}
    reference operator*() const { return m_reader->current(); }
    AwsByteIterator& operator++() {
        m_reader->advance();
        return *this;
    }
    AwsByteIterator operator++(int) {
        AwsByteIterator before = *this;
        m_reader->advance();
        return before;
    }
    bool operator==(const AwsByteIterator& other) const { return done() == other.done(); }

  private:
    AwsByteReader* m_reader = nullptr;
    bool done() const { return m_reader == nullptr || m_reader->at_end(); }
};

} // namespace gpuadvisor::cli
