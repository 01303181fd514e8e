// Unit tests of sim/python/py_random against CPython 3.11's random module. Every
// expected value was printed by python3; the comment above each check gives
// the python code (random.Random(S) seeds exactly like random.seed(S)).
#include "sim/python/py_random.h"

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace dtrcheck {
namespace {

constexpr Int P2(int e) { return static_cast<Int>(static_cast<unsigned __int128>(1) << e); }

std::vector<uint64_t> Words32(PyRandom& r, int n) {
  std::vector<uint64_t> out;
  for (int i = 0; i < n; ++i) out.push_back(r.GetRandBits(32));
  return out;
}

TEST(PyRandomTest, SeedsLikeCPython) {
  // r = random.Random(S); [r.getrandbits(32) for _ in range(3)]
  {
    PyRandom r(0);  // S = 0: key [0]
    EXPECT_EQ(Words32(r, 3), (std::vector<uint64_t>{3626764237, 1654615998, 3255389356}));
  }
  {
    PyRandom r(1);
    EXPECT_EQ(Words32(r, 3), (std::vector<uint64_t>{577090037, 2444712010, 3639700191}));
  }
  {
    PyRandom r(42);
    EXPECT_EQ(Words32(r, 3), (std::vector<uint64_t>{2746317213, 478163327, 107420369}));
  }
  {
    PyRandom r(P2(32) + 5);  // S = 2**32 + 5: two key words
    EXPECT_EQ(Words32(r, 3), (std::vector<uint64_t>{675479763, 2085189291, 1213270837}));
  }
  {
    PyRandom r(P2(70));  // S = 2**70: three key words, the low two zero
    EXPECT_EQ(Words32(r, 3), (std::vector<uint64_t>{999817988, 4080621250, 1782696399}));
  }
  {
    PyRandom r(-7);  // S = -7: seeds with abs(S), same as S = 7
    EXPECT_EQ(Words32(r, 3), (std::vector<uint64_t>{1390851128, 4071050724, 647892279}));
  }
  {
    // S = 2**127 - 1: r = random.Random(2**127 - 1); [r.getrandbits(32) for _ in range(2)]
    PyRandom r(static_cast<Int>((static_cast<unsigned __int128>(1) << 127) - 1));
    EXPECT_EQ(Words32(r, 2), (std::vector<uint64_t>{3897079298, 2749614336}));
  }
  {
    // S = -2**127: r = random.Random(-2**127); [r.getrandbits(32) for _ in range(2)]
    PyRandom r(P2(127));
    EXPECT_EQ(Words32(r, 2), (std::vector<uint64_t>{3705352306, 1932545909}));
  }
}

TEST(PyRandomTest, ReseedRestarts) {
  // r = random.Random(42); [r.getrandbits(32) for _ in range(3)]
  PyRandom r(0);
  r.GetRandBits(32);
  r.Seed(42);
  EXPECT_EQ(Words32(r, 3), (std::vector<uint64_t>{2746317213, 478163327, 107420369}));
}

TEST(PyRandomTest, LongStream) {
  // r = random.Random(1); x = [r.getrandbits(32) for _ in range(1000)]
  // x[-1] == 1877627338, sum(x) == 2176713158920 (crosses the 624-word refill)
  PyRandom r(1);
  uint64_t sum = 0;
  uint64_t last = 0;
  for (int i = 0; i < 1000; ++i) {
    last = r.NextU32();
    sum += last;
  }
  EXPECT_EQ(last, 1877627338u);
  EXPECT_EQ(sum, 2176713158920u);
}

TEST(PyRandomTest, GetRandBits) {
  // r = random.Random(S); [r.getrandbits(k) for k in [1, 5, 31, 32, 33, 40, 63, 64]]
  const int ks[] = {1, 5, 31, 32, 33, 40, 63, 64};
  struct Case {
    Int seed;
    std::vector<uint64_t> want;
  };
  const Case cases[] = {
      {0,
       {1, 12, 1627694678, 3823568514, 1806341205, 1061968961082, 4481891911369680482ULL,
        16938433693753131896ULL}},
      {42,
       {1, 3, 53710184, 3184935163, 1181241943, 151282538206, 945351111358374057ULL,
        13662908291426823533ULL}},
      {P2(70),
       {0, 30, 891348199, 2102939609, 4757220135, 33287116650, 2106264759481986860ULL,
        2915940610839813858ULL}},
  };
  for (const Case& c : cases) {
    PyRandom r(c.seed);
    std::vector<uint64_t> got;
    for (int k : ks) got.push_back(r.GetRandBits(k));
    EXPECT_EQ(got, c.want);
  }
}

TEST(PyRandomTest, RandBelow) {
  // r = random.Random(S); [r.randrange(0, n) for n in
  //   [1, 2, 3, 7, 10, 100, 1000, 2**32, 2**32 + 1, 10**9 + 7, 2**63 + 5, 2**64 - 1]]
  const uint64_t ns[] = {1,
                         2,
                         3,
                         7,
                         10,
                         100,
                         1000,
                         uint64_t{1} << 32,
                         (uint64_t{1} << 32) + 1,
                         1000000007,
                         (uint64_t{1} << 63) + 5,
                         ~uint64_t{0}};
  struct Case {
    Int seed;
    std::vector<uint64_t> want;
  };
  const Case cases[] = {
      {0,
       {0, 1, 0, 2, 8, 62, 414, 3564191072, 4156669319, 384452587, 4029557120079369747ULL,
        2569146471088859254ULL}},
      {1,
       {0, 0, 1, 0, 7, 97, 460, 901749037, 2095328386, 959191865, 7190703300742001586ULL,
        11205253249702154886ULL}},
      {42,
       {0, 0, 2, 2, 3, 28, 142, 3163119785, 1812140441, 31994523, 4033158781666617690ULL,
        9322159657211374104ULL}},
      {P2(32) + 5,
       {0, 1, 1, 4, 0, 45, 642, 4183155336, 3136672473, 809997105, 5806704216529864051ULL,
        12455902926783096962ULL}},
      {P2(70),
       {0, 1, 1, 0, 0, 83, 233, 1195253474, 2614418808, 395934272, 583644681476616594ULL,
        7631117440819047709ULL}},
      {-7,
       {0, 0, 1, 5, 0, 9, 840, 2301595691, 2179419893, 40260662, 7999350999753991002ULL,
        1288605153985647771ULL}},
  };
  for (const Case& c : cases) {
    PyRandom r(c.seed);
    std::vector<uint64_t> got;
    for (uint64_t n : ns) got.push_back(r.RandBelow(n));
    EXPECT_EQ(got, c.want);
  }
}

TEST(PyRandomTest, RandBelowSequence) {
  // r = random.Random(42); [r.randrange(0, 5) for _ in range(20)]
  PyRandom r(42);
  std::vector<uint64_t> got;
  for (int i = 0; i < 20; ++i) got.push_back(r.RandBelow(5));
  EXPECT_EQ(got,
            (std::vector<uint64_t>{0, 0, 2, 1, 1, 1, 0, 4, 0, 4, 3, 0, 0, 0, 1, 1, 4, 4, 0, 4}));
}

}  // namespace
}  // namespace dtrcheck
