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

// The texts this thread met last, by a cheap hash of their size and ends: a catalog's rows
// repeat a few regions and currencies, and the threads that decode a large catalog asking the
// pool for each (its lock and a hash) made a load with no cache slower than copying the texts
// had been. Texts in the pool never move, so a pointer kept here stays good.
const std::string* recently_met(std::string_view text, const std::string**& slot) {
    thread_local std::array<const std::string*, 64> recent{};
    const auto front = static_cast<unsigned char>(text.front());
    const auto back = static_cast<unsigned char>(text.back());
    slot = &recent[(text.size() * 31 + front * 7 + back) % recent.size()];
    return *slot != nullptr && std::string_view(**slot) == text ? *slot : nullptr;
}

} // namespace

InternedText::InternedText(std::string_view text) {
    if (text.empty()) {
        return;
    }
    const std::string** slot = nullptr;
    if (const std::string* met = recently_met(text, slot)) {
        m_text = met;
        return;
    }
    Pool& p = pool();
    const std::lock_guard<std::mutex> guard(p.lock);
    const auto found = p.texts.find(text);
    m_text = found != p.texts.end() ? &*found : &*p.texts.emplace(text).first;
    *slot = m_text;
}

} // namespace gpuadvisor
