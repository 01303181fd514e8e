#include "reduce/reducer.h"

#include <algorithm>

#include "reduce/trace_edits.h"

namespace dtrcheck {

namespace {

class Reducer {
 public:
  Reducer(const TraceLog& start, const TracePredicate& interesting, const ReduceOptions& options)
      : current_(start), interesting_(interesting), options_(options) {}

  ReduceResult Run() {
    ReduceResult result;
    while (!Cancelled()) {
      ++round_;
      bool changed = false;
      changed |= Ddmin();
      changed |= RemoveEdges();
      changed |= ContractChains();
      changed |= MergeOperators();
      changed |= SimplifyNumbers();
      if (!changed && !Cancelled()) {
        result.minimal = true;
        break;
      }
    }
    result.log = current_;
    result.tests = tests_;
    result.rounds = round_;
    result.cancelled = Cancelled() && !result.minimal;
    return result;
  }

 private:
  bool Cancelled() const { return options_.cancel && options_.cancel->load(); }

  void Report() {
    if (!options_.on_progress) return;
    options_.on_progress(
        ReduceProgress{pass_, round_, tests_, current_.instrs.size(), current_.NumOperators()});
  }

  // Evaluates a candidate; adopts it if the property still holds.
  bool Try(TraceLog candidate) {
    if (Cancelled()) return false;
    if (!CheckBindings(candidate).empty()) return false;
    ++tests_;
    bool keep = interesting_(candidate);
    if (keep) {
      current_ = std::move(candidate);
      if (options_.on_accept) options_.on_accept(current_);
    }
    if (keep || tests_ % 32 == 0) Report();
    return keep;
  }

  // Chunks of removable instructions, from the end of the trace backwards
  // (removing late instructions first never strands an earlier one), chunk
  // sizes halving down to one instruction.
  bool Ddmin() {
    pass_ = "ddmin";
    bool changed = false;
    std::vector<size_t> units = RemovableInstructions(current_);
    size_t chunk = std::max<size_t>(1, units.size() / 2);
    while (!Cancelled() && !units.empty()) {
      bool progress = false;
      for (size_t end = units.size(); end > 0 && !Cancelled();) {
        size_t begin = end > chunk ? end - chunk : 0;
        std::vector<bool> remove(current_.instrs.size(), false);
        for (size_t u = begin; u < end; ++u) remove[units[u]] = true;
        if (Try(RemoveWithDependents(current_, remove))) {
          progress = changed = true;
          // Everything before `begin` is untouched, so its units keep their indices.
          units = RemovableInstructions(current_);
          end = std::min(begin, units.size());
        } else {
          end = begin;
        }
      }
      if (chunk == 1 && !progress) break;
      if (!progress) chunk = std::max<size_t>(1, chunk / 2);
      chunk = std::min(chunk, std::max<size_t>(1, units.size()));
    }
    return changed;
  }

  bool RemoveEdges() {
    pass_ = "edges";
    bool changed = false;
    for (size_t k = current_.instrs.size(); k-- > 0 && !Cancelled();) {
      for (size_t r = current_.instrs[k].results.size(); r-- > 0 && !Cancelled();) {
        auto candidate = RemoveResult(current_, k, r);
        if (candidate && Try(std::move(*candidate))) changed = true;
      }
      for (size_t a = current_.instrs[k].args.size(); a-- > 0 && !Cancelled();) {
        auto candidate = RemoveArgument(current_, k, a);
        if (candidate && Try(std::move(*candidate))) changed = true;
      }
    }
    return changed;
  }

  bool ContractChains() {
    pass_ = "contract";
    bool changed = false;
    for (size_t k = current_.instrs.size(); k-- > 0 && !Cancelled();) {
      if (k >= current_.instrs.size()) continue;
      auto candidate = Contract(current_, k);
      if (candidate && Try(std::move(*candidate))) changed = true;
    }
    return changed;
  }

  bool MergeOperators() {
    pass_ = "merge";
    bool changed = false;
    for (size_t k = current_.instrs.size(); k-- > 0 && !Cancelled();) {
      if (k >= current_.instrs.size()) continue;
      auto candidate = MergeIntoPrevious(current_, k);
      if (candidate && Try(std::move(*candidate))) changed = true;
    }
    return changed;
  }

  bool SimplifyNumbers() {
    pass_ = "numbers";
    bool changed = false;
    std::vector<NumberRef> refs = Numbers(current_);  // stable: only values change
    for (const NumberRef& ref : refs) {
      for (Int value : SimplerNumbers(GetNumber(current_, ref))) {
        if (Cancelled()) return changed;
        if (Try(WithNumber(current_, ref, value))) {
          changed = true;
          break;
        }
      }
    }
    return changed;
  }

  TraceLog current_;
  const TracePredicate& interesting_;
  const ReduceOptions& options_;
  const char* pass_ = "";
  size_t round_ = 0;
  size_t tests_ = 0;
};

}  // namespace

ReduceResult Reduce(const TraceLog& start, const TracePredicate& interesting,
                    const ReduceOptions& options) {
  return Reducer(start, interesting, options).Run();
}

}  // namespace dtrcheck
