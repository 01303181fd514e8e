// SumMasked against its definition (a sum over the 64 positions, each
// entry counted where its bit is set), through both implementations, on
// masks from empty to full and values at the limits the header states.
#include "base/masked_sum.h"

#include <gtest/gtest.h>  // before rapidcheck/gtest.h, which uses its macros
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <vector>

namespace dtrcheck {
namespace {

MaskedSums Definition(const int64_t* values, const uint32_t* counts, uint64_t mask) {
  MaskedSums sums;
  for (int i = 0; i < 64; ++i) {
    if ((mask >> i & 1) == 0) continue;
    sums.values += values[i];
    sums.counts += counts[i];  // modulo 2^32, as documented
  }
  return sums;
}

void ExpectSame(const MaskedSums& a, const MaskedSums& b) {
  EXPECT_EQ(a.values, b.values);
  EXPECT_EQ(a.counts, b.counts);
}

// Each implementation, and the dispatching entry point, against the definition.
void CheckAll(const int64_t* values, const uint32_t* counts, uint64_t mask) {
  const MaskedSums want = Definition(values, counts, mask);
  ExpectSame(SumMaskedPerBit(values, counts, mask), want);
  ExpectSame(SumMasked(values, counts, mask), want);
  if (HaveAvx512Sums()) ExpectSame(SumMaskedAvx512(values, counts, mask), want);
}

RC_GTEST_PROP(SumMasked, AgreesWithTheDefinition, ()) {
  const auto values = *rc::gen::container<std::vector<int64_t>>(
      64, rc::gen::inRange<int64_t>(-kMaskedSumValueLimit + 1, kMaskedSumValueLimit));
  const auto counts =
      *rc::gen::container<std::vector<uint32_t>>(64, rc::gen::arbitrary<uint32_t>());
  const auto mask = *rc::gen::arbitrary<uint64_t>();
  const MaskedSums want = Definition(values.data(), counts.data(), mask);
  const MaskedSums per_bit = SumMaskedPerBit(values.data(), counts.data(), mask);
  RC_ASSERT(per_bit.values == want.values && per_bit.counts == want.counts);
  const MaskedSums chosen = SumMasked(values.data(), counts.data(), mask);
  RC_ASSERT(chosen.values == want.values && chosen.counts == want.counts);
  if (HaveAvx512Sums()) {
    const MaskedSums avx = SumMaskedAvx512(values.data(), counts.data(), mask);
    RC_ASSERT(avx.values == want.values && avx.counts == want.counts);
  }
}

TEST(SumMasked, ExtremesOfMaskAndValues) {
  std::vector<int64_t> values(64);
  std::vector<uint32_t> counts(64);
  for (int i = 0; i < 64; ++i) {
    // Largest magnitudes allowed, alternating in sign, and counts whose
    // full sum wraps past 2^32.
    values[i] = (i % 2 == 0 ? 1 : -1) * (kMaskedSumValueLimit - 1 - i);
    counts[i] = 0xFFFFFFF0u - static_cast<uint32_t>(i);
  }
  for (uint64_t mask :
       {uint64_t{0}, ~uint64_t{0}, uint64_t{1}, uint64_t{1} << 63, uint64_t{0x5555555555555555},
        uint64_t{0xFF00FF00FF00FF00}, uint64_t{0x00000000FFFFFFFF}, uint64_t{0xFFFFFFFF00000000}}) {
    CheckAll(values.data(), counts.data(), mask);
  }
  // All positive at the limit: 64 of them still fit an int64.
  for (int i = 0; i < 64; ++i) values[i] = kMaskedSumValueLimit - 1;
  CheckAll(values.data(), counts.data(), ~uint64_t{0});
  EXPECT_EQ(SumMasked(values.data(), counts.data(), ~uint64_t{0}).values,
            64 * (kMaskedSumValueLimit - 1));
}

// Arrays shorter than 64 entries, as at the end of the per-storage arrays:
// the mask selects only entries that exist.
TEST(SumMasked, ArraysShorterThanAWord) {
  for (int k = 1; k <= 64; k += 9) {
    std::vector<int64_t> values(static_cast<size_t>(k), 3);
    std::vector<uint32_t> counts(static_cast<size_t>(k), 5);
    const uint64_t mask = k == 64 ? ~uint64_t{0} : (uint64_t{1} << k) - 1;
    const MaskedSums sums = SumMasked(values.data(), counts.data(), mask);
    EXPECT_EQ(sums.values, 3 * k);
    EXPECT_EQ(sums.counts, static_cast<uint32_t>(5 * k));
  }
}

}  // namespace
}  // namespace dtrcheck
