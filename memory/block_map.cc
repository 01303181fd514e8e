#include "memory/block_map.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>

namespace dtrcheck::memory {

void BlockMap::AddSegment(uint64_t address, uint64_t size, int pool, bool allocated) {
  blocks_.emplace_hint(blocks_.end(), address, Node{size, address, pool, allocated});
  if (!allocated) free(pool).emplace(size, address);
}

void BlockMap::EraseSegment(uint64_t address) {
  auto it = blocks_.find(address);
  if (it == blocks_.end() || it->second.allocated || IsSplit(address)) {
    throw std::logic_error("BlockMap::EraseSegment: the block at " + std::to_string(address) +
                           " is not a free whole segment");
  }
  free(it->second.pool).erase({it->second.size, address});
  blocks_.erase(it);
}

std::optional<BlockMap::FreeKey> BlockMap::BestFit(int pool, uint64_t size) const {
  const FreeSet& set = free_set(pool);
  auto it = set.lower_bound({size, 0});
  if (it == set.end()) return std::nullopt;
  return *it;
}

void BlockMap::Take(uint64_t address) {
  auto it = blocks_.find(address);
  if (it == blocks_.end() || it->second.allocated) {
    throw std::logic_error("BlockMap::Take: no free block at " + std::to_string(address));
  }
  free(it->second.pool).erase({it->second.size, address});
  it->second.allocated = true;
}

void BlockMap::SplitTaken(uint64_t address, uint64_t size) {
  auto it = blocks_.find(address);
  Node& node = it->second;
  const uint64_t rest = node.size - size;
  node.size = size;
  blocks_.emplace_hint(std::next(it), address + size, Node{rest, node.segment, node.pool, false});
  free(node.pool).emplace(rest, address + size);
}

uint64_t BlockMap::Release(uint64_t address) {
  auto it = blocks_.find(address);
  if (it == blocks_.end() || !it->second.allocated) {
    throw std::logic_error("BlockMap::Release: no allocated block at " + std::to_string(address));
  }
  it->second.allocated = false;
  const int pool = it->second.pool;
  if (auto next = Next(it); next != blocks_.end() && !next->second.allocated) {
    free(pool).erase({next->second.size, next->first});
    it->second.size += next->second.size;
    blocks_.erase(next);
  }
  if (auto prev = Prev(it); prev != blocks_.end() && !prev->second.allocated) {
    free(pool).erase({prev->second.size, prev->first});
    prev->second.size += it->second.size;
    blocks_.erase(it);
    it = prev;
  }
  free(pool).emplace(it->second.size, it->first);
  return it->first;
}

BlockMap::Map::const_iterator BlockMap::Find(uint64_t address) const {
  auto it = blocks_.find(address);
  if (it == blocks_.end()) throw std::out_of_range("no block at " + std::to_string(address));
  return it;
}

const BlockMap::Node& BlockMap::at(uint64_t address) const { return Find(address)->second; }

BlockMap::Map::iterator BlockMap::Prev(Map::iterator it) {
  if (it == blocks_.begin()) return blocks_.end();
  auto prev = std::prev(it);
  return prev->second.segment == it->second.segment ? prev : blocks_.end();
}

BlockMap::Map::iterator BlockMap::Next(Map::iterator it) {
  auto next = std::next(it);
  return next != blocks_.end() && next->second.segment == it->second.segment ? next : blocks_.end();
}

BlockMap::Map::const_iterator BlockMap::Prev(Map::const_iterator it) const {
  if (it == blocks_.begin()) return blocks_.end();
  auto prev = std::prev(it);
  return prev->second.segment == it->second.segment ? prev : blocks_.end();
}

BlockMap::Map::const_iterator BlockMap::Next(Map::const_iterator it) const {
  auto next = std::next(it);
  return next != blocks_.end() && next->second.segment == it->second.segment ? next : blocks_.end();
}

bool BlockMap::IsSplit(uint64_t address) const {
  auto it = Find(address);
  return Prev(it) != blocks_.end() || Next(it) != blocks_.end();
}

uint64_t BlockMap::FreeBytesAdjacent(uint64_t address) const {
  const auto [left, right] = FreeBytesBeside(address);
  return left + right;
}

std::pair<uint64_t, uint64_t> BlockMap::FreeBytesBeside(uint64_t address) const {
  auto it = Find(address);
  std::pair<uint64_t, uint64_t> bytes{0, 0};
  if (auto prev = Prev(it); prev != blocks_.end() && !prev->second.allocated) {
    bytes.first = prev->second.size;
  }
  if (auto next = Next(it); next != blocks_.end() && !next->second.allocated) {
    bytes.second = next->second.size;
  }
  return bytes;
}

uint64_t BlockMap::LargestFree() const {
  uint64_t largest = 0;
  for (const FreeSet& set : free_) {
    if (!set.empty()) largest = std::max(largest, set.rbegin()->first);
  }
  return largest;
}

std::vector<Piece> BlockMap::Pieces() const {
  std::vector<Piece> pieces;
  pieces.reserve(blocks_.size());
  for (const auto& [address, node] : blocks_) {
    pieces.push_back({address, node.size, node.segment, node.allocated});
  }
  return pieces;
}

}  // namespace dtrcheck::memory
