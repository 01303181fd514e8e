// The memory regions hold on a long chain (issue 45, class 3): a storage's
// regions are emptied when it is evicted, and must give their memory back
// then, or every evicted storage keeps a bitmap as long as the trace is old
// when it was evicted, and the run's memory grows with the square of the
// trace.
#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <new>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "sim/heuristic.h"
#include "sim/parse.h"
#include "sim/runtime.h"
#include "sim/simulate.h"

// A counting allocator for this test binary: the bytes live on the heap,
// so that a test can weigh what a runtime holds.
namespace {
std::atomic<long long> g_live_bytes{0};
}  // namespace

void* operator new(size_t n) {
  // The size in front of the block, on a 16-byte boundary.
  void* p = std::malloc(n + 16);
  if (p == nullptr) throw std::bad_alloc();
  *static_cast<size_t*>(p) = n;
  g_live_bytes += static_cast<long long>(n);
  return static_cast<char*>(p) + 16;
}
namespace {
// Both deletes free here: a sized delete calling `operator delete(p)` reads,
// once inlined under -fprofile-use, as a delete of malloc's block to GCC
// (-Wmismatched-new-delete).
void CountedFree(void* p) noexcept {
  if (p == nullptr) return;
  char* block = static_cast<char*>(p) - 16;
  g_live_bytes -= static_cast<long long>(*reinterpret_cast<size_t*>(block));
  std::free(block);
}
}  // namespace
void operator delete(void* p) noexcept { CountedFree(p); }
void operator delete(void* p, size_t) noexcept { CountedFree(p); }

namespace dtrcheck {
namespace {

// bench/make_long_chain.py's chain: n operators, each on the previous
// activation, each activation released 64 operators later (the rest at the
// end, but for the last).
std::string ChainLog(int n) {
  auto size_of = [](long i) { return 4096 * (1 + (i * 7919) % 8); };
  auto time_of = [](long i) { return 1000 + (i * 104729) % 9000; };
  // Appended piece by piece: GCC 12's -Wrestrict misreads "literal" + string.
  std::string log;
  auto add = [&log](std::initializer_list<std::string_view> pieces) {
    for (std::string_view p : pieces) log.append(p);
    log.push_back('\n');
  };
  auto name = [](long i) { return std::string("x").append(std::to_string(i)); };
  add({R"({"ANNOTATION":"START","INSTRUCTION":"ANNOTATE"})"});
  add({R"({"INSTRUCTION":"CONSTANT","NAME":"x0"})"});
  add({R"({"INSTRUCTION":"MEMORY","MEMORY":")", std::to_string(size_of(0)), R"(","NAME":"x0"})"});
  auto release = [&](long i) { add({R"({"INSTRUCTION":"RELEASE","NAME":")", name(i), R"("})"}); };
  for (long i = 1; i <= n; ++i) {
    const std::string x = name(i);
    add({R"({"ARGS":[")", name(i - 1), R"("],"INSTRUCTION":"CALL","NAME":"op","RESULT":[")", x,
         R"("],"TIME":")", std::to_string(time_of(i)), R"("})"});
    add({R"({"INSTRUCTION":"MEMORY","MEMORY":")", std::to_string(size_of(i)), R"(","NAME":")", x,
         R"("})"});
    add({R"({"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":")", x, R"("})"});
    if (i >= 64) release(i - 64);
  }
  for (long i = n - 63 > 0 ? n - 63 : 0; i < n; ++i) release(i);
  return log;
}

// The bytes all regions hold outside themselves after a DTR run of the
// chain at ratio 0.5, which evicts every activation but the last.
size_t RegionHeapBytesAfterChain(int n) {
  const Graph g = ParseTrace(ChainLog(n), "chain");
  const Baseline base = RunBaseline(g, "RuntimeV2EagerOptimized");
  auto heuristic = MakeHeuristic("DTR");
  RuntimeOptions options;
  options.budget = BudgetFromRatio(base.peak, 0.5);
  Runtime rt(g, options, *heuristic);
  rt.RunSchedule();
  EXPECT_EQ(rt.distinct_evicted(), n - 1);
  size_t bytes = 0;
  for (size_t s = 0; s < rt.storages().size(); ++s) {
    const auto id = static_cast<StorageId>(s);
    bytes += rt.RegionOf(id).HeapBytes() + rt.RegionRevOf(id).HeapBytes();
  }
  return bytes;
}

// Only the material storages' regions hold anything: the constant's, whose
// interior is the whole evicted chain (a bitmap of n bits), and the last
// activation's. Before evicted storages gave their regions' memory back,
// 10,000 operators left 2.2 MB in regions, 20,000 left 8.6 MB.
TEST(RegionMemory, EvictedStoragesHoldNoRegionMemoryOnALongChain) {
  for (int n : {10000, 20000}) {
    const size_t bytes = RegionHeapBytesAfterChain(n);
    EXPECT_LE(bytes, static_cast<size_t>(n) / 8 + 16384) << n << " operators";
  }
}

// What a DTR run of the chain holds per storage of the trace, on the heap,
// once the run has ended (the runtime alone: the graph is made before).
// Region bookkeeping used to be allocated for every storage up front, a
// pair of Regions (512 bytes) each: with the Storage itself and the rest,
// 1.4 KB per operator, 1.45 GB for a chain of 1,000,000 operators (issue 45,
// class 3). Only the material storages hold regions now, which a chain
// keeps to a few dozen: what is left per storage is the Storage, its
// tensor and the upkeep's per-storage arrays.
TEST(RegionMemory, ARunHoldsNoRegionsForTheStoragesOfALongChain) {
  const int n = 20000;
  const Graph g = ParseTrace(ChainLog(n), "chain");
  const Baseline base = RunBaseline(g, "RuntimeV2EagerOptimized");
  auto heuristic = MakeHeuristic("DTR");
  RuntimeOptions options;
  options.budget = BudgetFromRatio(base.peak, 0.5);
  const long long before = g_live_bytes.load();
  Runtime rt(g, options, *heuristic);
  rt.RunSchedule();
  const long long held = g_live_bytes.load() - before;
  ASSERT_EQ(rt.storages().size(), static_cast<size_t>(n) + 1);
  const long long per_storage = held / (n + 1);
  std::printf("held after the run: %lld bytes, %lld per storage\n", held, per_storage);
  // Measured 461 bytes (Storage 160, its statistics 24, its tensor 24, the
  // upkeep's arrays and rows); the layout before, a Region pair (512) and a
  // Storage of 224 per storage, held about 1,010.
  EXPECT_LT(per_storage, 700) << held << " bytes held";
  // The regions themselves: an index entry per storage, the slots of the
  // storages that hold regions (a few at a time on a chain; slots come in
  // chunks of 64, so at most two chunks), and the constant's interior (n bits).
  EXPECT_LE(rt.RegionBytes(),
            static_cast<size_t>(n) * 4 + 2 * 64 * sizeof(RegionPair) + n / 8 + 4096);
}

}  // namespace
}  // namespace dtrcheck
