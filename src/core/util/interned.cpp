#include "gpuadvisor/interned.hpp"

#include <array>
#include <functional>
#include <mutex>
#include <unordered_set>

namespace gpuadvisor {

const std::string InternedText::k_empty;

namespace {

// Looked up by string_view: no string is made for a text already kept.
struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const {
        return std::hash<std::string_view>{}(text);
    }
};

struct Pool {
    std::mutex lock;
    std::unordered_set<std::string, Hash, std::equal_to<>> texts; // nodes never move
};

Pool& pool() {
    static Pool* const instance = new Pool; // never destroyed: texts may be used at exit
    return *instance;
}

// The slot `text` takes among the texts this thread met last (by a cheap hash of its size and
// ends): a catalog's rows repeat a few regions and currencies, and the threads that decode a
// large catalog asking the pool for each (its lock and a hash) made a load with no cache slower
// than copying the texts had been. Texts in the pool never move, so a pointer kept stays good.
const std::string*& recent_slot(std::string_view text) {
    thread_local std::array<const std::string*, 64> recent{};
    const auto front = static_cast<unsigned char>(text.front());
    const auto back = static_cast<unsigned char>(text.back());
    return recent[(text.size() * 31 + front * 7 + back) % recent.size()];
}

} // namespace

InternedText::InternedText(std::string_view text) {
    if (text.empty()) {
        return;
    }
    const std::string*& recent = recent_slot(text);
    if (recent != nullptr && std::string_view(*recent) == text) {
        m_text = recent;
        return;
    }
    Pool& p = pool();
    const std::lock_guard<std::mutex> guard(p.lock);
    const auto found = p.texts.find(text);
    m_text = found != p.texts.end() ? &*found : &*p.texts.emplace(text).first;
    recent = m_text;
}

} // namespace gpuadvisor
