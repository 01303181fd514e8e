// Edits of a TraceLog that keep it a valid simrd log.
//
// The reducer (reduce/reducer.h) and the RapidCheck shrinker
// (properties/trace_gen.h) make traces smaller with these edits. A log is
// valid when it parses and every name is used only while it is bound: simrd
// asserts that a COPY or RELEASE finds external references, so a name used
// after its RELEASE would make simrd crash rather than simulate. All eight
// public traces and every generated trace satisfy CheckBindings; each edit
// either keeps that true or returns nothing.
#ifndef DTRCHECK_REDUCE_TRACE_EDITS_H_
#define DTRCHECK_REDUCE_TRACE_EDITS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "io/trace_log.h"

namespace dtrcheck {

// Empty if every use of a name (args, COPY/COPY_FROM sources and targets,
// RELEASE) finds it bound, no CALL/COPY/CONSTANT rebinds a bound name, and
// the log has a START annotation; otherwise what is wrong first, e.g.
// "instruction 12 (RELEASE x5): x5 is not bound".
std::string CheckBindings(const TraceLog& log);

// The index of the first START annotation (log.instrs.size() if none).
size_t FirstStart(const TraceLog& log);

// The names bound just before instruction `k` (after START), in the order
// they were bound, as CheckBindings follows them: where a new instruction
// may use them (the differential fuzzer's mutations).
std::vector<std::string> BoundBefore(const TraceLog& log, size_t k);

// Instructions an edit may remove: all but the first START annotation.
std::vector<size_t> RemovableInstructions(const TraceLog& log);

// Removes the marked instructions and, transitively, every later
// instruction that uses a name they defined (a CALL's results, a COPY's
// destination, a CONSTANT); a removed MUTATE or COPY_FROM leaves its names
// bound to what they held before. remove.size() == log.instrs.size().
TraceLog RemoveWithDependents(const TraceLog& log, const std::vector<bool>& remove);

// Drops argument `arg` of the CALL or MUTATE at `instr`: a result aliasing it
// becomes a fresh tensor of its MEMORY size, later ALIAS and MUTATE indices
// shift down. Nothing for a mutated argument or out-of-range indices.
std::optional<TraceLog> RemoveArgument(const TraceLog& log, size_t instr, size_t arg);

// Drops result `result` of a CALL with several results, and everything that
// uses it (as RemoveWithDependents). Nothing for a CALL's only result.
std::optional<TraceLog> RemoveResult(const TraceLog& log, size_t instr, size_t result);

// Contracts the CALL at `instr` into its first argument: the CALL goes, later
// uses of its results name that argument instead, and their RELEASEs go.
// Nothing if a result is later rebound (MUTATE, COPY_FROM) or the argument
// is no longer bound where a result was used.
std::optional<TraceLog> Contract(const TraceLog& log, size_t instr);

// Folds the operator at `instr` (a CALL or CONSTANT) into the closest earlier
// operator of the same kind: it is removed as by RemoveWithDependents, and
// the bytes of its own (non-alias) results are added to that operator's
// first own result. The operator count drops while the memory the trace
// allocates stays, which matters when budgets are ratios of the trace's peak.
// Nothing if there is no such earlier operator or nothing to fold.
std::optional<TraceLog> MergeIntoPrevious(const TraceLog& log, size_t instr);

// A number that can be simplified: a result's MEMORY or an op's TIME.
struct NumberRef {
  size_t instr = 0;
  int32_t result = -1;  // index into results for MEMORY; -1 for TIME
};
std::vector<NumberRef> Numbers(const TraceLog& log);
Int GetNumber(const TraceLog& log, const NumberRef& ref);
TraceLog WithNumber(const TraceLog& log, const NumberRef& ref, Int value);

// Simpler values than v, simplest first: fewer significant decimal digits,
// then smaller (1, the power of ten below v, v to 1, 2, 3 significant
// digits). Each is strictly simpler than v, so repeated simplification ends.
std::vector<Int> SimplerNumbers(Int v);

}  // namespace dtrcheck

#endif  // DTRCHECK_REDUCE_TRACE_EDITS_H_
