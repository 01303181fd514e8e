#include "fuzz/lib/diff_case.h"

#include <algorithm>
#include <map>
#include <set>

#include "reduce/trace_edits.h"
#include "sim/accepted_pairs.h"
#include "sim/heuristic.h"
#include "sim/runtime.h"

namespace dtrcheck {

namespace {

template <typename T>
const T& Pick(GenRng& rng, const std::vector<T>& v) {
  return v[rng.Below(v.size())];
}

// Draws `count` distinct names of `pool` (fewer if the pool is smaller).
std::vector<std::string> PickDistinct(GenRng& rng, std::vector<std::string> pool, size_t count) {
  std::vector<std::string> out;
  while (out.size() < count && !pool.empty()) {
    size_t i = rng.Below(pool.size());
    out.push_back(pool[i]);
    pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(i));
  }
  return out;
}

class Mutator {
 public:
  Mutator(GenRng& rng, TraceLog& log) : rng_(rng), log_(log) {}

  // Applies the named mutation; false if it found no place for it (or the
  // result would not be a valid log), leaving the log unchanged.
  bool Apply(const std::string& name) {
    TraceLog saved = log_;
    bool keeps_valid = name != "undefined-release" && name != "no-start";
    bool done = Mutate(name);
    if (done && keeps_valid && !CheckBindings(log_).empty()) done = false;
    if (!done) log_ = saved;
    return done;
  }

 private:
  std::string Fresh() {
    std::string name = std::to_string(next_name_++);
    return name.insert(0, 1, 'y');  // not "y" + ...: a GCC 12 -Wrestrict false positive
  }
  Int Bytes() { return static_cast<Int>(rng_.LogUniform(4, 1 << 22)); }
  Int Time() { return static_cast<Int>(rng_.LogUniform(1, 1 << 20)); }
  // A position after START (an insertion point) where some name is bound.
  std::optional<std::pair<size_t, std::vector<std::string>>> Place(size_t min_bound = 1) {
    size_t start = FirstStart(log_);
    if (start >= log_.instrs.size()) return std::nullopt;
    for (int attempt = 0; attempt < 8; ++attempt) {
      size_t k = start + 1 + rng_.Below(log_.instrs.size() - start);
      auto bound = BoundBefore(log_, k);
      if (bound.size() >= min_bound) return std::make_pair(k, bound);
    }
    return std::nullopt;
  }
  void Insert(size_t k, std::vector<TraceInstr> in) {
    log_.instrs.insert(log_.instrs.begin() + static_cast<std::ptrdiff_t>(k), in.begin(), in.end());
  }
  std::vector<size_t> Indices(TraceOp op) const {
    std::vector<size_t> out;
    for (size_t i = FirstStart(log_) + 1; i < log_.instrs.size(); ++i)
      if (log_.instrs[i].op == op) out.push_back(i);
    return out;
  }
  void Move(size_t from, size_t to) {
    TraceInstr in = log_.instrs[from];
    log_.instrs.erase(log_.instrs.begin() + static_cast<std::ptrdiff_t>(from));
    if (to > from) --to;
    Insert(to, {in});
  }

  bool Mutate(const std::string& name) {
    if (name == "alias-chain") {
      auto p = Place();
      if (!p) return false;
      std::string prev = Pick(rng_, p->second);
      std::vector<TraceInstr> chain;
      for (int n = static_cast<int>(rng_.Range(1, 4)); n > 0; --n) {
        std::string v = Fresh();
        chain.push_back(TraceInstr::Call("view", {prev}, {{v, Bytes(), 0}}, Time()));
        prev = v;
      }
      Insert(p->first, chain);
      return true;
    }
    if (name == "multi-mutate") {
      auto p = Place(2);
      if (!p) return false;
      auto args = PickDistinct(rng_, p->second, static_cast<size_t>(rng_.Range(2, 4)));
      std::vector<int32_t> mutated;
      for (size_t i = 0; i < args.size(); ++i)
        if (rng_.Chance(2, 3)) mutated.push_back(static_cast<int32_t>(i));
      if (mutated.empty()) mutated.push_back(0);
      Insert(p->first, {TraceInstr::Mutate("fused_", args, mutated, Time())});
      return true;
    }
    if (name == "multi-output") {
      auto p = Place();
      if (!p) return false;
      auto args = PickDistinct(rng_, p->second, static_cast<size_t>(rng_.Range(1, 3)));
      std::vector<TraceResult> results;
      for (int n = static_cast<int>(rng_.Range(2, 4)); n > 0; --n) {
        int32_t alias = rng_.Chance(1, 4) ? static_cast<int32_t>(rng_.Below(args.size())) : -1;
        results.push_back({Fresh(), Bytes(), alias});
      }
      Insert(p->first, {TraceInstr::Call("multi", args, results, Time())});
      return true;
    }
    if (name == "copy") {
      auto p = Place();
      if (!p) return false;
      Insert(p->first, {TraceInstr::Copy(Fresh(), Pick(rng_, p->second))});
      return true;
    }
    if (name == "copy-from") {
      auto p = Place(2);
      if (!p) return false;
      auto two = PickDistinct(rng_, p->second, 2);
      Insert(p->first, {TraceInstr::CopyFrom(two[0], two[1])});
      return true;
    }
    if (name == "release-late" || name == "release-early") {
      auto releases = Indices(TraceOp::kRelease);
      if (releases.empty()) return false;
      size_t from = Pick(rng_, releases);
      size_t start = FirstStart(log_);
      size_t to = name == "release-late" ? from + 1 + rng_.Below(log_.instrs.size() - from)
                                         : start + 1 + rng_.Below(from - start);
      Move(from, to);
      return true;
    }
    if (name == "release-shuffle") {
      std::vector<std::pair<size_t, size_t>> runs;  // [begin, end) of >= 2 RELEASEs
      for (size_t i = 0; i < log_.instrs.size();) {
        size_t j = i;
        while (j < log_.instrs.size() && log_.instrs[j].op == TraceOp::kRelease) ++j;
        if (j - i >= 2) runs.push_back({i, j});
        i = j > i ? j : i + 1;
      }
      if (runs.empty()) return false;
      auto [b, e] = Pick(rng_, runs);
      for (size_t i = e - 1; i > b; --i)  // Fisher-Yates with GenRng
        std::swap(log_.instrs[i], log_.instrs[b + rng_.Below(i - b + 1)]);
      return true;
    }
    if (name == "release-all") {
      auto bound = BoundBefore(log_, log_.instrs.size());
      if (bound.empty()) return false;
      for (size_t i = bound.size() - 1; i > 0; --i) std::swap(bound[i], bound[rng_.Below(i + 1)]);
      for (const auto& n : bound) log_.instrs.push_back(TraceInstr::Release(n));
      return true;
    }
    if (name == "zero-cost") {
      auto calls = Indices(TraceOp::kCall);
      if (calls.empty()) return false;
      TraceInstr& c = log_.instrs[Pick(rng_, calls)];
      c.time = 0;
      c.results[rng_.Below(c.results.size())].memory = 0;
      return true;
    }
    if (name == "undefined-release") {
      size_t start = FirstStart(log_);
      size_t k = start + 1 + rng_.Below(log_.instrs.size() - std::min(start, log_.instrs.size()));
      Insert(std::min(k, log_.instrs.size()), {TraceInstr::Release("undefined" + Fresh())});
      return true;
    }
    if (name == "no-start") {
      size_t start = FirstStart(log_);
      if (start >= log_.instrs.size()) return false;
      log_.instrs.erase(log_.instrs.begin() + static_cast<std::ptrdiff_t>(start));
      return true;
    }
    return false;
  }

  GenRng& rng_;
  TraceLog& log_;
  int next_name_ = 0;
};

GeneratorParams DrawGenerator(GenRng& rng) {
  GeneratorParams g;
  g.shape = Pick(rng, GeneratorShapes());
  g.seed = rng.Next() >> 32;
  g.layers = static_cast<int>(rng.Range(1, g.shape == "tree" ? 4 : 10));
  g.width = static_cast<int>(rng.Range(1, 3));
  const int64_t bases[] = {4096, 65536, 1 << 20, 16 << 20};
  g.base_bytes = bases[rng.Below(4)];
  return g;
}

RunConfig DrawConfig(GenRng& rng) {
  RunConfig c;
  const auto& pairs = AcceptedPairs();
  if (rng.Chance(1, 25)) {  // any pair, refused ones included: both must refuse
    c.runtime = Pick(rng, RuntimeNames());
    c.heuristic = Pick(rng, HeuristicNames());
  } else {
    const auto& p = Pick(rng, pairs);
    c.runtime = p.runtime;
    c.heuristic = p.heuristic;
  }
  if (rng.Chance(1, 5)) c.baseline_runtime = Pick(rng, RuntimeNames());
  if (rng.Chance(3, 4))
    c.ratio = static_cast<double>(rng.Range(200, 11000)) / 10000.0;  // exact 4-decimal text
  else
    c.budget = static_cast<Int>(rng.LogUniform(1, uint64_t{1} << 32));
  uint64_t limit = rng.Below(10);
  if (limit < 3)
    c.overhead_limit = 1.0 + static_cast<double>(rng.Range(0, 3000)) / 1000.0;
  else if (limit == 3)
    c.remat_limit = static_cast<Int>(rng.LogUniform(1, uint64_t{1} << 28));
  if (IsRandomHeuristic(c.heuristic) || rng.Chance(1, 10))
    c.seed = static_cast<Int>(rng.Next() >> 16);
  c.stats = true;
  return c;
}

// "wide-values": half the operators' times and half the results' sizes
// drawn from [2^40, 2^62] (a log's values stay below 2^63), byte budgets and
// remat limits up to 2^72. simrd's sums, budgets and scores of them are
// Python ints and true divisions, exact at any size; dtrcheck's 128-bit Int
// and its wider products (sim/python/py_arith.h) must give the same.
void WidenValues(GenRng& rng, TraceLog& log, std::vector<RunConfig>& configs) {
  auto wide = [&] {
    return static_cast<Int>(rng.LogUniform(uint64_t{1} << 40, uint64_t{1} << 62));
  };
  for (TraceInstr& in : log.instrs) {
    if ((in.op == TraceOp::kCall || in.op == TraceOp::kMutate) && rng.Chance(1, 2))
      in.time = wide();
    if (in.op == TraceOp::kCall || in.op == TraceOp::kConstant)
      for (TraceResult& r : in.results)
        if (rng.Chance(1, 2)) r.memory = wide();
  }
  for (RunConfig& c : configs) {
    if (c.budget) c.budget = wide() * rng.Range(1, 1024);
    if (c.remat_limit) c.remat_limit = wide() * rng.Range(1, 1024);
  }
}

// The mutations drawn from a case's main stream: all but "wide-values",
// which has a stream of its own (MakeDiffCase).
const std::vector<std::string>& MainStreamMutationNames() {
  static const std::vector<std::string> names = {
      "alias-chain", "multi-mutate", "multi-output",      "copy",
      "copy-from",   "release-late", "release-early",     "release-shuffle",
      "release-all", "zero-cost",    "undefined-release", "no-start"};
  return names;
}

}  // namespace

const std::vector<std::string>& DiffMutationNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all = MainStreamMutationNames();
    all.push_back("wide-values");
    return all;
  }();
  return names;
}

DiffCase MakeDiffCase(uint64_t seed, uint64_t index, const DiffCaseOptions& options) {
  // One stream per case, independent of every other case's draws.
  GenRng mix(seed ^ (index * 0xd1342543de82ef95ULL));
  GenRng rng(mix.Next() ^ index);
  DiffCase c;
  c.seed = seed;
  c.index = index;
  c.generator = DrawGenerator(rng);
  for (;;) {
    c.log = GenerateTrace(c.generator);
    if (c.log.NumOperators() <= options.max_operators || c.generator.layers == 1) break;
    c.generator.layers = std::max(1, c.generator.layers * 2 / 3);
  }
  Mutator mutator(rng, c.log);
  const std::vector<std::string>& names = MainStreamMutationNames();
  for (int n = static_cast<int>(rng.Range(0, options.max_mutations)); n > 0; --n) {
    // The two invalidating mutations are drawn less often: most cases should run.
    std::string m = Pick(rng, names);
    if ((m == "undefined-release" || m == "no-start") && rng.Chance(1, 2)) continue;
    if (mutator.Apply(m)) c.mutations.push_back(m);
  }
  bool no_start =
      std::find(c.mutations.begin(), c.mutations.end(), "no-start") != c.mutations.end();
  c.parse.start = !(no_start ? rng.Chance(3, 4) : rng.Chance(1, 20));
  if (rng.Chance(1, 4)) c.parse.out_cond = OutputCondition::kPreallocate;
  c.parse.ignore_undefined_release = !rng.Chance(1, 4);
  for (int i = 0; i < options.configs; ++i) c.configs.push_back(DrawConfig(rng));
  // From a stream of its own, drawn last: the cases of campaigns from before
  // it came are the same, except for the one case in eight it changes.
  GenRng widen(mix.Next());
  if (widen.Chance(1, 8)) {
    WidenValues(widen, c.log, c.configs);
    c.mutations.push_back("wide-values");
  }
  return c;
}

std::vector<std::string> InstructionKinds(const TraceLog& log) {
  std::set<std::string> kinds;
  for (const auto& in : log.instrs) {
    switch (in.op) {
      case TraceOp::kConstant:
        kinds.insert({"CONSTANT", "MEMORY"});
        break;
      case TraceOp::kCopy:
        kinds.insert("COPY");
        break;
      case TraceOp::kCopyFrom:
        kinds.insert("COPY_FROM");
        break;
      case TraceOp::kRelease:
        kinds.insert("RELEASE");
        break;
      case TraceOp::kCall:
        kinds.insert({"CALL", "MEMORY", "ALIAS"});
        if (in.results.size() > 1) kinds.insert("CALL(tuple)");
        for (const auto& r : in.results)
          if (r.alias != -1) kinds.insert("ALIAS(view)");
        break;
      case TraceOp::kMutate:
        kinds.insert(in.mutate.size() > 1 ? "MUTATE(several)" : "MUTATE");
        break;
      case TraceOp::kAnnotate:
        kinds.insert("ANNOTATE(" + in.name + ")");
        break;
    }
  }
  return {kinds.begin(), kinds.end()};
}

std::string RunArguments(const ParseOptions& parse, const RunConfig& c) {
  std::string s = "--runtime " + c.runtime + " --heuristic " + c.heuristic;
  if (c.baseline_runtime != RunConfig{}.baseline_runtime)
    s += " --baseline-runtime " + c.baseline_runtime;
  if (c.ratio) s += " --ratio " + Json(*c.ratio).dump();
  if (c.budget) s += " --budget " + IntToString(*c.budget);
  if (c.overhead_limit) s += " --overhead-limit " + Json(*c.overhead_limit).dump();
  if (c.remat_limit) s += " --remat-limit " + IntToString(*c.remat_limit);
  if (c.seed) s += " --seed " + IntToString(*c.seed);
  if (!parse.start) s += " --no-start";
  if (parse.out_cond == OutputCondition::kPreallocate) s += " --preallocate";
  if (!parse.ignore_undefined_release) s += " --strict-release";
  return s;
}

}  // namespace dtrcheck
