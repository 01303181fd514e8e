// Sums of the entries of an array that a 64-bit mask selects: what an
// absorb adds up for the storages a bitmap union adds (RegionUpkeep::Absorb),
// a bitmap word at a time instead of a storage at a time.
//
// The bitmaps of absorbed interiors are dense (on the LSTM trace, 39 of a
// word's 64 storages on average), so a sum per added storage (find the
// bit, load its compute, load its row size) was most of an absorb. Where
// the processor has AVX-512, a word's sums are eight masked loads and adds
// of the computes and four of the row sizes, whatever the word holds; other
// processors take the per-bit loop. Both give the same integers: the sums
// are exact (see the bounds below), so the choice never changes a record.
#ifndef DTRCHECK_BASE_MASKED_SUM_H_
#define DTRCHECK_BASE_MASKED_SUM_H_

#include <cstdint>

namespace dtrcheck {

// Largest magnitude of a value of `values` below for which a word's sum
// cannot overflow int64: 64 entries of at most 2^57 each.
inline constexpr int64_t kMaskedSumValueLimit = int64_t{1} << 57;

struct MaskedSums {
  int64_t values = 0;   // sum of values[i] for each bit i of the mask
  uint32_t counts = 0;  // sum of counts[i] for the same bits, modulo 2^32
};

// The sums over the bits i of `mask` of values[i] and counts[i]. Only the
// selected entries are read. Every |values[i]| must be below
// kMaskedSumValueLimit; the sum of counts is taken modulo 2^32, which is
// exact when the caller knows that every subset of its counts sums below
// 2^32 (row sizes whose total fits a uint32).
MaskedSums SumMasked(const int64_t* values, const uint32_t* counts, uint64_t mask);

// The two implementations behind SumMasked, for tests: the per-bit loop,
// and the AVX-512 one (only where HaveAvx512Sums()).
MaskedSums SumMaskedPerBit(const int64_t* values, const uint32_t* counts, uint64_t mask);
bool HaveAvx512Sums();
MaskedSums SumMaskedAvx512(const int64_t* values, const uint32_t* counts, uint64_t mask);

}  // namespace dtrcheck

#endif  // DTRCHECK_BASE_MASKED_SUM_H_
