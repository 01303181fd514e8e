#include "analysis/format.h"

#include <charconv>
#include <cstdio>

namespace dtrcheck {

std::string ShortestDouble(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, end);
}

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string GroupedInt(Int v) {
  std::string digits = IntToString(v);
  size_t start = digits[0] == '-' ? 1 : 0;
  std::string out = digits.substr(0, start);
  for (size_t i = start; i < digits.size(); ++i) {
    if (i > start && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace dtrcheck
