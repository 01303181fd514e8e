#include "base/huge_pages.h"

#include <atomic>
#include <cstdio>
#include <cstring>

namespace dtrcheck {

namespace {
std::atomic<bool> heap_on_huge_pages{false};
}  // namespace

void NoteHeapOnHugePages() { heap_on_huge_pages.store(true, std::memory_order_relaxed); }
// The kernel's mode is read here, when a caller first asks, not by the note:
// every dtrcheck process notes its heap at start-up, few ask.
bool HeapOnHugePages() {
  return heap_on_huge_pages.load(std::memory_order_relaxed) && KernelOffersHugePagesOnRequest();
}

bool KernelOffersHugePagesOnRequest() {
  static const bool on_request = [] {
    FILE* f = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "re");
    if (f == nullptr) return false;
    char mode[128] = {};
    const size_t got = std::fread(mode, 1, sizeof(mode) - 1, f);
    std::fclose(f);
    mode[got] = '\0';
    return std::strstr(mode, "[always]") != nullptr || std::strstr(mode, "[madvise]") != nullptr;
  }();
  return on_request;
}

}  // namespace dtrcheck
