// The policy family of a heuristic (defined beside the heuristics' table in
// sim/heuristic.cc): what a fuzz finding's root-cause bucket
// (analysis/bucket.h) groups heuristics by.
#ifndef DTRCHECK_SIM_SCORE_FAMILY_H_
#define DTRCHECK_SIM_SCORE_FAMILY_H_

#include <string>

namespace dtrcheck {

// The policy family of a heuristic: what its score is made of, so that two
// heuristics computing the same score the same way share it. "dtr" for
// compute-over-size-and-staleness (DTR, DTREqClass, DTRLocal, DTRUnopt and
// AbESizeStale, AbEqSizeStale, AbLocalSizeStale: they differ only in how they
// approximate the evicted neighbourhood's compute); for the other ablations
// the factors kept, joined by '+' ("cost+size", "cost+stale", "cost",
// "size+stale", "size" (also LargestStorage), "stale"); "msps", "lru",
// "random" (RandomStorage, AbRandom); "plugin:<name>" for a plugin's
// heuristic; "" for an unknown name.
std::string ScoreFamily(const std::string& name);

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_SCORE_FAMILY_H_
