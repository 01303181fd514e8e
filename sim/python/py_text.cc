#include "sim/python/py_text.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>

namespace dtrcheck {

namespace {

bool IsPySpace(char32_t c) {
  return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20) || c == 0x85 || c == 0xa0 ||
         c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f ||
         c == 0x205f || c == 0x3000;
}

// The zero of each run of ten decimal digits (unicodedata.decimal(c) == 0),
// from python3.11: [c for c in range(0x110000) if unicodedata.decimal(chr(c), -1) == 0].
constexpr char32_t kDigitZeros[] = {
    0x30,    0x660,   0x6f0,   0x7c0,   0x966,   0x9e6,   0xa66,   0xae6,   0xb66,   0xbe6,
    0xc66,   0xce6,   0xd66,   0xde6,   0xe50,   0xed0,   0xf20,   0x1040,  0x1090,  0x17e0,
    0x1810,  0x1946,  0x19d0,  0x1a80,  0x1a90,  0x1b50,  0x1bb0,  0x1c40,  0x1c50,  0xa620,
    0xa8d0,  0xa900,  0xa9d0,  0xa9f0,  0xaa50,  0xabf0,  0xff10,  0x104a0, 0x10d30, 0x11066,
    0x110f0, 0x11136, 0x111d0, 0x112f0, 0x11450, 0x114d0, 0x11650, 0x116c0, 0x11730, 0x118e0,
    0x11950, 0x11c50, 0x11d50, 0x11da0, 0x16a60, 0x16ac0, 0x16b50, 0x1d7ce, 0x1d7d8, 0x1d7e2,
    0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e950, 0x1fbf0};

// The digit value of c, or -1.
int DecimalValue(char32_t c) {
  const char32_t* it = std::upper_bound(std::begin(kDigitZeros), std::end(kDigitZeros), c);
  if (it == std::begin(kDigitZeros)) return -1;
  char32_t zero = *(it - 1);
  return c - zero < 10 ? static_cast<int>(c - zero) : -1;
}

// Decodes one UTF-8 code point at text[*pos]; false on invalid UTF-8 (as
// Python's strict decoder: no overlongs, surrogates or values past U+10FFFF).
bool NextCodePoint(std::string_view text, size_t* pos, char32_t* out) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(text[*pos + k]); };
  unsigned char c = b(0);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
  if (n == 0 || *pos + n > text.size()) return false;
  char32_t v = n == 1 ? c : n == 2 ? (c & 0x1f) : n == 3 ? (c & 0x0f) : (c & 0x07);
  for (size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xc0) != 0x80) return false;
    v = (v << 6) | (b(k) & 0x3f);
  }
  constexpr char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (v < kMin[n] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return false;
  *pos += n;
  *out = v;
  return true;
}

}  // namespace

std::string_view PyRstrip(std::string_view text) {
  // A printable ASCII character other than space is never white space: the
  // usual last byte of a log line ('}') settles it at once.
  if (!text.empty() && text.back() > ' ' && text.back() < 0x7f) return text;
  // Trailing code points, decoded backwards: a multi-byte one starts at the
  // last byte that is not a continuation byte.
  while (!text.empty()) {
    size_t start = text.size() - 1;
    while (start > 0 && text.size() - start < 4 &&
           (static_cast<unsigned char>(text[start]) & 0xc0) == 0x80)
      --start;
    size_t pos = start;
    char32_t c;
    if (!NextCodePoint(text, &pos, &c) || pos != text.size() || !IsPySpace(c)) break;
    text.remove_suffix(text.size() - start);
  }
  return text;
}

std::optional<Int> PyIntFromText(std::string_view text, bool* out_of_range) {
  if (out_of_range) *out_of_range = false;
  // As CPython: non-ASCII white space becomes ' ' and every non-ASCII
  // decimal digit its ASCII digit, then PyLong_FromString reads the text.
  std::string ascii;
  for (size_t pos = 0; pos < text.size();) {
    char32_t c;
    if (!NextCodePoint(text, &pos, &c)) return std::nullopt;
    int d = DecimalValue(c);
    if (c < 0x80)
      ascii += static_cast<char>(c);
    else if (d >= 0)
      ascii += static_cast<char>('0' + d);
    else if (IsPySpace(c))
      ascii += ' ';
    else
      return std::nullopt;
  }
  // PyLong_FromString skips C's white space (Py_ISSPACE): not \x1c-\x1f,
  // which str.isspace() counts.
  const char* kCSpace = " \t\n\v\f\r";
  size_t b = ascii.find_first_not_of(kCSpace);
  if (b == std::string::npos) return std::nullopt;
  size_t e = ascii.find_last_not_of(kCSpace);
  std::string_view body = std::string_view(ascii).substr(b, e - b + 1);
  std::string digits;
  if (body[0] == '-' || body[0] == '+') {
    if (body[0] == '-') digits = "-";
    body.remove_prefix(1);
  }
  // Digits, with single underscores between two digits.
  bool prev_digit = false;
  for (size_t k = 0; k < body.size(); ++k) {
    char c = body[k];
    if (c >= '0' && c <= '9') {
      digits += c;
      prev_digit = true;
    } else if (c == '_' && prev_digit && k + 1 < body.size()) {
      prev_digit = false;
    } else {
      return std::nullopt;
    }
  }
  if (!prev_digit) return std::nullopt;
  std::optional<Int> v = ParseInt(digits);
  if (!v && out_of_range) *out_of_range = true;
  return v;
}

}  // namespace dtrcheck
