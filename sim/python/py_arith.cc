// Python's int/float semantics on 128-bit integers. See py_arith.h.
//
// The quotient routines follow the idea of CPython's long_true_divide: take
// enough quotient bits (at least 55) by exact integer division, fold the
// remainder into a sticky bit, round half to even to 53 bits and scale by a
// power of two. Because every operand is at most 2^127 in magnitude (at most
// 2^254 for a product), every nonzero quotient lies in [2^-254, 2^127]: it is
// a normal double and never overflows, so no subnormal/overflow handling is
// needed and the power-of-two scaling is exact.
#include "sim/python/py_arith.h"

#include <bit>
#include <cmath>

#include <boost/multiprecision/cpp_int.hpp>

namespace dtrcheck {
namespace {

using U128 = unsigned __int128;

// A fixed-width Boost integer (no heap allocation) for a / (b * c) when the
// product leaves 128 bits: A << k then needs up to 254 + 56 bits.
using U512 = boost::multiprecision::number<boost::multiprecision::cpp_int_backend<
    512, 512, boost::multiprecision::unsigned_magnitude, boost::multiprecision::unchecked, void>>;

constexpr int kQuotientBits = 55;  // DBL_MANT_DIG + 2, as in CPython.

inline U128 Magnitude(Int v) { return v < 0 ? U128(0) - U128(v) : U128(v); }

inline int BitLength(U128 v) {
  const uint64_t hi = static_cast<uint64_t>(v >> 64);
  if (hi != 0) return 128 - std::countl_zero(hi);
  const uint64_t lo = static_cast<uint64_t>(v);
  return 64 - std::countl_zero(lo);
}

// 2^e as a double, for e within the normal exponent range.
inline double Pow2(int e) { return std::bit_cast<double>(static_cast<uint64_t>(e + 1023) << 52); }

// q (at most 64 significant bits, bit 0 already carrying the sticky bit when
// q has more than 53 bits) times 2^e. The uint64 -> double conversion rounds
// to nearest, ties to even, which is the rounding we want; the scaling is
// exact because the result is a normal double.
inline double Scale(uint64_t q, int e) {
  // e >= -(254 + 56) here, far inside the normal range.
  return static_cast<double>(q) * Pow2(e);
}

// Generic exact path: n / d for multiprecision unsigned values (n, d > 0).
template <typename U>
double DivideWide(const U& n, const U& d) {
  const int ln = static_cast<int>(boost::multiprecision::msb(n)) + 1;
  const int ld = static_cast<int>(boost::multiprecision::msb(d)) + 1;
  const int s = ln - ld - kQuotientBits;
  U q, r;
  if (s >= 0) {
    boost::multiprecision::divide_qr(n, U(d << s), q, r);
  } else {
    boost::multiprecision::divide_qr(U(n << -s), d, q, r);
  }
  uint64_t q64 = static_cast<uint64_t>(q);  // 55 or 56 bits
  if (!r.is_zero()) q64 |= 1;
  return Scale(q64, s);
}

// (hi:lo) / d for a quotient known to fit in 64 bits (hi < d).
inline uint64_t Div128By64(uint64_t hi, uint64_t lo, uint64_t d, uint64_t* rem) {
#if defined(__x86_64__)
  uint64_t q, r;
  __asm__("divq %[v]" : "=a"(q), "=d"(r) : [v] "r"(d), "a"(lo), "d"(hi));
  *rem = r;
  return q;
#else
  const U128 n = (U128(hi) << 64) | lo;
  *rem = static_cast<uint64_t>(n % d);
  return static_cast<uint64_t>(n / d);
#endif
}

// A / B for A, B > 0 as unsigned 128-bit values: the correctly rounded double.
//
// With s = bitlen(A) - bitlen(B) - 55, let N = A * 2^max(-s, 0) and
// D = B * 2^max(s, 0); q = floor(N / D) has 55 or 56 bits and A / B =
// (N / D) * 2^s. D has at most 128 bits (at most 73 when s >= 0) but N may
// need up to 183, so q is found as in Knuth's algorithm D: divide the top of N
// by the top 64 bits of D (one divq), which overestimates q by at most one,
// and fix that with the remainder N - q * D. That remainder lies in [-D, D)
// and D <= 2^127, so it is exact when computed modulo 2^128 and read as
// signed, even though N itself may not fit.
double DivideMagnitudes(U128 a, U128 b) {
  const uint64_t a_hi = static_cast<uint64_t>(a >> 64);
  const uint64_t b_hi = static_cast<uint64_t>(b >> 64);
  if ((a_hi | b_hi) == 0) {
    const uint64_t a_lo = static_cast<uint64_t>(a);
    const uint64_t b_lo = static_cast<uint64_t>(b);
    if (a_lo < (uint64_t{1} << 53) && b_lo < (uint64_t{1} << 53)) {
      // Both exact as doubles: IEEE division is correctly rounded.
      return static_cast<double>(static_cast<int64_t>(a_lo)) /
             static_cast<double>(static_cast<int64_t>(b_lo));
    }
  }
  const int la = BitLength(a);
  const int lb = BitLength(b);
  const int s = la - lb - kQuotientBits;
  const int k = s < 0 ? -s : 0;       // N = A << k
  const U128 d = s > 0 ? b << s : b;  // D
  const int ld = s > 0 ? la - kQuotientBits : lb;
  // N mod 2^128 (N needs la + k = ld + 55 bits).
  const U128 n_low = k < 128 ? a << k : 0;
  uint64_t q;
  bool inexact;
  if (ld <= 64) {
    // N has at most 119 bits and D fits in a word: one exact divq.
    uint64_t rem;
    q = Div128By64(static_cast<uint64_t>(n_low >> 64), static_cast<uint64_t>(n_low),
                   static_cast<uint64_t>(d), &rem);
    inexact = rem != 0;
  } else {
    const int t = ld - 64;
    const uint64_t d_top = static_cast<uint64_t>(d >> t);  // top bit set
    // floor(N / 2^t), at most 119 bits.
    const U128 n_top = k >= t ? a << (k - t) : a >> (t - k);
    uint64_t unused;
    q = Div128By64(static_cast<uint64_t>(n_top >> 64), static_cast<uint64_t>(n_top), d_top,
                   &unused);
    // q is floor(N / D) or one more.
    U128 r = n_low - U128(q) * d;
    const U128 mask = static_cast<U128>(static_cast<Int>(r) >> 127);  // all ones if r < 0
    q += static_cast<uint64_t>(mask);                                 // q - 1 when r < 0
    r += d & mask;
    inexact = r != 0;
  }
  return Scale(q | (inexact ? 1 : 0), s);
}

template <typename U>
U ToWide(U128 v) {
  U r = static_cast<uint64_t>(v >> 64);
  r <<= 64;
  r |= static_cast<uint64_t>(v);
  return r;
}

}  // namespace

std::string IntToString(Int v) {
  if (v == 0) return "0";
  U128 m = Magnitude(v);
  char buf[48];
  int pos = sizeof buf;
  while (m != 0) {
    buf[--pos] = static_cast<char>('0' + static_cast<int>(m % 10));
    m /= 10;
  }
  if (v < 0) buf[--pos] = '-';
  return std::string(buf + pos, sizeof buf - pos);
}

std::optional<Int> ParseInt(std::string_view text) {
  bool negative = false;
  if (!text.empty() && text.front() == '-') {
    negative = true;
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  // At most 18 digits cannot overflow 64 bits: no bound check per digit (a
  // 128-bit division each). Logs give sizes and times this way.
  if (text.size() <= 18) {
    uint64_t v = 0;
    for (char c : text) {
      if (c < '0' || c > '9') return std::nullopt;
      v = v * 10 + static_cast<unsigned>(c - '0');
    }
    return negative ? -Int(v) : Int(v);
  }
  const U128 limit = (U128(1) << 127) + (negative ? 1 : 0);  // exclusive bound of |v|
  U128 m = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const unsigned digit = static_cast<unsigned>(c - '0');
    // Need m * 10 + digit <= limit - 1.
    if (m > (limit - 1 - digit) / 10) return std::nullopt;
    m = m * 10 + digit;
  }
  if (negative) return static_cast<Int>(U128(0) - m);
  return static_cast<Int>(m);
}

double IntToDouble(Int v) {
  const U128 m = Magnitude(v);
  double d;
  if ((m >> 64) == 0) {
    d = static_cast<double>(static_cast<uint64_t>(m));
  } else {
    // Keep the top 64 bits and fold the rest into a sticky bit.
    const int sh = BitLength(m) - 64;
    uint64_t top = static_cast<uint64_t>(m >> sh);
    if ((m & ((U128(1) << sh) - 1)) != 0) top |= 1;
    d = Scale(top, sh);
  }
  return v < 0 ? -d : d;
}

double TrueDivide(Int a, Int b) {
  const bool negate = (a < 0) != (b < 0);
  if (a == 0) return negate ? -0.0 : 0.0;
  const double q = DivideMagnitudes(Magnitude(a), Magnitude(b));
  return negate ? -q : q;
}

double TrueDivideByProduct(Int a, Int b, Int c) {
  // Both factors within int64: the product always fits (one 64x64 multiply).
  if (b == static_cast<int64_t>(b) && c == static_cast<int64_t>(c)) {
    return TrueDivide(a, static_cast<Int>(static_cast<int64_t>(b)) * static_cast<int64_t>(c));
  }
  Int bc;
  if (!__builtin_mul_overflow(b, c, &bc)) return TrueDivide(a, bc);
  const bool negate = (a < 0) != ((b < 0) != (c < 0));
  if (a == 0) return negate ? -0.0 : 0.0;
  const U512 n = ToWide<U512>(Magnitude(a));
  const U512 d = ToWide<U512>(Magnitude(b)) * ToWide<U512>(Magnitude(c));
  const double q = DivideWide<U512>(n, d);
  return negate ? -q : q;
}

int CompareIntDouble(Int i, double d) {
  if (std::isinf(d)) return d > 0 ? -1 : 1;
  // Every Int lies in [-2^127, 2^127).
  constexpr double kTwo127 = 170141183460469231731687303715884105728.0;
  if (d >= kTwo127) return -1;
  if (d < -kTwo127) return 1;
  const double t = std::trunc(d);
  const Int ti = static_cast<Int>(t);  // exact: t is an integer in range
  if (i < ti) return -1;
  if (i > ti) return 1;
  const double frac = d - t;  // exact
  if (frac > 0) return -1;
  if (frac < 0) return 1;
  return 0;
}

Int TruncToInt(double d) { return static_cast<Int>(std::trunc(d)); }

}  // namespace dtrcheck
