#include "analysis/reduce_property.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "sim/parse.h"

namespace dtrcheck {
namespace {

TEST(TracePropertyNames, RoundTrip) {
  for (const std::string& name : TracePropertyNames())
    EXPECT_EQ(TracePropertyName(TracePropertyFromName(name)), name);
  EXPECT_STREQ(TracePropertyName(TraceProperty::kOverheadRise), "overhead-rise");
}

// "overhead" was overhead-rise's name until 2026-12-03; no archived manifest
// or command uses it any more, so it is refused like any other unknown name.
TEST(TracePropertyNames, RefusesTheOldNameOfOverheadRise) {
  EXPECT_THROW(TracePropertyFromName("overhead"), std::invalid_argument);
}

TEST(TracePropertyNames, UnknownNamesListTheValidOnes) {
  try {
    TracePropertyFromName("non-monotonic");
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("overhead-rise"), std::string::npos) << e.what();
  }
}

// x, y1, y2 take 3 KiB; y3 (2 KiB) fits in 4 KiB of bytes once y1 is
// released. The caching allocator's first segment (2 MiB) passes a 4 KiB
// device: out of memory where the bytes fit, a fragmentation OOM. Under the
// arena y3 evicts (y1's hole is 1 KiB) and runs: no fragmentation OOM.
Graph Holes() {
  auto call = [](const std::string& name, int size) {
    return "{\"ARGS\":[\"x\"],\"INSTRUCTION\":\"CALL\",\"NAME\":\"f\",\"RESULT\":[\"" + name +
           "\"],\"TIME\":\"1\"}\n{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":\"" + std::to_string(size) +
           "\",\"NAME\":\"" + name +
           "\"}\n{\"ALIAS\":\"-1\",\"INSTRUCTION\":\"ALIAS\",\"NAME\":\"" + name + "\"}\n";
  };
  return ParseTrace(
      "{\"ANNOTATION\":\"START\",\"INSTRUCTION\":\"ANNOTATE\"}\n"
      "{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"x\"}\n"
      "{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":\"1024\",\"NAME\":\"x\"}\n" +
          call("y1", 1024) + call("y2", 1024) + "{\"INSTRUCTION\":\"RELEASE\",\"NAME\":\"y1\"}\n" +
          call("y3", 2048),
      "holes");
}

TEST(FragmentationOom, HoldsWhereTheAllocatorRefusesAndTheBytesFit) {
  PropertySpec spec;
  spec.property = TraceProperty::kFragmentationOom;
  spec.config.memory.model = MemoryModel::kCudaCaching;
  spec.hi = BudgetSpec::Bytes(4096);
  ValidatePropertySpec(spec);
  const PropertyCheck check = CheckTraceProperty(Holes(), spec);
  EXPECT_TRUE(check.holds) << check.summary;
  ASSERT_EQ(check.runs.size(), 2u);
  EXPECT_EQ(check.runs[0].status, Status::kOk);  // bytes
  EXPECT_FALSE(check.runs[0].memory.has_value());
  EXPECT_EQ(check.runs[1].status, Status::kOom);  // the allocator
  ASSERT_TRUE(check.diagnosis && check.diagnosis->oom);
  EXPECT_TRUE(check.diagnosis->oom->BytesFit());
  // The arena evicts and runs: no fragmentation OOM.
  spec.config.memory.model = MemoryModel::kArena;
  EXPECT_FALSE(CheckTraceProperty(Holes(), spec).holds);
  // Below the bytes' own need both fail: not the allocator's failure.
  spec.config.memory.model = MemoryModel::kCudaCaching;
  spec.hi = BudgetSpec::Bytes(2048);
  EXPECT_FALSE(CheckTraceProperty(Holes(), spec).holds);
}

TEST(FragmentationOom, NeedsAnAllocatorAndOneBudget) {
  PropertySpec spec;
  spec.property = TraceProperty::kFragmentationOom;
  spec.hi = BudgetSpec::Bytes(4096);
  EXPECT_THROW(ValidatePropertySpec(spec), std::invalid_argument);  // bytes
  spec.config.memory.model = MemoryModel::kArena;
  spec.lo = BudgetSpec::Bytes(1024);
  EXPECT_THROW(ValidatePropertySpec(spec), std::invalid_argument);  // a lo
}

}  // namespace
}  // namespace dtrcheck
