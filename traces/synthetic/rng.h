// The generators' random numbers: SplitMix64 and integer-only derivations.
//
// Generated traces must be byte-identical for the same seed on every platform
// and standard library, so nothing here uses std::*_distribution (their
// algorithms are implementation-defined) or floating point.
#ifndef DTRCHECK_TRACES_SYNTHETIC_RNG_H_
#define DTRCHECK_TRACES_SYNTHETIC_RNG_H_

#include <cstdint>

namespace dtrcheck {

class GenRng {
 public:
  explicit GenRng(uint64_t seed) : state_(seed) {}

  // SplitMix64 (Steele, Lea, Flood 2014).
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n), n > 0 (multiply-shift; the bias is below 2^-32 for
  // the small n used here, and it is deterministic, which is what matters).
  uint64_t Below(uint64_t n) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(Next()) * n) >> 64);
  }
  // Uniform in [lo, hi].
  int64_t Range(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(Below(static_cast<uint64_t>(hi - lo) + 1));
  }
  // True with probability num/den.
  bool Chance(uint64_t num, uint64_t den) { return Below(den) < num; }
  // A heavy-tailed multiplier in [1, 2^max_doublings]: each doubling is taken
  // with probability 1/2 (a discrete Pareto tail, P(X >= 2^k) = 2^-k), and a
  // uniform fraction of one more doubling spreads the values between powers.
  uint64_t HeavyTail(int max_doublings, uint64_t scale) {
    int k = 0;
    while (k < max_doublings && Chance(1, 2)) ++k;
    uint64_t base = scale << k;
    return base + Below(base + 1);
  }
  // Log-uniform in [lo, hi] (lo >= 1), by picking an octave and a point in it.
  uint64_t LogUniform(uint64_t lo, uint64_t hi) {
    int octaves = 0;
    while ((lo << (octaves + 1)) <= hi) ++octaves;
    uint64_t a = lo << Below(static_cast<uint64_t>(octaves) + 1);
    uint64_t b = a * 2 > hi ? hi : a * 2;
    return a + Below(b - a + 1);
  }

 private:
  uint64_t state_;
};

}  // namespace dtrcheck

#endif  // DTRCHECK_TRACES_SYNTHETIC_RNG_H_
