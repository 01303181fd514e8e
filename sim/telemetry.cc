#include "sim/telemetry.h"

#include <stdexcept>

namespace dtrcheck {

EvictionDigest::EvictionDigest() : ctx_(EVP_MD_CTX_new()) {
  if (ctx_ == nullptr || EVP_DigestInit_ex(ctx_, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("OpenSSL: cannot initialise SHA-256");
}

EvictionDigest::~EvictionDigest() { EVP_MD_CTX_free(ctx_); }

void EvictionDigest::Add(Int clock, TensorId root_id) {
  std::string line = IntToString(clock);
  line += ' ';
  line += std::to_string(root_id);
  line += '\n';
  EVP_DigestUpdate(ctx_, line.data(), line.size());
  ++count_;
}

std::string EvictionDigest::HexDigest() {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx_, md, &len);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out += hex[md[i] >> 4];
    out += hex[md[i] & 15];
  }
  return out;
}

}  // namespace dtrcheck
