#include "sim/telemetry.h"

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
  ~Sha256() { EVP_MD_CTX_free(ctx); }
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  EVP_MD_CTX* ctx;
};

EvictionDigest::EvictionDigest() : sha256_(std::make_unique<Sha256>()) {}

EvictionDigest::~EvictionDigest() = default;

void EvictionDigest::Add(Int clock, TensorId root_id) {
  std::string line = IntToString(clock);
  line += ' ';
  line += std::to_string(root_id);
  line += '\n';
  EVP_DigestUpdate(sha256_->ctx, line.data(), line.size());
  ++count_;
}

std::string EvictionDigest::HexDigest() {
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
