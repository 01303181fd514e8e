#include "base/masked_sum.h"

#include <cstdlib>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace dtrcheck {

MaskedSums SumMaskedPerBit(const int64_t* values, const uint32_t* counts, uint64_t mask) {
  MaskedSums sums;
  for (uint64_t b = mask; b != 0; b &= b - 1) {
    const unsigned i = static_cast<unsigned>(__builtin_ctzll(b));
    sums.values += values[i];
    sums.counts += counts[i];
  }
  return sums;
}

#if defined(__x86_64__)

bool HaveAvx512Sums() {
  static const bool have = __builtin_cpu_supports("avx512f");
  return have;
}

// Masked-off entries are neither read nor faulted on (AVX-512 masked
// loads suppress faults), so the 64 entries need not all exist.
__attribute__((target("avx512f"))) MaskedSums SumMaskedAvx512(const int64_t* values,
                                                              const uint32_t* counts,
                                                              uint64_t mask) {
  __m512i v = _mm512_setzero_si512();
  for (int k = 0; k < 8; ++k) {
    const __mmask8 m = static_cast<__mmask8>(mask >> (8 * k));
    v = _mm512_add_epi64(v, _mm512_maskz_loadu_epi64(m, values + 8 * k));
  }
  __m512i c = _mm512_setzero_si512();
  for (int k = 0; k < 4; ++k) {
    const __mmask16 m = static_cast<__mmask16>(mask >> (16 * k));
    c = _mm512_add_epi32(c, _mm512_maskz_loadu_epi32(m, counts + 16 * k));
  }
  // Summed from memory: GCC 12's own reductions (_mm512_reduce_add_*,
  // _mm512_extracti64x4_epi64) trip -Wuninitialized in its header.
  int64_t vl[8];
  uint32_t cl[16];
  _mm512_storeu_si512(vl, v);
  _mm512_storeu_si512(cl, c);
  MaskedSums sums;
  for (int64_t x : vl) sums.values += x;
  for (uint32_t x : cl) sums.counts += x;
  return sums;
}

#else

bool HaveAvx512Sums() { return false; }
// Never called: HaveAvx512Sums() is false.
MaskedSums SumMaskedAvx512(const int64_t*, const uint32_t*, uint64_t) { std::abort(); }

#endif

MaskedSums SumMasked(const int64_t* values, const uint32_t* counts, uint64_t mask) {
  return HaveAvx512Sums() ? SumMaskedAvx512(values, counts, mask)
                          : SumMaskedPerBit(values, counts, mask);
}

}  // namespace dtrcheck
