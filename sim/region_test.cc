// IdSet against std::set: every operation, in both orders (kInsertion keeps
// a list, kAny may turn into a bitmap alone), over id ranges that keep sets
// sparse or make them dense. The model is the definition: a set of ids.
#include "sim/region.h"

#include <gtest/gtest.h>  // before rapidcheck/gtest.h, which uses its macros
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <vector>

namespace dtrcheck {
namespace {

// An insertion-order set's list, as a vector to compare with.
std::vector<int32_t> Items(const IdSet& set) { return {set.items().begin(), set.items().end()}; }

std::vector<int32_t> Visited(const IdSet& set) {
  std::vector<int32_t> v;
  set.ForEach([&](int32_t x) { v.push_back(x); });
  return v;
}

std::vector<int32_t> Sorted(std::vector<int32_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// The ids [0, n) in a scrambled order.
std::vector<int32_t> Scrambled(int32_t n) {
  std::vector<int32_t> ids(static_cast<size_t>(n));
  std::iota(ids.begin(), ids.end(), 0);
  for (size_t i = 0; i < ids.size(); ++i) std::swap(ids[i], ids[(i * 7919) % ids.size()]);
  return ids;
}

// FindId's vector blocks (8, then 4 ids) and scalar tail, against std::find:
// every length to past two blocks, the id at every position (first match
// when repeated), and absent.
TEST(FindId, FindsTheFirstMatchAtEveryPositionOfEveryLength) {
  for (size_t n = 0; n <= 21; ++n) {
    std::vector<int32_t> ids(n);
    for (size_t i = 0; i < n; ++i) ids[i] = static_cast<int32_t>(100 + i % 13);
    for (int32_t x = 99; x <= 113; ++x) {
      const size_t expected =
          static_cast<size_t>(std::find(ids.begin(), ids.end(), x) - ids.begin());
      EXPECT_EQ(FindId(ids.data(), n, x), expected) << "n=" << n << " x=" << x;
    }
  }
}

TEST(IdSet, InsertionOrderKeptPastTheIndexThreshold) {
  IdSet set;
  const std::vector<int32_t> ids = Scrambled(1000);
  for (int32_t x : ids) ASSERT_TRUE(set.Insert(x));
  EXPECT_EQ(Items(set), ids);
  EXPECT_EQ(Visited(set), ids);
  EXPECT_FALSE(set.Insert(ids[10]));
}

// 1000 ids below 1024 take 16 words as a bitmap, far less than the list:
// the set turns dense and iterates in increasing order.
// Release empties the set as Clear does, and gives back the bitmap and the
// list that Clear keeps for the next fill: 1000 ids up to 100,000 (a
// bitmap of 12.5 KB once indexed) leave nothing outside the set.
TEST(IdSet, ReleaseGivesTheMemoryBack) {
  for (IdSet::Order order : {IdSet::Order::kInsertion, IdSet::Order::kAny}) {
    IdSet set(order);
    for (int32_t x = 0; x < 100000; x += 100) ASSERT_TRUE(set.Insert(x));
    ASSERT_TRUE(set.Contains(99900));  // indexed: a bitmap up to the largest id
    set.Clear();
    EXPECT_GE(set.HeapBytes(), 100000u / 8);
    for (int32_t x = 0; x < 100000; x += 100) ASSERT_TRUE(set.Insert(x));
    set.Release();
    EXPECT_EQ(set.HeapBytes(), 0u);
    EXPECT_TRUE(set.empty());
    EXPECT_FALSE(set.Contains(99900));
    // Usable again, in either representation.
    for (int32_t x : {5, 70000, 3}) ASSERT_TRUE(set.Insert(x));
    EXPECT_EQ(Sorted(Visited(set)), (std::vector<int32_t>{3, 5, 70000}));
    for (int32_t x = 0; x < 2000; ++x) set.Insert(x);
    EXPECT_EQ(set.size(), 2001u);
    EXPECT_TRUE(set.Erase(70000));
    EXPECT_FALSE(set.Contains(70000));
  }
}

TEST(IdSet, AnyOrderTurnsDenseAndIteratesInIdOrder) {
  IdSet set(IdSet::Order::kAny);
  const std::vector<int32_t> ids = Scrambled(1000);
  for (int32_t x : ids) ASSERT_TRUE(set.Insert(x));
  EXPECT_EQ(set.size(), 1000u);
  EXPECT_EQ(Visited(set), Sorted(ids));
  EXPECT_TRUE(set.Erase(500));
  EXPECT_FALSE(set.Erase(500));
  EXPECT_FALSE(set.Contains(500));
  EXPECT_EQ(set.size(), 999u);
  set.Clear();
  EXPECT_TRUE(set.empty());
  EXPECT_EQ(Visited(set), std::vector<int32_t>{});
  // Back to a list after Clear: insertion order again while small.
  set.Insert(9);
  set.Insert(3);
  EXPECT_EQ(Visited(set), (std::vector<int32_t>{9, 3}));
}

// A few ids spread over a wide range stay a list: the bitmap would be larger.
TEST(IdSet, SparseSetsStayLists) {
  IdSet set(IdSet::Order::kAny);
  std::vector<int32_t> ids;
  for (int32_t i = 0; i < 100; ++i) ids.push_back(100000 - 1000 * i);
  for (int32_t x : ids) set.Insert(x);
  EXPECT_EQ(Visited(set), ids);
}

TEST(IdSet, UniteWithReportsExactlyTheDifference) {
  for (int32_t n : {40, 2000}) {  // lists, then dense sets
    IdSet a(IdSet::Order::kAny), b(IdSet::Order::kAny);
    std::vector<int32_t> a_ids, b_ids;
    for (int32_t x = 0; x < n; ++x) {
      if (x % 2 == 0) a_ids.push_back(x);
      if (x % 3 == 0) b_ids.push_back(x);
    }
    a.AssignNew(a_ids.data(), a_ids.data() + a_ids.size());
    b.AssignNew(b_ids.data(), b_ids.data() + b_ids.size());
    std::vector<int32_t> added;
    a.UniteWith(b, [&](int32_t x) { added.push_back(x); });
    std::vector<int32_t> expected;  // multiples of 3 that are odd
    for (int32_t x = 3; x < n; x += 6) expected.push_back(x);
    EXPECT_EQ(Sorted(added), expected) << n;
    EXPECT_EQ(a.size(), a_ids.size() + expected.size()) << n;
    EXPECT_EQ(b.size(), b_ids.size()) << n;  // the other set is untouched
  }
}

// Erasing from an indexed list clears a bit and leaves a stale entry; an id
// erased then added again has two entries until the list is read: it must
// be listed once, and counted once.
TEST(IdSet, ErasedThenAddedAgainIsListedOnce) {
  IdSet set;
  const std::vector<int32_t> ids = Scrambled(100);
  for (int32_t x : ids) ASSERT_TRUE(set.Insert(x));
  ASSERT_TRUE(set.Contains(ids[0]));  // indexed now (more than 32 ids)
  ASSERT_TRUE(set.Erase(ids[5]));
  ASSERT_TRUE(set.Erase(ids[7]));
  ASSERT_FALSE(set.Erase(ids[7]));
  ASSERT_TRUE(set.Insert(ids[5]));
  EXPECT_EQ(set.size(), 99u);
  std::vector<int32_t> expected = ids;
  expected.erase(expected.begin() + 7);
  EXPECT_EQ(Items(set), expected);  // ids[5] at its first place, ids[7] gone
  // Erasing most of it compacts the list as it goes; what is left is right.
  for (size_t i = 10; i < 100; ++i) ASSERT_TRUE(set.Erase(ids[i]));
  EXPECT_EQ(set.size(), 9u);
  EXPECT_EQ(Items(set), std::vector<int32_t>({ids[0], ids[1], ids[2], ids[3], ids[4], ids[5],
                                              ids[6], ids[8], ids[9]}));
}

// One operation of a random sequence.
struct Op {
  int kind;                  // 0 insert, 1 erase, 2 contains, 3 clear, 4 assign, 5 unite
  int32_t id;                // for insert, erase, contains
  std::vector<int32_t> ids;  // for assign and unite (distinct)
};

void CheckAgainstModel(IdSet::Order order, const std::vector<Op>& ops) {
  IdSet set(order);
  std::set<int32_t> model;
  for (const Op& op : ops) {
    switch (op.kind) {
      case 0:
        RC_ASSERT(set.Insert(op.id) == model.insert(op.id).second);
        break;
      case 1:
        RC_ASSERT(set.Erase(op.id) == (model.erase(op.id) == 1));
        break;
      case 2:
        RC_ASSERT(set.Contains(op.id) == (model.count(op.id) == 1));
        break;
      case 3:
        set.Clear();
        model.clear();
        break;
      case 4:
        set.AssignNew(op.ids.data(), op.ids.data() + op.ids.size());
        model = std::set<int32_t>(op.ids.begin(), op.ids.end());
        break;
      default: {
        IdSet other(order);
        other.AssignNew(op.ids.data(), op.ids.data() + op.ids.size());
        std::vector<int32_t> added, expected;
        set.UniteWith(other, [&](int32_t x) { added.push_back(x); });
        for (int32_t x : op.ids)
          if (model.insert(x).second) expected.push_back(x);
        RC_ASSERT(Sorted(added) == Sorted(expected));
        break;
      }
    }
    RC_ASSERT(set.size() == model.size());
    const std::vector<int32_t> visited = Visited(set);
    RC_ASSERT(Sorted(visited) == std::vector<int32_t>(model.begin(), model.end()));
    if (order == IdSet::Order::kInsertion) RC_ASSERT(visited == Items(set));
  }
}

rc::Gen<std::vector<int32_t>> DistinctIds(int32_t range) {
  return rc::gen::map(
      rc::gen::container<std::set<int32_t>>(rc::gen::inRange<int32_t>(0, range)),
      [](const std::set<int32_t>& s) { return std::vector<int32_t>(s.begin(), s.end()); });
}

RC_GTEST_PROP(IdSet, BehavesAsASetOfIds, ()) {
  // Small ranges make sets dense quickly; large ones keep them lists.
  const int32_t range = *rc::gen::element<int32_t>(8, 100, 700, 5000);
  const auto order = *rc::gen::element(IdSet::Order::kInsertion, IdSet::Order::kAny);
  const auto ops = *rc::gen::container<std::vector<Op>>(rc::gen::build<Op>(
      rc::gen::set(&Op::kind,
                   rc::gen::weightedElement<int>({{6, 0}, {2, 1}, {2, 2}, {1, 3}, {1, 4}, {1, 5}})),
      rc::gen::set(&Op::id, rc::gen::inRange<int32_t>(0, range)),
      rc::gen::set(&Op::ids, DistinctIds(range))));
  CheckAgainstModel(order, ops);
}

}  // namespace
}  // namespace dtrcheck
