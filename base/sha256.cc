#include "base/sha256.h"

#include <stdexcept>

// OpenSSL's SHA-256 functions rather than its EVP interface: EVP's first
// use starts OpenSSL's provider machinery (and reads its configuration
// file), 2.2 ms on this project's machines, about 2% of a whole
// `dtrcheck run` on the LSTM trace and more of the short commands a fuzz
// campaign runs by the hundred, where SHA256_Init takes 0.05 ms. OpenSSL 3
// deprecates these functions in favour of EVP's choice of algorithm, which
// a digest fixed as SHA-256 does not need; they remain in it.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

namespace dtrcheck {

struct Sha256::State {
  SHA256_CTX context;  // plain data: a copy digests on from the same point
};

Sha256::Sha256() : state_(std::make_unique<State>()) {
  if (SHA256_Init(&state_->context) != 1)
    throw std::runtime_error("OpenSSL: cannot initialise SHA-256");
}

Sha256::Sha256(const Sha256& other) : state_(std::make_unique<State>(*other.state_)) {}

Sha256& Sha256::operator=(const Sha256& other) {
  *state_ = *other.state_;
  return *this;
}

Sha256::~Sha256() = default;

void Sha256::Update(const void* data, size_t size) { SHA256_Update(&state_->context, data, size); }

std::string Sha256::HexDigest() {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256_Final(digest, &state_->context);
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * SHA256_DIGEST_LENGTH);
  for (unsigned char byte : digest) {
    hex += kHex[byte >> 4];
    hex += kHex[byte & 15];
  }
  return hex;
}

std::string Sha256Hex(std::string_view text) {
  Sha256 sha;
  sha.Update(text);
  return sha.HexDigest();
}

}  // namespace dtrcheck
