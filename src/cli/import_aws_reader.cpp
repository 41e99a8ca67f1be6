#include "import_aws_reader.hpp"

#include <algorithm>
#include <cstring>

namespace gpuadvisor::cli {

void AwsByteReader::refill() {
    if (m_overrun || m_failed) {
        m_pos = m_len = 0;
        return;
    }
    const char* begin = m_buffer.data();
    const char* end = begin + m_len;
    m_lines_before += static_cast<std::uint64_t>(std::count(begin, end, '\n'));
    for (const char* p = end; p != begin; --p) {
        if (p[-1] == '\n') {
            m_last_newline = m_base + static_cast<std::uint64_t>(p - begin);
            break;
        }
    }
    const char* quote = end;
    for (const char* p = end; p != begin; --p) {
        if (p[-1] == '"') {
            quote = p - 1;
            break;
        }
    }
    m_run = quote == end ? m_run + m_len : static_cast<std::size_t>(end - quote - 1);
    m_base += m_len;
    m_pos = 0;
    m_len = std::fread(m_buffer.data(), 1, m_buffer.size(), m_stream);
    if (m_len == 0 && std::ferror(m_stream) != 0) {
        m_failed = true;
    }
    const void* first_quote = std::memchr(m_buffer.data(), '"', m_len);
    const std::size_t head =
        first_quote == nullptr
            ? m_len
            : static_cast<std::size_t>(static_cast<const char*>(first_quote) - begin);
    if (m_run + head > k_max_run) {
        m_overrun = true;
        m_len = 0;
    }
}

void AwsByteReader::skip_object() {
    int depth = 1;
    bool in_string = false;
    bool escaped = false;
    while (!at_end()) {
        const char* p = m_buffer.data() + m_pos;
        const char* end = m_buffer.data() + m_len;
        for (; p != end; ++p) {
            const char c = *p;
            if (in_string) {
                if (escaped) {
                    escaped = false;
                } else if (c == '\\') {
                    escaped = true;
                } else if (c == '"') {
                    in_string = false;
                }
            } else if (c == '"') {
                in_string = true;
            } else if (c == '{') {
                ++depth;
            } else if (c == '}' && --depth == 0) {
                m_pos = static_cast<std::size_t>(p - m_buffer.data());
                return;
            }
        }
        m_pos = m_len;
    }
}

AwsPos AwsByteReader::last() const {
    const std::size_t at = m_pos == 0 ? 0 : m_pos - 1; // the last byte read
    const char* begin = m_buffer.data();
    std::uint64_t lines = m_lines_before;
    std::uint64_t line_start = m_last_newline;
    for (std::size_t i = 0; i < at && i < m_len; ++i) {
        if (begin[i] == '\n') {
            ++lines;
            line_start = m_base + i + 1;
        }
    }
    const std::uint64_t offset = m_base + at;
    AwsPos pos;
    pos.offset = offset;
    pos.line = static_cast<std::uint32_t>(std::min<std::uint64_t>(lines + 1, UINT32_MAX));
    pos.column =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(offset - line_start + 1, UINT32_MAX));
    return pos;
}

} // namespace gpuadvisor::cli
