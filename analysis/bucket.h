// Root-cause buckets of reduced counterexamples: the key that two
// reductions of one failure mechanism share and different mechanisms do not
// (fuzz/README.md, "Buckets", says what is in it and why).
//
// The key is computed from the reduced trace and its two-budget property
// alone, by running the trace at both budgets; where the trace was filed
// (corpus/<kind>/) plays no part. It is made of:
//   labels    every pathology the two runs show, sorted: "inversion",
//             "pinned-oom", "cliff", "overhead-rise". One failure found as an
//             inversion and as a pinned-frontier oom is one bucket with both
//             labels, as is a cliff whose higher budget is the costlier run.
//   failure   the statuses at lo and hi ("ok>oom", "ok>thrashed", "ok>ok"):
//             which end fails and how.
//   oom_site  for an oom at hi: "model" when the failing allocation is an
//             operator of the schedule, "remat" when it is a
//             rematerialization (OomDetails::depth > 0); "" otherwise.
//   family    ScoreFamily of the heuristic (sim/score_family.h).
//   memory    under an allocator model only: "memory <model>" (a
//             fragmentation-oom's two runs are hi under bytes and under the
//             allocator; its label is "fragmentation-oom").
// Two things are computed beside the key and left out of it, because on the
// 83 archived entries they split what diagnose shows to be one story:
//   features    what of the trace format the reduced trace still uses
//               ("alias", "compute", "multi-output", "mutate"): it split
//               the ok -> oom pinned-frontier failures of the DTR family at
//               a model operator into two buckets (with and without a
//               MUTATE) whose diagnoses read alike (corpus/buckets.md).
//   trace_form  the digest of TraceForm: as fine as the trace's own SHA-256
//               there (57 forms for 57 distinct traces, even with sizes and
//               times dropped), it would make each reduced trace its own
//               bucket. It names a trace up to renaming and scale, and breaks
//               ties between representatives.
#ifndef DTRCHECK_ANALYSIS_BUCKET_H_
#define DTRCHECK_ANALYSIS_BUCKET_H_

#include <string>
#include <vector>

#include "analysis/reduce_property.h"
#include "io/record.h"
#include "sim/graph.h"

namespace dtrcheck {

// The schedule as the simulator reads it, one line per operator and
// command, with tensors numbered as the graph numbers them (in schedule
// order, so independent of the log's names), operator names left out, sizes
// divided by the gcd of all sizes and costs by the gcd of all costs.
// Two logs differing only in names and by a common factor of their sizes
// (or of their times) have the same form.
std::string TraceForm(const Graph& graph);
// The SHA-256 of TraceForm, in hex.
std::string TraceFormDigest(const Graph& graph);

struct Bucket {
  std::vector<std::string> labels;  // sorted
  std::string failure, oom_site, family;
  std::vector<std::string> features;  // sorted
  std::string trace_form;             // TraceFormDigest
  std::string key;                    // labels|failure|oom_site|family
  std::string id;                     // the first 16 hex digits of the key's SHA-256
};

// Runs the spec's configuration at lo and hi (the spec's property only
// decides whether a both-ok pair is a cliff). Throws what
// CheckTraceProperty throws, and std::invalid_argument without lo.
Bucket BucketOf(const Graph& graph, const PropertySpec& spec);

Json BucketToJson(const Bucket& b);

}  // namespace dtrcheck

#endif  // DTRCHECK_ANALYSIS_BUCKET_H_
