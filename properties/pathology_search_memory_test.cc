// FindPathology's fragmentation-oom branch on the archived fragmentation OOM
// (corpus/fragmentation-oom/2c66e5ef75cf5337: ResNet-50 at ratio 0.53 under
// cuda-caching, reduced to 4 operators). Its trace, by hand from c10's rules
// (memory/README.md): a 5,000,000 B constant, then two 30,000,000 B
// activations and a 10,000,000 B one; the baseline peak is 75,000,000 B.
// The constant (1-10 MiB) takes a 20 MiB segment; a 30,000,000 B request
// (over 10 MiB) takes a segment rounded up to 2 MiB, 31,457,280 B. The two
// segments need 52,428,800 B (50 MiB) of device while the bytes need
// 35,000,000 B: every budget in between is ok in bytes and out of memory
// under the allocator, and the constant cannot be evicted.
#include <gtest/gtest.h>

#include "plugins/plugin_heuristic.h"
#include "properties/pathology_search.h"
#include "sim/parse.h"

namespace dtrcheck {
namespace {

Graph ArchivedTrace() {
  return ParseTraceFile(std::string(DTRCHECK_SOURCE_DIR) +
                        "/corpus/fragmentation-oom/2c66e5ef75cf5337/trace.log");
}

PathologySearch FragmentationSearch(std::vector<double> ratios) {
  PathologySearch s;
  s.property = TraceProperty::kFragmentationOom;
  s.config.runtime = "RuntimeV2EagerOptimized";
  s.config.heuristic = "DTR";
  s.config.baseline_runtime = "RuntimeV2EagerOptimized";
  s.config.memory.model = MemoryModel::kCudaCaching;
  s.ratios = std::move(ratios);
  return s;
}

TEST(PathologySearchMemory, FindsTheArchivedFragmentationOomAtItsBudget) {
  const Graph graph = ArchivedTrace();
  // 0.40 (30,000,000 B): the bytes fail too, no fragmentation; 0.53
  // (39,750,000 B), the archived budget, is one.
  std::optional<PropertySpec> w = FindPathology(graph, FragmentationSearch({0.40, 0.53}));
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->property, TraceProperty::kFragmentationOom);
  EXPECT_FALSE(w->lo.has_value());
  ASSERT_TRUE(w->hi.ratio.has_value());
  EXPECT_EQ(*w->hi.ratio, 0.53);
  EXPECT_EQ(w->config.memory.model, MemoryModel::kCudaCaching);
  const PropertyCheck check = CheckTraceProperty(graph, *w);
  EXPECT_TRUE(check.holds) << check.summary;
  // hi under bytes (ok), then under the allocator (oom) at 39,750,000 B.
  ASSERT_EQ(check.runs.size(), 2u);
  EXPECT_EQ(check.runs[0].status, Status::kOk);
  EXPECT_EQ(check.runs[1].status, Status::kOom);
  EXPECT_EQ(check.runs[1].budget, 39750000);
  ASSERT_TRUE(check.diagnosis && check.diagnosis->oom);
  EXPECT_EQ(check.diagnosis->oom->request, 30000000);
}

TEST(PathologySearchMemory, AStretchIsReportedAtItsLargestBudget) {
  // 0.53, 0.60 and 0.69 (51,750,000 B < 52,428,800 B) are one stretch of
  // fragmentation OOMs; 0.70 (52,500,000 B) holds both segments and is ok.
  std::optional<PropertySpec> w =
      FindPathology(ArchivedTrace(), FragmentationSearch({0.53, 0.60, 0.69, 0.70}));
  ASSERT_TRUE(w.has_value());
  ASSERT_TRUE(w->hi.ratio.has_value());
  EXPECT_EQ(*w->hi.ratio, 0.69);
  EXPECT_FALSE(FindPathology(ArchivedTrace(), FragmentationSearch({0.70, 0.80})).has_value());
}

TEST(PathologySearchMemory, NoFragmentationWhereTheBytesFailToo) {
  EXPECT_FALSE(FindPathology(ArchivedTrace(), FragmentationSearch({0.30, 0.40})).has_value());
}

TEST(PathologySearchMemory, BytesHaveNoFragmentationOom) {
  PathologySearch s = FragmentationSearch({0.53});
  s.config.memory = MemoryOptions{};
  EXPECT_FALSE(FindPathology(ArchivedTrace(), s).has_value());
}

TEST(PathologySearchMemory, AnAddressReadingHeuristicHasNoFragmentationOom) {
  // Coop (policies/) reads addresses: bytes refuses it, so there is no bytes
  // run to compare with and no fragmentation-oom, where DTR has one (above).
  RegisterAddressPolicies();
  PathologySearch s = FragmentationSearch({0.53, 0.60, 0.69});
  s.config.heuristic = "Coop";
  s.config.memory.model = MemoryModel::kArena;
  EXPECT_FALSE(FindPathology(ArchivedTrace(), s).has_value());
  s.config.memory.model = MemoryModel::kCudaCaching;
  EXPECT_FALSE(FindPathology(ArchivedTrace(), s).has_value());
}

}  // namespace
}  // namespace dtrcheck
