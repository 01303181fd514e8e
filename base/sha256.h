// SHA-256 (OpenSSL's), the one implementation behind the eviction digest
// (sim/telemetry.h), the traces' pins (traces/locate.h) and the findings'
// signature ids (fuzz/lib/fuzz_check.h).
#ifndef DTRCHECK_BASE_SHA256_H_
#define DTRCHECK_BASE_SHA256_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace dtrcheck {

class Sha256 {
 public:
  Sha256();
  // A copy digests on from where `other` is (a forked run's digest).
  Sha256(const Sha256& other);
  Sha256& operator=(const Sha256& other);  // digests on from where other is
  ~Sha256();

  void Update(const void* data, size_t size);
  void Update(std::string_view text) { Update(text.data(), text.size()); }
  // Finishes the digest: 64 lowercase hex digits.
  std::string HexDigest();

 private:
  // OpenSSL's context, opaque here so that OpenSSL's headers reach only
  // sha256.cc and not every file that includes the runtime.
  struct State;
  std::unique_ptr<State> state_;
};

// The digest of `text`, as Sha256::HexDigest gives it.
std::string Sha256Hex(std::string_view text);

}  // namespace dtrcheck

#endif  // DTRCHECK_BASE_SHA256_H_
