// Python's integer and float semantics, as simrd relies on them.
//
// simrd is written in Python: sizes, compute times, the clock and staleness
// are unbounded ints, and a score such as compute / (size * staleness) is a
// Python true division of two ints, which is the correctly rounded double of
// the exact rational (CPython's long_true_divide). dtrcheck keeps these
// quantities in 128-bit integers (sizes and times are parsed as 64-bit, and
// no simulation adds up 2^64 of them), and reproduces the rounding exactly.
// Where a product leaves 128 bits, Boost.Multiprecision takes over.
#ifndef DTRCHECK_SIM_PYTHON_PY_ARITH_H_
#define DTRCHECK_SIM_PYTHON_PY_ARITH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dtrcheck {

// A Python int as simrd uses it: clock, compute sums, memory, sizes.
using Int = __int128;

// Decimal digits of v, as Python's str(int) prints it.
std::string IntToString(Int v);

// Parses an optional '-' followed by decimal digits. Returns nullopt on an
// empty string, any other character, or a value outside [-2^127, 2^127).
std::optional<Int> ParseInt(std::string_view text);

// Python's float(v): the double nearest to v, ties to even.
double IntToDouble(Int v);

// Python's a / b for ints a and b (b != 0): the correctly rounded quotient.
double TrueDivide(Int a, Int b);

// Python's a / (b * c) for ints, where the exact product b * c may need more
// than 128 bits. b * c != 0.
double TrueDivideByProduct(Int a, Int b, Int c);

// Python's comparison of an int with a float, which is exact (no rounding of
// the int). Returns <0, 0, >0. d must not be NaN; +-inf are allowed.
int CompareIntDouble(Int i, double d);

// Python's int(d) for a finite double: truncation toward zero. The caller
// guarantees |d| < 2^127.
Int TruncToInt(double d);

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_PYTHON_PY_ARITH_H_
