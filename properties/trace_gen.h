// RapidCheck generators of traces, shrinking with the reducer's edits.
//
// GenTrace draws a synthetic training step (traces/synthetic/generators.h)
// and shrinks a failing one with the edits of reduce/trace_edits.h, so that a
// counterexample RapidCheck prints is a small valid simrd log rather than a
// smaller set of generator parameters.
#ifndef DTRCHECK_PROPERTIES_TRACE_GEN_H_
#define DTRCHECK_PROPERTIES_TRACE_GEN_H_

#include <ostream>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "io/trace_log.h"
#include "traces/synthetic/generators.h"

namespace dtrcheck {

struct TraceGenLimits {
  std::vector<std::string> shapes = GeneratorShapes();
  int max_layers = 6;
  int max_width = 3;
  std::vector<int64_t> base_bytes = {4096, 65536, 1 << 20};
};

rc::Gen<GeneratorParams> GenParams(const TraceGenLimits& limits = {});

// A generated trace; shrinks with ShrinkTrace's edits, each kept shrink
// resuming at the edit that produced it (as ddmin does).
rc::Gen<TraceLog> GenTrace(const TraceGenLimits& limits = {});

// Smaller valid traces, most aggressive first: chunks of instructions
// removed with their dependents (halves down to single instructions),
// tuple results and arguments dropped, CALLs contracted or merged, numbers
// simplified. Every element passes CheckBindings.
rc::Seq<TraceLog> ShrinkTrace(const TraceLog& log);

// What RapidCheck prints for a trace: its size and its simrd log.
void showValue(const TraceLog& log, std::ostream& os);

}  // namespace dtrcheck

#endif  // DTRCHECK_PROPERTIES_TRACE_GEN_H_
