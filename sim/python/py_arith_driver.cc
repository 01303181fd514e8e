// Reads arithmetic queries on stdin, one a line, and answers each on one line
// of stdout, so that sim/python/py_arith_parity.py can compare the answers
// with python3. Doubles are printed with %a (read back with float.fromhex).
//
//   a b        TrueDivide(a, b)                 -> %a
//   D a b      TrueDivide(a, b)                 -> %a
//   P a b c    TrueDivideByProduct(a, b, c)     -> %a
//   F a        IntToDouble(a)                   -> %a
//   C a x      CompareIntDouble(a, x), x a %a / float.hex() string or
//              inf/-inf                         -> -1, 0 or 1
//   T x        TruncToInt(x)                    -> decimal
//   R text     ParseInt(text) (text is the rest of the line after "R ")
//                                               -> "none" or IntToString(v)
//
// A malformed query line prints "error".
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "sim/python/py_arith.h"
#include "sim/python/py_text.h"

namespace {

using dtrcheck::Int;

std::vector<std::string> Split(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  std::string tok;
  while (in >> tok) out.push_back(tok);
  return out;
}

void PrintDouble(double d) { std::printf("%a\n", d); }

bool Answer(const std::string& line) {
  if (line.size() >= 2 && line[0] == 'R' && line[1] == ' ') {
    const std::optional<Int> v = dtrcheck::ParseInt(std::string_view(line).substr(2));
    if (v) {
      std::printf("%s\n", dtrcheck::IntToString(*v).c_str());
    } else {
      std::printf("none\n");
    }
    return true;
  }
  if (line.size() >= 2 && line[0] == 'I' && line[1] == ' ') {
    std::string bytes;
    for (size_t k = 2; k + 1 < line.size(); k += 2)
      bytes += static_cast<char>(std::stoi(line.substr(k, 2), nullptr, 16));
    bool out_of_range = false;
    const std::optional<Int> v = dtrcheck::PyIntFromText(bytes, &out_of_range);
    std::printf("%s\n", v ? dtrcheck::IntToString(*v).c_str() : out_of_range ? "range" : "none");
    return true;
  }
  std::vector<std::string> tok = Split(line);
  if (tok.empty()) return false;
  std::string op = "D";
  if (!tok[0].empty() && (tok[0][0] == '-' || (tok[0][0] >= '0' && tok[0][0] <= '9'))) {
    tok.insert(tok.begin(), op);
  }
  op = tok[0];
  std::vector<Int> ints;
  auto ints_from = [&](size_t first, size_t count) {
    if (tok.size() != first + count) return false;
    for (size_t i = first; i < first + count; ++i) {
      const std::optional<Int> v = dtrcheck::ParseInt(tok[i]);
      if (!v) return false;
      ints.push_back(*v);
    }
    return true;
  };
  auto parse_double = [](const std::string& s, double* d) {
    char* end = nullptr;
    *d = std::strtod(s.c_str(), &end);
    return end != s.c_str() && *end == '\0';
  };
  if (op == "D") {
    if (!ints_from(1, 2) || ints[1] == 0) return false;
    PrintDouble(dtrcheck::TrueDivide(ints[0], ints[1]));
  } else if (op == "P") {
    if (!ints_from(1, 3) || ints[1] == 0 || ints[2] == 0) return false;
    PrintDouble(dtrcheck::TrueDivideByProduct(ints[0], ints[1], ints[2]));
  } else if (op == "F") {
    if (!ints_from(1, 1)) return false;
    PrintDouble(dtrcheck::IntToDouble(ints[0]));
  } else if (op == "C") {
    if (tok.size() != 3) return false;
    const std::optional<Int> i = dtrcheck::ParseInt(tok[1]);
    double d;
    if (!i || !parse_double(tok[2], &d) || d != d) return false;
    std::printf("%d\n", dtrcheck::CompareIntDouble(*i, d));
  } else if (op == "T") {
    double d;
    if (tok.size() != 2 || !parse_double(tok[1], &d) || d != d) return false;
    std::printf("%s\n", dtrcheck::IntToString(dtrcheck::TruncToInt(d)).c_str());
  } else {
    return false;
  }
  return true;
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!Answer(line)) std::printf("error\n");
  }
  return 0;
}
