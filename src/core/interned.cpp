#include "gpuadvisor/interned.hpp"

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

} // namespace

InternedText::InternedText(std::string_view text) {
    if (text.empty()) {
        return;
    }
    Pool& p = pool();
    const std::lock_guard<std::mutex> guard(p.lock);
    const auto found = p.texts.find(text);
    m_text = found != p.texts.end() ? &*found : &*p.texts.emplace(text).first;
}

} // namespace gpuadvisor
