#include "base/leave_to_exit.h"

#include <mutex>
#include <vector>

namespace dtrcheck {

void KeepUntilExit(const void* p) {
  // Both never destroyed: the list must outlive the static destructors,
  // after which leak checkers look.
  static auto* const mutex = new std::mutex;
  static auto* const kept = new std::vector<const void*>;
  std::lock_guard<std::mutex> lock(*mutex);
  kept->push_back(p);
}

}  // namespace dtrcheck
