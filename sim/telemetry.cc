#include "sim/telemetry.h"

#include <charconv>
#include <cstdint>

namespace dtrcheck {

namespace {
constexpr size_t kFlushAt = 4096;
}  // namespace

EvictionDigest::EvictionDigest() { pending_.reserve(kFlushAt + 64); }

EvictionDigest::EvictionDigest(const EvictionDigest& other)
    : sha256_(other.sha256_), pending_(other.pending_), count_(other.count_) {
  pending_.reserve(kFlushAt + 64);
}

EvictionDigest& EvictionDigest::operator=(const EvictionDigest& other) {
  sha256_ = other.sha256_;
  pending_ = other.pending_;  // within the room reserved
  count_ = other.count_;
  return *this;
}

EvictionDigest::~EvictionDigest() = default;

// The line "<clock> <root_id>\n", as Python's str() prints both ints.
void EvictionDigest::Add(Int clock, TensorId root_id) {
  char line[64];
  char* end = line;
  if (clock >= 0 && clock <= Int(UINT64_MAX)) {
    end = std::to_chars(line, line + 24, static_cast<uint64_t>(clock)).ptr;  // 20 digits at most
  } else {
    const std::string text = IntToString(clock);
    pending_ += text;
  }
  *end++ = ' ';
  end = std::to_chars(end, end + 16, root_id).ptr;  // 11 characters at most
  *end++ = '\n';
  pending_.append(line, end);
  if (pending_.size() >= kFlushAt) Flush();
  ++count_;
}

void EvictionDigest::Flush() {
  sha256_.Update(pending_);
  pending_.clear();
}

std::string EvictionDigest::HexDigest() {
  Flush();
  return sha256_.HexDigest();
}

}  // namespace dtrcheck
