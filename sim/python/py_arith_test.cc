// Unit tests of sim/python/py_arith against values printed by python3 (3.11). Each
// expected value carries, in a comment or beside it, the python expression
// that produced it; doubles were printed with float.hex().
// sim/python/py_arith_parity.py checks the same functions on ~275,000
// adversarial inputs.
#include "sim/python/py_arith.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

#include <gtest/gtest.h>

namespace dtrcheck {
namespace {

constexpr Int P2(int e) { return static_cast<Int>(static_cast<unsigned __int128>(1) << e); }
constexpr Int kMin = P2(127);  // -2**127 (the shift lands on the sign bit)
constexpr Int kMax =
    static_cast<Int>((static_cast<unsigned __int128>(1) << 127) - 1);  // 2**127 - 1
constexpr Int k3Pow40 = static_cast<Int>(12157665459056928801ULL);     // 3**40

std::string Hex(double d) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", d);
  return buf;
}

// Bit-for-bit equality, so that 0.0 and -0.0 differ.
#define EXPECT_SAME_DOUBLE(got, want)                           \
  EXPECT_EQ(std::bit_cast<uint64_t>(static_cast<double>(got)),  \
            std::bit_cast<uint64_t>(static_cast<double>(want))) \
      << #got << " = " << Hex(got) << ", python says " << Hex(want)

TEST(PyArithTest, TrueDivideSmall) {
  EXPECT_SAME_DOUBLE(TrueDivide(1, 3), 0x1.5555555555555p-2);     // 1 / 3
  EXPECT_SAME_DOUBLE(TrueDivide(-1, 3), -0x1.5555555555555p-2);   // -1 / 3
  EXPECT_SAME_DOUBLE(TrueDivide(10, -4), -0x1.4000000000000p+1);  // 10 / -4
  EXPECT_SAME_DOUBLE(TrueDivide(0, 5), 0x0.0p+0);                 // 0 / 5
  EXPECT_SAME_DOUBLE(TrueDivide(0, -5), -0x0.0p+0);               // 0 / -5
}

TEST(PyArithTest, TrueDivideTiesRoundHalfEven) {
  // (2**53 + 1) / 1
  EXPECT_SAME_DOUBLE(TrueDivide(P2(53) + 1, 1), 0x1.0000000000000p+53);
  // (2**53 + 3) / 1
  EXPECT_SAME_DOUBLE(TrueDivide(P2(53) + 3, 1), 0x1.0000000000002p+53);
  // -(2**53 + 1) / 1
  EXPECT_SAME_DOUBLE(TrueDivide(-(P2(53) + 1), 1), -0x1.0000000000000p+53);
  // (2**54 + 2) / 2
  EXPECT_SAME_DOUBLE(TrueDivide(P2(54) + 2, 2), 0x1.0000000000000p+53);
  // ((2**53 + 1) * 3**40) / 3**40
  EXPECT_SAME_DOUBLE(TrueDivide((P2(53) + 1) * k3Pow40, k3Pow40), 0x1.0000000000000p+53);
  // ((2**53 + 1) * 3**40 + 1) / 3**40
  EXPECT_SAME_DOUBLE(TrueDivide((P2(53) + 1) * k3Pow40 + 1, k3Pow40), 0x1.0000000000001p+53);
  // ((2**53 + 1) * 3**40 - 1) / 3**40
  EXPECT_SAME_DOUBLE(TrueDivide((P2(53) + 1) * k3Pow40 - 1, k3Pow40), 0x1.0000000000000p+53);
  // ((2**53 + 3) * 3**40) / -(3**40 * 2**10)
  EXPECT_SAME_DOUBLE(TrueDivide((P2(53) + 3) * k3Pow40, -(k3Pow40 * P2(10))),
                     -0x1.0000000000002p+43);
}

TEST(PyArithTest, TrueDivideLarge) {
  // 10**30 / 7
  const Int ten30 = static_cast<Int>(1000000000000000ULL) * 1000000000000000ULL;
  EXPECT_SAME_DOUBLE(TrueDivide(ten30, 7), 0x1.cd98a8b00a10bp+96);
  // (2**127 - 1) / 1
  EXPECT_SAME_DOUBLE(TrueDivide(kMax, 1), 0x1.0000000000000p+127);
  // -2**127 / -1
  EXPECT_SAME_DOUBLE(TrueDivide(kMin, -1), 0x1.0000000000000p+127);
  // 1 / -2**127
  EXPECT_SAME_DOUBLE(TrueDivide(1, kMin), -0x1.0000000000000p-127);
  // 1 / (2**127 - 1)
  EXPECT_SAME_DOUBLE(TrueDivide(1, kMax), 0x1.0000000000000p-127);
  // (2**127 - 1) / (2**127 - 2)
  EXPECT_SAME_DOUBLE(TrueDivide(kMax, kMax - 1), 0x1.0000000000000p+0);
  // (2**100 + 1) / (2**90 + 7)
  EXPECT_SAME_DOUBLE(TrueDivide(P2(100) + 1, P2(90) + 7), 0x1.0000000000000p+10);
  // (2**126 + 2**73) / (2**126 - 1)
  EXPECT_SAME_DOUBLE(TrueDivide(P2(126) + P2(73), P2(126) - 1), 0x1.0000000000001p+0);
  // (2**53 + 1) / (2**127 - 1)
  EXPECT_SAME_DOUBLE(TrueDivide(P2(53) + 1, kMax), 0x1.0000000000001p-74);
  // (2**53 + 1) / -2**127
  EXPECT_SAME_DOUBLE(TrueDivide(P2(53) + 1, kMin), -0x1.0000000000000p-74);
  // 7 / 2**100
  EXPECT_SAME_DOUBLE(TrueDivide(7, P2(100)), 0x1.c000000000000p-98);
}

TEST(PyArithTest, TrueDivideSimrdShapes) {
  // Scores: a < 2**60 over a divisor of 64..70 bits.
  // 123456789012345678 / (2**70 - 1)
  EXPECT_SAME_DOUBLE(TrueDivide(123456789012345678LL, P2(70) - 1), 0x1.b69b4ba630f35p-14);
  // 987654321987654321 / 1180591620717411303424
  EXPECT_SAME_DOUBLE(TrueDivide(987654321987654321LL, P2(70)), 0x1.b69b4befde825p-11);
  // (2**59 + 12345) / (2**66 + 999)
  EXPECT_SAME_DOUBLE(TrueDivide(P2(59) + 12345, P2(66) + 999), 0x1.0000000000060p-7);
  // 1152921504606846975 / 36893488147419103232
  EXPECT_SAME_DOUBLE(TrueDivide(1152921504606846975LL, P2(65)), 0x1.0000000000000p-5);
}

TEST(PyArithTest, TrueDivideByProduct) {
  // 1 / (2**100 * 2**100)
  EXPECT_SAME_DOUBLE(TrueDivideByProduct(1, P2(100), P2(100)), 0x1.0000000000000p-200);
  // ((2**53 + 1) * 15) / ((3 * 2**100) * (5 * 2**90))
  EXPECT_SAME_DOUBLE(TrueDivideByProduct((P2(53) + 1) * 15, 3 * P2(100), 5 * P2(90)),
                     0x1.0000000000000p-137);
  // ((2**53 + 1) * 15 + 1) / ((3 * 2**100) * (5 * 2**90))
  EXPECT_SAME_DOUBLE(TrueDivideByProduct((P2(53) + 1) * 15 + 1, 3 * P2(100), 5 * P2(90)),
                     0x1.0000000000001p-137);
  // ((2**53 + 3) * 15) / ((-3 * 2**100) * (5 * 2**90))
  EXPECT_SAME_DOUBLE(TrueDivideByProduct((P2(53) + 3) * 15, -3 * P2(100), 5 * P2(90)),
                     -0x1.0000000000002p-137);
  // 7 / (3 * 5)
  EXPECT_SAME_DOUBLE(TrueDivideByProduct(7, 3, 5), 0x1.ddddddddddddep-2);
  // -7 / (3 * -5)
  EXPECT_SAME_DOUBLE(TrueDivideByProduct(-7, 3, -5), 0x1.ddddddddddddep-2);
  // 0 / (-3 * 5)
  EXPECT_SAME_DOUBLE(TrueDivideByProduct(0, -3, 5), -0x0.0p+0);
  // 0 / (-3 * -5)
  EXPECT_SAME_DOUBLE(TrueDivideByProduct(0, -3, -5), 0x0.0p+0);
  // 2**126 / ((2**64 + 1) * (2**64 - 1))
  EXPECT_SAME_DOUBLE(TrueDivideByProduct(P2(126), P2(64) + 1, P2(64) - 1), 0x1.0000000000000p-2);
  // (2**127 - 1) / ((2**127 - 1) * (2**127 - 1))
  EXPECT_SAME_DOUBLE(TrueDivideByProduct(kMax, kMax, kMax), 0x1.0000000000000p-127);
  // -2**127 / (-2**127 * -2**127)
  EXPECT_SAME_DOUBLE(TrueDivideByProduct(kMin, kMin, kMin), -0x1.0000000000000p-127);
  // 123456789 / ((2**64 + 3) * (2**64 + 5))
  EXPECT_SAME_DOUBLE(TrueDivideByProduct(123456789, P2(64) + 3, P2(64) + 5),
                     0x1.d6f3454000000p-102);
  // (2**100 + 12345) / ((2**63 - 25) * (2**63 + 25))
  EXPECT_SAME_DOUBLE(TrueDivideByProduct(P2(100) + 12345, P2(63) - 25, P2(63) + 25),
                     0x1.0000000000000p-26);
}

TEST(PyArithTest, IntToDouble) {
  EXPECT_SAME_DOUBLE(IntToDouble(0), 0x0.0p+0);                             // float(0)
  EXPECT_SAME_DOUBLE(IntToDouble(-1), -0x1.0000000000000p+0);               // float(-1)
  EXPECT_SAME_DOUBLE(IntToDouble(P2(53) + 1), 0x1.0000000000000p+53);       // float(2**53 + 1)
  EXPECT_SAME_DOUBLE(IntToDouble(P2(53) + 3), 0x1.0000000000002p+53);       // float(2**53 + 3)
  EXPECT_SAME_DOUBLE(IntToDouble(P2(64) + P2(11)), 0x1.0000000000000p+64);  // float(2**64 + 2**11)
  EXPECT_SAME_DOUBLE(IntToDouble(P2(64) + P2(11) + 1),  // float(2**64 + 2**11 + 1)
                     0x1.0000000000001p+64);
  EXPECT_SAME_DOUBLE(IntToDouble(P2(64) + 3 * P2(11)),  // float(2**64 + 3 * 2**11)
                     0x1.0000000000002p+64);
  EXPECT_SAME_DOUBLE(IntToDouble(kMin), -0x1.0000000000000p+127);  // float(-(2**127))
  EXPECT_SAME_DOUBLE(IntToDouble(kMax), 0x1.0000000000000p+127);   // float(2**127 - 1)
  // float((2**53 + 1) * 2**70)
  EXPECT_SAME_DOUBLE(IntToDouble((P2(53) + 1) * P2(70)), 0x1.0000000000000p+123);
  // float((2**53 + 1) * 2**70 + 1)
  EXPECT_SAME_DOUBLE(IntToDouble((P2(53) + 1) * P2(70) + 1), 0x1.0000000000001p+123);
  // float(-((2**53 + 1) * 2**70 - 1))
  EXPECT_SAME_DOUBLE(IntToDouble(-((P2(53) + 1) * P2(70) - 1)), -0x1.0000000000000p+123);
  // float(12345678901234567890123)
  EXPECT_SAME_DOUBLE(IntToDouble(*ParseInt("12345678901234567890123")), 0x1.4ea15b273b38ap+73);
}

TEST(PyArithTest, CompareIntDouble) {
  // cmp(i, x) = (i > x) - (i < x) in python.
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(CompareIntDouble(1, 1.0), 0);               // cmp(1, 1.0)
  EXPECT_EQ(CompareIntDouble(1, 1.5), -1);              // cmp(1, 1.5)
  EXPECT_EQ(CompareIntDouble(2, 1.5), 1);               // cmp(2, 1.5)
  EXPECT_EQ(CompareIntDouble(-1, -1.5), 1);             // cmp(-1, -1.5)
  EXPECT_EQ(CompareIntDouble(-2, -1.5), -1);            // cmp(-2, -1.5)
  EXPECT_EQ(CompareIntDouble(P2(53) + 1, 0x1p+53), 1);  // cmp(2**53 + 1, float(2**53 + 1))
  EXPECT_EQ(CompareIntDouble(kMax, 0x1p+127), -1);      // cmp(2**127 - 1, 2.0**127)
  EXPECT_EQ(CompareIntDouble(kMin, -0x1p+127), 0);      // cmp(-2**127, -2.0**127)
  // cmp(-2**127, math.nextafter(-2.0**127, -math.inf)); that float is -0x1.0000000000001p+127
  EXPECT_EQ(CompareIntDouble(kMin, -0x1.0000000000001p+127), 1);
  // cmp(2**127 - 1, math.nextafter(2.0**127, 0)); that float is 0x1.fffffffffffffp+126
  EXPECT_EQ(CompareIntDouble(kMax, 0x1.fffffffffffffp+126), 1);
  EXPECT_EQ(CompareIntDouble(0, -0.0), 0);                 // cmp(0, -0.0)
  EXPECT_EQ(CompareIntDouble(kMax, inf), -1);              // cmp(2**127 - 1, math.inf)
  EXPECT_EQ(CompareIntDouble(kMin, inf), -1);              // cmp(-2**127, math.inf)
  EXPECT_EQ(CompareIntDouble(kMax, -inf), 1);              // cmp(2**127 - 1, -math.inf)
  EXPECT_EQ(CompareIntDouble(kMin, -inf), 1);              // cmp(-2**127, -math.inf)
  EXPECT_EQ(CompareIntDouble(5, 1e300), -1);               // cmp(5, 1e300)
  EXPECT_EQ(CompareIntDouble(5, -1e300), 1);               // cmp(5, -1e300)
  EXPECT_EQ(CompareIntDouble(0, 5e-324), -1);              // cmp(0, 5e-324)
  EXPECT_EQ(CompareIntDouble(0, -5e-324), 1);              // cmp(0, -5e-324)
  EXPECT_EQ(CompareIntDouble(P2(64), 0x1p+64), 0);         // cmp(2**64, 2.0**64)
  EXPECT_EQ(CompareIntDouble(P2(64) + 1, 0x1p+64), 1);     // cmp(2**64 + 1, 2.0**64)
  EXPECT_EQ(CompareIntDouble(P2(64) - 1, 0x1p+64), -1);    // cmp(2**64 - 1, 2.0**64)
  EXPECT_EQ(CompareIntDouble(-P2(64) - 1, -0x1p+64), -1);  // cmp(-2**64 - 1, -2.0**64)
}

TEST(PyArithTest, TruncToInt) {
  EXPECT_TRUE(TruncToInt(2.5) == 2);             // int(2.5)
  EXPECT_TRUE(TruncToInt(-2.5) == -2);           // int(-2.5)
  EXPECT_TRUE(TruncToInt(-0.999) == 0);          // int(-0.999)
  EXPECT_TRUE(TruncToInt(-12345.75) == -12345);  // int(-12345.75)
  EXPECT_TRUE(TruncToInt(0.0) == 0);             // int(0.0)
  // int(1e20)
  EXPECT_EQ(IntToString(TruncToInt(1e20)), "100000000000000000000");
  // int(2.0**126)
  EXPECT_EQ(IntToString(TruncToInt(0x1p+126)), "85070591730234615865843651857942052864");
  // int(-2.0**127)
  EXPECT_EQ(IntToString(TruncToInt(-0x1p+127)), "-170141183460469231731687303715884105728");
  // int(math.nextafter(2.0**127, 0))
  EXPECT_EQ(IntToString(TruncToInt(0x1.fffffffffffffp+126)),
            "170141183460469212842221372237303250944");
}

TEST(PyArithTest, IntToString) {
  EXPECT_EQ(IntToString(0), "0");                                            // str(0)
  EXPECT_EQ(IntToString(-7), "-7");                                          // str(-7)
  EXPECT_EQ(IntToString(P2(64)), "18446744073709551616");                    // str(2**64)
  EXPECT_EQ(IntToString(kMax), "170141183460469231731687303715884105727");   // str(2**127 - 1)
  EXPECT_EQ(IntToString(kMin), "-170141183460469231731687303715884105728");  // str(-2**127)
}

TEST(PyArithTest, ParseIntAccepts) {
  // Values are python's int(text) of the same text.
  EXPECT_TRUE(ParseInt("0") == Int(0));
  EXPECT_TRUE(ParseInt("-0") == Int(0));
  EXPECT_TRUE(ParseInt("007") == Int(7));
  EXPECT_TRUE(ParseInt("-42") == Int(-42));
  EXPECT_TRUE(ParseInt("18446744073709551616") == P2(64));  // int("18446744073709551616") == 2**64
  // int("170141183460469231731687303715884105727") == 2**127 - 1
  EXPECT_TRUE(ParseInt("170141183460469231731687303715884105727") == kMax);
  // int("-170141183460469231731687303715884105728") == -2**127
  EXPECT_TRUE(ParseInt("-170141183460469231731687303715884105728") == kMin);
  // int("0000000000000000000000000000000000000000000000000012") == 12
  EXPECT_TRUE(ParseInt("0000000000000000000000000000000000000000000000000012") == Int(12));
  // Either side of the 18-digit fast path: 10**18 - 1, -(10**18 - 1),
  // 10**18 and 2**63 - 1.
  EXPECT_TRUE(ParseInt("999999999999999999") == Int(999999999999999999LL));
  EXPECT_TRUE(ParseInt("-999999999999999999") == Int(-999999999999999999LL));
  EXPECT_TRUE(ParseInt("1000000000000000000") == Int(1000000000000000000LL));
  EXPECT_TRUE(ParseInt("9223372036854775807") == Int(INT64_MAX));
}

TEST(PyArithTest, ParseIntRejects) {
  // The header's contract (stricter than python's int(), which takes '+',
  // spaces and '_'): an optional '-', then decimal digits, within
  // [-2**127, 2**127).
  for (const char* text : {"", "-", "+5", " 5", "5 ", "1e3", "12a", "0x10", "1_000", "--1", "1.0",
                           "170141183460469231731687303715884105728",   // str(2**127)
                           "-170141183460469231731687303715884105729",  // str(-2**127 - 1)
                           "1701411834604692317316873037158841057270",  // str((2**127 - 1) * 10)
                           "99999999999999999999999999999999999999999999999999"}) {
    EXPECT_FALSE(ParseInt(text).has_value()) << '"' << text << '"';
  }
}

}  // namespace
}  // namespace dtrcheck
