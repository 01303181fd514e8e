// Numeric command-line values, checked in one place for every command.
//
// CLI11's own conversions and validators let hostile values through: an
// empty value converts to 0 ("--seed ''" is seed 0), "-1" wraps to 2^64-1 in
// an unsigned option, Range and PositiveNumber let "nan" through (every
// comparison with NaN is false), "abc" is called out of range. Every numeric
// option of every command declares one of the validators below instead,
// which say what is wrong and name the option (exit 2):
//
//   --ratio: "nan" is not a number
//   --ratio: "abc" is not a number
//   --ratio: 2e6 is not in [0, 1e+06]
//   --seed: -1 is not in [0, 18446744073709551615]
//   --budget: expected an integer, got ""
//
// Integers (budgets, limits, seeds) are read exactly, as decimal digits with
// an optional '-', in what Int holds, -2^127 .. 2^127-1, and written exactly
// into records (io/json.h). simrd's ints are unbounded: a larger value is
// refused naming the option (QUIRKS.md, Q-INT-RANGE).
#ifndef DTRCHECK_CLI_NUMBER_OPTION_H_
#define DTRCHECK_CLI_NUMBER_OPTION_H_

#include <limits>
#include <string>

#include <CLI/CLI.hpp>

#include "sim/python/py_arith.h"

namespace dtrcheck {

// A validator for a floating-point option: a finite number in [lo, hi].
CLI::Validator FiniteRange(double lo, double hi);

// A validator for a floating-point option: a finite number in (0, hi]
// (seconds, which must be some).
CLI::Validator FinitePositive(double hi);

// A validator for an integer option (typed or kept as text): an integer in
// [lo, hi]. Give the option's type's range (IntegerRangeOf) at least: CLI11
// would wrap or saturate what does not fit.
CLI::Validator IntegerRange(Int lo, Int hi);
template <typename T>
CLI::Validator IntegerRangeOf(Int lo = std::numeric_limits<T>::min(),
                              Int hi = std::numeric_limits<T>::max()) {
  return IntegerRange(lo, hi);
}

// A validator for a numeric option kept as text whose form the command
// checks after parsing (a grid bound, "i/n"): refuses only an empty value,
// which would read as the option not given.
CLI::Validator NonEmptyNumber();

// A validator for an integer option kept as text and parsed after the
// command line (ParseIntOption): any Int, or any non-negative one.
CLI::Validator IntegerText(bool non_negative);

// `text` as an integer for `option`, in -2^127 .. 2^127-1 (and >= 0 when
// `non_negative`). Throws CLI::ValidationError naming the option.
Int ParseIntOption(const std::string& text, const std::string& option, bool non_negative);

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_NUMBER_OPTION_H_
