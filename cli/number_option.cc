#include "cli/number_option.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

namespace dtrcheck {

namespace {

// What is wrong with `text` as a finite floating-point number, "" if
// nothing; *v is the number.
std::string FloatProblem(const std::string& text, double* v) {
  // strtod accepts "nan", "inf" and hex floats; all of the text must be the
  // number.
  char* end = nullptr;
  *v = text.empty() ? 0 : std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || std::isnan(*v))
    return "\"" + text + "\" is not a number";
  return "";
}

// What is wrong with `text` as an Int (>= 0 when `non_negative`), "" if
// nothing; *v is the integer.
std::string IntegerProblem(const std::string& text, bool non_negative, Int* v) {
  auto parsed = ParseInt(text);
  if (!parsed) {
    bool digits = !text.empty() && text != "-";
    for (size_t i = text[0] == '-' ? 1 : 0; i < text.size(); ++i)
      digits = digits && text[i] >= '0' && text[i] <= '9';
    if (!digits) return "expected an integer, got \"" + text + "\"";
  }
  if (non_negative && (parsed ? *parsed < 0 : text[0] == '-')) return "must not be negative";
  if (!parsed) {
    // Digits that ParseInt cannot hold. A value of 10^6 digits is quoted
    // by its length.
    std::string shown = text.size() <= 60 ? text
                                          : text.substr(0, 40) + "... (" +
                                                std::to_string(text.size()) + " characters)";
    return shown +
           " is outside -2^127 .. 2^127-1, the integers dtrcheck holds (QUIRKS.md, Q-INT-RANGE)";
  }
  *v = *parsed;
  return "";
}

}  // namespace

CLI::Validator FiniteRange(double lo, double hi) {
  std::ostringstream range;
  range << "[" << lo << ", " << hi << "]";
  const std::string desc = "FLOAT in " + range.str();
  return CLI::Validator(
      [lo, hi, range = range.str()](std::string& text) -> std::string {
        double v;
        if (std::string problem = FloatProblem(text, &v); !problem.empty()) return problem;
        if (!(v >= lo && v <= hi)) return text + " is not in " + range;
        return "";
      },
      desc);
}

CLI::Validator FinitePositive(double hi) {
  std::ostringstream range;
  range << "(0, " << hi << "]";
  const std::string desc = "FLOAT in " + range.str();
  return CLI::Validator(
      [hi, range = range.str()](std::string& text) -> std::string {
        double v;
        if (std::string problem = FloatProblem(text, &v); !problem.empty()) return problem;
        if (!(v > 0 && v <= hi)) return text + " is not in " + range;
        return "";
      },
      desc);
}

CLI::Validator IntegerRange(Int lo, Int hi) {
  const std::string range = "[" + IntToString(lo) + ", " + IntToString(hi) + "]";
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        Int v = 0;
        std::string problem = IntegerProblem(text, false, &v);
        // Digits beyond Int are out of any range an option has.
        if (problem.find("Q-INT-RANGE") != std::string::npos ||
            (problem.empty() && (v < lo || v > hi)))
          return (text.size() <= 60 ? text : text.substr(0, 40) + "...") + " is not in " + range;
        return problem;
      },
      "INT in " + range);
}

CLI::Validator IntegerText(bool non_negative) {
  return CLI::Validator(
      [non_negative](std::string& text) -> std::string {
        Int v;
        return IntegerProblem(text, non_negative, &v);
      },
      non_negative ? "INT >= 0" : "INT");
}

CLI::Validator NonEmptyNumber() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return text.empty() ? "expected a number, got \"\"" : "";
      },
      "");
}

Int ParseIntOption(const std::string& text, const std::string& option, bool non_negative) {
  Int v = 0;
  if (std::string problem = IntegerProblem(text, non_negative, &v); !problem.empty())
    throw CLI::ValidationError(option, problem);
  return v;
}

}  // namespace dtrcheck
