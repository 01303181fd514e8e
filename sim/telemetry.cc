#include "sim/telemetry.h"

#include <charconv>
#include <cstdint>
#include <stdexcept>

#include <openssl/evp.h>

namespace dtrcheck {

struct EvictionDigest::Sha256 {
  Sha256() : ctx(EVP_MD_CTX_new()) {
    if (ctx == nullptr || EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr) != 1) {
      EVP_MD_CTX_free(ctx);
      throw std::runtime_error("OpenSSL: cannot initialise SHA-256");
    }
  }
  explicit Sha256(const Sha256& other) : ctx(EVP_MD_CTX_new()) {
    if (ctx == nullptr || EVP_MD_CTX_copy_ex(ctx, other.ctx) != 1) {
      EVP_MD_CTX_free(ctx);
      throw std::runtime_error("OpenSSL: cannot copy a SHA-256 context");
    }
  }
  ~Sha256() { EVP_MD_CTX_free(ctx); }
  Sha256& operator=(const Sha256&) = delete;
  EVP_MD_CTX* ctx;
};

namespace {
constexpr size_t kFlushAt = 4096;
}  // namespace

EvictionDigest::EvictionDigest() : sha256_(std::make_unique<Sha256>()) {
  pending_.reserve(kFlushAt + 64);
}

EvictionDigest::EvictionDigest(const EvictionDigest& other)
    : sha256_(std::make_unique<Sha256>(*other.sha256_)),
      pending_(other.pending_),
      count_(other.count_) {
  pending_.reserve(kFlushAt + 64);
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
  EVP_DigestUpdate(sha256_->ctx, pending_.data(), pending_.size());
  pending_.clear();
}

std::string EvictionDigest::HexDigest() {
  Flush();
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(sha256_->ctx, md, &len);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out += hex[md[i] >> 4];
    out += hex[md[i] & 15];
  }
  return out;
}

}  // namespace dtrcheck
