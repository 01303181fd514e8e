// The feature sets simrd uses to match runtimes with heuristics.
#ifndef DTRCHECK_SIM_FEATURES_H_
#define DTRCHECK_SIM_FEATURES_H_

#include <cstdint>
#include <string>

namespace dtrcheck {

using Features = uint32_t;
namespace feature {
constexpr Features kTelemetry = 1u << 0;
constexpr Features kBanishing = 1u << 1;
constexpr Features kLastAccess = 1u << 2;
constexpr Features kLastAccessInt = 1u << 3;
constexpr Features kLastEvict = 1u << 4;
constexpr Features kEagerEvict = 1u << 5;
constexpr Features kRegions = 1u << 6;
constexpr Features kEqClass = 1u << 7;
// dtrcheck's, not simrd's: blocks and pieces of an allocator model (the
// public API's kAddresses). A property of the memory model, not of the
// runtime kind: PairRefusal ignores it, the Runtime refuses it under bytes.
constexpr Features kAddresses = 1u << 8;
}  // namespace feature

// Python set notation with simrd's feature names, sorted, e.g.
// "{'last_access_int', 'regions'}".
std::string FeaturesToString(Features f);

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_FEATURES_H_
