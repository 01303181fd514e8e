// Python's str operations that simrd applies to the text of a log, on UTF-8
// bytes: line.rstrip() and int(text).
//
// The whitespace is str.isspace()'s set: \t \n \v \f \r \x1c-\x1f space,
// U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F,
// U+3000. The digits int() accepts are Unicode's decimal digits (category
// Nd) of Python 3.11 (Unicode 14.0): 66 runs of ten.
#ifndef DTRCHECK_SIM_PYTHON_PY_TEXT_H_
#define DTRCHECK_SIM_PYTHON_PY_TEXT_H_

#include <optional>
#include <string_view>

#include "sim/python/py_arith.h"

namespace dtrcheck {

// text.rstrip(): without its trailing Python whitespace.
std::string_view PyRstrip(std::string_view text);

// Python's int(text), base 10: surrounding whitespace (str.isspace()'s but
// \x1c-\x1f), a sign, digits of any script with single underscores between
// them. nullopt where Python raises
// ValueError (invalid UTF-8 included), and where the value is outside
// [-2^127, 2^127), then with *out_of_range set (when given).
std::optional<Int> PyIntFromText(std::string_view text, bool* out_of_range = nullptr);

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_PYTHON_PY_TEXT_H_
