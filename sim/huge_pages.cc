#include "sim/huge_pages.h"

#include <cstdio>
#include <cstring>

namespace dtrcheck {

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
