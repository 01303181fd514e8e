// Numeric command-line values, checked in one place for every command.
//
// CLI11's own Range validator lets "nan" through (every comparison with NaN
// is false) and calls "abc" out of range. These say what is wrong:
//
//   --ratio: "nan" is not a number
//   --ratio: "abc" is not a number
//   --ratio: 2e6 is not in [0, 1e+06]
//
// Integers (budgets, limits, seeds) are read exactly, in what Int holds,
// -2^127 .. 2^127-1, and written exactly into records (io/json.h). simrd's
// ints are unbounded: a larger value is refused naming the option
// (QUIRKS.md, Q-INT-RANGE).
#ifndef DTRCHECK_CLI_NUMBER_OPTION_H_
#define DTRCHECK_CLI_NUMBER_OPTION_H_

#include <string>

#include <CLI/CLI.hpp>

#include "sim/py_arith.h"

namespace dtrcheck {

// A validator for a floating-point option: a finite number in [lo, hi].
CLI::Validator FiniteRange(double lo, double hi);

// `text` as an integer for `option`, in -2^127 .. 2^127-1 (and >= 0 when
// `non_negative`). Throws CLI::ValidationError naming the option.
Int ParseIntOption(const std::string& text, const std::string& option, bool non_negative);

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_NUMBER_OPTION_H_
