// A rematerialization schedule written out, and its independent checker.
//
// A schedule is the list of what a machine would do: compute an operator
// (the first time, or again to rematerialize it) or free a tensor (its
// storage, or for a view the view alone). CheckSchedule replays it on the Graph itself, with its
// own reading of simrd's memory semantics (it shares no code with the model in
// optimal/remat_problem.h), so a wrong model or a wrong solution shows up as
// a schedule that does not check.
#ifndef DTRCHECK_OPTIMAL_SCHEDULE_H_
#define DTRCHECK_OPTIMAL_SCHEDULE_H_

#include <string>
#include <string_view>
#include <vector>

#include "sim/graph.h"

namespace dtrcheck {

struct ScheduleStep {
  enum Kind { kCompute, kFree } kind = kCompute;
  int32_t target = -1;  // an OpId to compute, a TensorId to free
  bool operator==(const ScheduleStep&) const = default;
};

struct Schedule {
  std::vector<ScheduleStep> steps;
};

// One step a line, "compute OPERATOR" (simrd's unique operator names,
// "conv/12") or "free TENSOR" (the log's names), after a comment header.
std::string ScheduleText(const Graph& g, const Schedule& s, const std::string& header);
// Throws std::invalid_argument naming `file` and the line of a bad step.
Schedule ReadSchedule(const Graph& g, std::string_view text, const std::string& file);

struct ScheduleCheck {
  bool ok = false;
  std::string error;  // the first violation, naming the step
  Int compute = 0;    // total cost of every compute step
  Int peak = 0;       // highest memory, constants included
  int recomputations = 0;
};

// Replays `s` under `budget`: constants (the log's CONSTANTs) are resident
// where the log creates them and never freed; an operator may run only when
// each argument is materialized (its storage resident and, for a view, the
// view computed since that storage became resident), and allocates those
// of its storages that are not resident; memory (constants and resident
// storages; simrd counts no output_ram) never exceeds the budget after a
// compute; every operator runs, first in log order; every tensor the log
// pins (the outputs, under REMATERIALIZE) has its storage resident at the
// end.
ScheduleCheck CheckSchedule(const Graph& g, const Schedule& s, Int budget);

}  // namespace dtrcheck

#endif  // DTRCHECK_OPTIMAL_SCHEDULE_H_
