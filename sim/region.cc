#include "sim/region.h"

#include <algorithm>
#include <cassert>
#include <memory>

namespace dtrcheck {

bool SortedInsert(std::vector<int32_t>& set, int32_t x) {
  auto it = std::lower_bound(set.begin(), set.end(), x);
  if (it != set.end() && *it == x) return false;
  set.insert(it, x);
  return true;
}

bool SortedErase(std::vector<int32_t>& set, int32_t x) {
  auto it = std::lower_bound(set.begin(), set.end(), x);
  if (it == set.end() || *it != x) return false;
  set.erase(it);
  return true;
}

void IdSet::Clear() {
  if (indexed_) {
    if (dense_ || items_.size() * 8 > bits_.size()) {
      std::fill(bits_.begin(), bits_.end(), 0);
    } else {
      for (int32_t x : items_) bits_[x >> 6] &= ~(uint64_t(1) << (x & 63));
    }
    indexed_ = false;
    dense_ = false;
    count_ = 0;
    stale_ = 0;
  }
  items_.clear();
}

namespace {

// Empties list and frees its allocation. A small_vector keeps its
// allocation when swapped with or assigned an empty one (which holds its ids
// inline), and shrink_to_fit leaves it without its inline room: only a new
// one is empty and holds nothing.
void FreeList(IdSet::List& list) {
  std::destroy_at(&list);
  std::construct_at(&list);
}

}  // namespace

void IdSet::Release() {
  indexed_ = false;
  dense_ = false;
  count_ = 0;
  stale_ = 0;
  FreeList(items_);
  std::vector<uint64_t>().swap(bits_);
}

void IdSet::AssignNew(const int32_t* first, const int32_t* last) {
  Clear();
  const size_t n = static_cast<size_t>(last - first);
  if (may_densify_ && n > kLinearMax) {
    // Straight to the bitmap, without the list, when the list is the larger.
    const size_t words = WordsFor(first, last);
    if (ListIsLarger(n, std::max(words, bits_.size()))) {
      GrowBitsTo(words);
      SetBits(first, last);
      indexed_ = dense_ = true;
      count_ = n;
      return;
    }
  }
  items_.assign(first, last);
}

void IdSet::GrowBitsTo(size_t words) const {
  if (words <= bits_.size()) return;
  if (words > bits_.capacity()) {
    // Room for the words asked, to a whole cache line, not the vector's
    // doubling: a set's largest id grows a word at a time, and bitmaps are
    // a fifth of a run's heap, each huge page of which is zeroed as it is
    // first touched (cli/heap_pages.h). On the LSTM run, the heap's peak
    // 17.0 -> 15.5 MB, 9 -> 8 huge pages, for 0.3% more instructions.
    constexpr size_t kLineWords = 8;
    std::vector<uint64_t> grown;
    grown.reserve((words + kLineWords - 1) / kLineWords * kLineWords);
    grown.assign(bits_.begin(), bits_.end());
    bits_.swap(grown);
  }
  bits_.resize(words, 0);
}

size_t IdSet::WordsFor(const int32_t* first, const int32_t* last) {
  int32_t largest = 0;
  for (const int32_t* x = first; x != last; ++x) largest = std::max(largest, *x);
  return (static_cast<size_t>(largest) >> 6) + 1;
}

void IdSet::SetBits(const int32_t* first, const int32_t* last) const {
  uint64_t* bits = bits_.data();
  for (const int32_t* x = first; x != last; ++x)
    bits[static_cast<size_t>(*x) >> 6] |= uint64_t(1) << (*x & 63);
}

bool IdSet::BuildIndex() const {
  // One resize for the largest id, then bits without bounds checks.
  const int32_t* first = items_.data();
  const int32_t* last = first + items_.size();
  const size_t words = WordsFor(first, last);
  GrowBitsTo(words);
  SetBits(first, last);
  indexed_ = true;
  if (may_densify_ && ListIsLarger(items_.size(), bits_.size())) Densify();
  return true;
}

void IdSet::Densify() const {
  assert(indexed_ && !dense_);
  count_ = size();
  stale_ = 0;
  dense_ = true;
  List().swap(items_);  // its memory back, not only its size
}

void IdSet::Compact() const {
  // Keeps the first entry of each id whose bit is set, clearing the bit so
  // that a later entry of the same id is dropped, then sets the bits again.
  int32_t* begin = items_.data();
  int32_t* kept = begin;
  for (const int32_t *x = begin, *end = begin + items_.size(); x != end; ++x) {
    if (!HasBit(*x)) continue;
    bits_[static_cast<size_t>(*x) >> 6] &= ~(uint64_t(1) << (*x & 63));
    *kept++ = *x;
  }
  items_.resize(static_cast<size_t>(kept - begin));
  SetBits(begin, kept);
  stale_ = 0;
}

bool IdSet::Erase(int32_t x) {
  // A long list is indexed first: the index costs one pass, as the scan
  // would, and makes this erase and the next ones O(1).
  if (indexed_ || (items_.size() > kLinearMax && BuildIndex())) {
    // Dense or not, the bitmap is the set.
    if (!HasBit(x)) return false;
    bits_[static_cast<size_t>(x) >> 6] &= ~(uint64_t(1) << (x & 63));
    if (dense_) {
      --count_;
    } else if (++stale_ > items_.size() / 2) {
      Compact();
    }
    return true;
  }
  // A list of at most kLinearMax ids: scanned.
  const size_t at = FindId(items_.data(), items_.size(), x);
  if (at == items_.size()) return false;
  items_[at] = items_.back();
  items_.pop_back();
  return true;
}

}  // namespace dtrcheck
