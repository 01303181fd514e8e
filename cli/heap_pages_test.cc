// UseHugePagesForHeap marks the main heap for transparent huge pages where
// the kernel offers them on request ("madvise" or "always" in
// /sys/kernel/mm/transparent_hugepage/enabled), as glibc.malloc.hugetlb=1
// would: the [heap] mapping then carries the "hg" flag in /proc/self/smaps,
// and a large block is carved from it, not mapped on its own.
#include "cli/heap_pages.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "base/huge_pages.h"

namespace dtrcheck {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The line starting with `field` (as "VmFlags:") of the mapping that holds
// `address` in /proc/self/smaps, "" if there is none.
std::string SmapsLineAt(const void* address, const std::string& field) {
  const auto a = reinterpret_cast<uintptr_t>(address);
  std::istringstream smaps(ReadFile("/proc/self/smaps"));
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-') {
      inside = lo <= a && a < hi;
      continue;
    }
    if (inside && line.rfind(field, 0) == 0) return line;
  }
  return "";
}

std::string VmFlagsAt(const void* address) { return SmapsLineAt(address, "VmFlags:"); }

// Why UseHugePagesForHeap cannot be tested here, or nullptr.
const char* WhyNoHugePages() {
  if (std::getenv("GLIBC_TUNABLES")) return "GLIBC_TUNABLES set: the function leaves malloc alone";
  if (!KernelOffersHugePagesOnRequest()) return "no transparent huge pages here";
  return nullptr;
}

TEST(HeapPages, LargeBlocksComeFromAHugePageHeap) {
  if (const char* why = WhyNoHugePages()) GTEST_SKIP() << why;
  UseHugePagesForHeap();
  EXPECT_TRUE(HeapOnHugePages()) << "the heap's huge pages were not noted (base/huge_pages.h)";
  // 8 MiB: above malloc's default mmap threshold, so it lands in the heap
  // only because the threshold was raised.
  std::unique_ptr<char[]> block(new char[size_t{8} << 20]);
  block[0] = 1;
  const std::string flags = VmFlagsAt(block.get() + (size_t{4} << 20));
  EXPECT_NE(flags.find(" hg"), std::string::npos) << "mapping of the block: " << flags;
}

// The heap below the first huge-page boundary cannot have huge pages; new
// blocks must not start there (on the LSTM trace the parse faulted up to
// 2 MiB of it in 4 KiB at a time, some 330 faults of 530 in a run).
TEST(HeapPages, NewBlocksStartOnTheHugePagePart) {
  if (const char* why = WhyNoHugePages()) GTEST_SKIP() << why;
  UseHugePagesForHeap();
  // Larger than any block freed before: carved from the top of the heap.
  std::unique_ptr<char[]> block(new char[size_t{1} << 20]);
  block[0] = 1;
  const std::string flags = VmFlagsAt(block.get());
  EXPECT_NE(flags.find(" hg"), std::string::npos) << "mapping of the block's start: " << flags;
}

// The kernel's count of huge-page faults that fell back to small pages.
long ThpFallbacks() {
  std::istringstream vmstat(ReadFile("/proc/vmstat"));
  std::string key;
  long value = 0;
  while (vmstat >> key >> value)
    if (key == "thp_fault_fallback") return value;
  return -1;
}

// The AnonHugePages of the mapping that holds `address`, in kB (-1: none).
long AnonHugeKbAt(const void* address) {
  const std::string line = SmapsLineAt(address, "AnonHugePages:");
  return line.empty() ? -1 : std::stol(line.substr(line.find(':') + 1));
}

// The first block's memory is a huge page: nothing malloc wrote while the
// heap was being set up (the header after its probe block) left that huge
// page's range with small pages. (Whether it would depends on where the
// heap starts, which the kernel randomizes: a regression shows in about
// half the runs.)
TEST(HeapPages, FirstHugePageIsWhole) {
  if (const char* why = WhyNoHugePages()) GTEST_SKIP() << why;
  UseHugePagesForHeap();
  const long fallbacks = ThpFallbacks();
  std::unique_ptr<char[]> block(new char[size_t{1} << 20]);
  std::memset(block.get(), 1, size_t{1} << 20);
  if (ThpFallbacks() != fallbacks) GTEST_SKIP() << "the kernel had no huge page to give";
  EXPECT_GE(AnonHugeKbAt(block.get()), 2048);
}

TEST(HeapPages, UsersTunablesWin) {
  setenv("GLIBC_TUNABLES", "glibc.malloc.check=0", 1);
  UseHugePagesForHeap();
  std::unique_ptr<char[]> block(new char[size_t{8} << 20]);
  block[0] = 1;
  EXPECT_EQ(VmFlagsAt(block.get()).find(" hg"), std::string::npos);
}

}  // namespace
}  // namespace dtrcheck
