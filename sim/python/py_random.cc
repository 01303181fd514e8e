// CPython's Mersenne Twister (Modules/_randommodule.c) and the parts of
// Lib/random.py that simrd uses. See py_random.h.
#include "sim/python/py_random.h"

#include <bit>

namespace dtrcheck {
namespace {

constexpr int kN = 624;
constexpr int kM = 397;
constexpr uint32_t kMatrixA = 0x9908b0dfU;
constexpr uint32_t kUpperMask = 0x80000000U;
constexpr uint32_t kLowerMask = 0x7fffffffU;

}  // namespace

PyRandom::PyRandom(Int seed) { Seed(seed); }

void PyRandom::InitGenrand(uint32_t s) {
  mt_[0] = s;
  for (int i = 1; i < kN; ++i) {
    mt_[i] = 1812433253U * (mt_[i - 1] ^ (mt_[i - 1] >> 30)) + static_cast<uint32_t>(i);
  }
  mti_ = kN;
}

void PyRandom::Seed(Int seed) {
  // random_seed(): n = abs(arg); key = 32-bit words of n, least significant
  // first; a zero seed gives the key [0].
  unsigned __int128 n =
      seed < 0 ? (unsigned __int128)0 - (unsigned __int128)seed : (unsigned __int128)seed;
  uint32_t key[4];
  int key_length = 0;
  while (n != 0) {
    key[key_length++] = static_cast<uint32_t>(n);
    n >>= 32;
  }
  if (key_length == 0) key[key_length++] = 0;

  // init_by_array()
  InitGenrand(19650218U);
  int i = 1;
  int j = 0;
  for (int k = (kN > key_length ? kN : key_length); k != 0; --k) {
    mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525U)) + key[j] +
             static_cast<uint32_t>(j);
    ++i;
    ++j;
    if (i >= kN) {
      mt_[0] = mt_[kN - 1];
      i = 1;
    }
    if (j >= key_length) j = 0;
  }
  for (int k = kN - 1; k != 0; --k) {
    mt_[i] =
        (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941U)) - static_cast<uint32_t>(i);
    ++i;
    if (i >= kN) {
      mt_[0] = mt_[kN - 1];
      i = 1;
    }
  }
  mt_[0] = 0x80000000U;  // MSB is 1, assuring a non-zero initial array.
}

uint32_t PyRandom::NextU32() {
  static constexpr uint32_t kMag01[2] = {0x0U, kMatrixA};
  if (mti_ >= kN) {
    if (mti_ == kN + 1) InitGenrand(5489U);  // never seeded (not reachable via ctor)
    int kk = 0;
    for (; kk < kN - kM; ++kk) {
      const uint32_t y = (mt_[kk] & kUpperMask) | (mt_[kk + 1] & kLowerMask);
      mt_[kk] = mt_[kk + kM] ^ (y >> 1) ^ kMag01[y & 0x1U];
    }
    for (; kk < kN - 1; ++kk) {
      const uint32_t y = (mt_[kk] & kUpperMask) | (mt_[kk + 1] & kLowerMask);
      mt_[kk] = mt_[kk + (kM - kN)] ^ (y >> 1) ^ kMag01[y & 0x1U];
    }
    const uint32_t y = (mt_[kN - 1] & kUpperMask) | (mt_[0] & kLowerMask);
    mt_[kN - 1] = mt_[kM - 1] ^ (y >> 1) ^ kMag01[y & 0x1U];
    mti_ = 0;
  }
  uint32_t y = mt_[mti_++];
  y ^= (y >> 11);
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  y ^= (y >> 18);
  return y;
}

uint64_t PyRandom::GetRandBits(int k) {
  // _random_Random_getrandbits_impl(): k <= 32 is a single word shifted
  // right; otherwise 32-bit words fill the result least significant first,
  // and the last (partial) word drops its least significant bits.
  if (k <= 0) return 0;
  if (k <= 32) return NextU32() >> (32 - k);
  uint64_t lo = NextU32();
  uint64_t hi = NextU32();
  const int rest = k - 32;  // 1..32
  if (rest < 32) hi >>= (32 - rest);
  return lo | (hi << 32);
}

uint64_t PyRandom::RandBelow(uint64_t n) {
  // _randbelow_with_getrandbits(n)
  const int k = std::bit_width(n);
  uint64_t r = GetRandBits(k);
  while (r >= n) r = GetRandBits(k);
  return r;
}

}  // namespace dtrcheck
