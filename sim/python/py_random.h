// CPython's `random` module, as far as simrd's RandomStorage uses it.
//
// RandomStorage (and AbRandom) evict storage_pool[random.randrange(0, n)].
// To choose exactly what simrd chooses after random.seed(S), this reproduces
// CPython's MT19937 seeding from an int (init_by_array over the 32-bit words
// of |S|) and its randrange (_randbelow_with_getrandbits).
#ifndef DTRCHECK_SIM_PYTHON_PY_RANDOM_H_
#define DTRCHECK_SIM_PYTHON_PY_RANDOM_H_

#include <array>
#include <cstdint>

#include "sim/python/py_arith.h"

namespace dtrcheck {

class PyRandom {
 public:
  // Same state as Python's random.seed(seed) for an int seed.
  explicit PyRandom(Int seed = 0);

  void Seed(Int seed);

  // Python's random.getrandbits(k) for 0 < k <= 64.
  uint64_t GetRandBits(int k);

  // Python's random.randrange(0, n) for n > 0.
  uint64_t RandBelow(uint64_t n);

  // One raw MT19937 output (genrand_uint32).
  uint32_t NextU32();

 private:
  void InitGenrand(uint32_t s);
  std::array<uint32_t, 624> mt_{};
  int mti_ = 625;
};

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_PYTHON_PY_RANDOM_H_
