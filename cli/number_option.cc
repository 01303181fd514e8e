#include "cli/number_option.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

namespace dtrcheck {

CLI::Validator FiniteRange(double lo, double hi) {
  std::ostringstream range;
  range << "[" << lo << ", " << hi << "]";
  const std::string desc = "FLOAT in " + range.str();
  return CLI::Validator(
      [lo, hi, range = range.str()](std::string& text) -> std::string {
        // strtod accepts "nan", "inf" and hex floats; all of the text must be
        // the number.
        char* end = nullptr;
        double v = text.empty() ? 0 : std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size() || std::isnan(v))
          return "\"" + text + "\" is not a number";
        if (!(v >= lo && v <= hi)) return text + " is not in " + range;
        return "";
      },
      desc);
}

Int ParseIntOption(const std::string& text, const std::string& option, bool non_negative) {
  auto v = ParseInt(text);
  if (!v) {
    bool digits = !text.empty() && text != "-";
    for (size_t i = text[0] == '-' ? 1 : 0; i < text.size(); ++i)
      digits = digits && text[i] >= '0' && text[i] <= '9';
    if (!digits) throw CLI::ValidationError(option, "expected an integer, got \"" + text + "\"");
  }
  if (non_negative && (v ? *v < 0 : text[0] == '-'))
    throw CLI::ValidationError(option, "must not be negative");
  if (!v) {
    // Digits that ParseInt cannot hold. A value of 10^6 digits is quoted
    // by its length.
    std::string shown = text.size() <= 60 ? text
                                          : text.substr(0, 40) + "... (" +
                                                std::to_string(text.size()) + " characters)";
    throw CLI::ValidationError(option, shown +
                                           " is outside -2^127 .. 2^127-1, the integers dtrcheck "
                                           "holds (QUIRKS.md, Q-INT-RANGE)");
  }
  return *v;
}

}  // namespace dtrcheck
