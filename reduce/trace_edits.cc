#include "reduce/trace_edits.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace dtrcheck {

namespace {

const char* OpName(TraceOp op) {
  switch (op) {
    case TraceOp::kConstant:
      return "CONSTANT";
    case TraceOp::kCopy:
      return "COPY";
    case TraceOp::kCopyFrom:
      return "COPY_FROM";
    case TraceOp::kRelease:
      return "RELEASE";
    case TraceOp::kCall:
      return "CALL";
    case TraceOp::kMutate:
      return "MUTATE";
    case TraceOp::kAnnotate:
      return "ANNOTATE";
  }
  return "?";
}

// Calls f(name) for every name the instruction reads (must be bound).
template <typename F>
void ForEachUse(const TraceInstr& i, F f) {
  switch (i.op) {
    case TraceOp::kCopy:
      f(i.src);
      break;
    case TraceOp::kCopyFrom:
      f(i.src);
      f(i.dst);
      break;
    case TraceOp::kRelease:
      f(i.name);
      break;
    case TraceOp::kCall:
    case TraceOp::kMutate:
      for (const auto& a : i.args) f(a);
      break;
    default:
      break;
  }
}

// Calls f(name) for every name the instruction binds afresh.
template <typename F>
void ForEachDefinition(const TraceInstr& i, F f) {
  switch (i.op) {
    case TraceOp::kConstant:
      f(i.name);
      break;
    case TraceOp::kCopy:
      f(i.dst);
      break;
    case TraceOp::kCall:
      for (const auto& r : i.results) f(r.name);
      break;
    default:
      break;
  }
}

int SignificantDigits(Int v) {
  if (v == 0) return 0;
  std::string s = IntToString(v < 0 ? -v : v);
  while (!s.empty() && s.back() == '0') s.pop_back();
  return static_cast<int>(s.size());
}

// v rounded to `digits` significant digits (half up).
Int RoundTo(Int v, int digits) {
  Int limit = 1;
  for (int k = 0; k < digits; ++k) limit *= 10;
  Int scale = 1;
  while (v / scale >= limit) scale *= 10;
  return (v + scale / 2) / scale * scale;
}

}  // namespace

size_t FirstStart(const TraceLog& log) {
  for (size_t k = 0; k < log.instrs.size(); ++k)
    if (log.instrs[k].op == TraceOp::kAnnotate && log.instrs[k].name == "START") return k;
  return log.instrs.size();
}

std::vector<std::string> BoundBefore(const TraceLog& log, size_t k) {
  std::vector<std::string> order;
  std::unordered_set<std::string> bound;
  for (size_t i = FirstStart(log) + 1; i < k && i < log.instrs.size(); ++i) {
    const TraceInstr& in = log.instrs[i];
    if (in.op == TraceOp::kRelease && bound.erase(in.name)) std::erase(order, in.name);
    ForEachDefinition(in, [&](const std::string& n) {
      if (bound.insert(n).second) order.push_back(n);
    });
  }
  return order;
}

std::string CheckBindings(const TraceLog& log) {
  size_t start = FirstStart(log);
  if (start == log.instrs.size()) return "no START annotation";
  // name -> the log name of the tensor it is bound to (simrd names a mutated
  // tensor "<tensor>$"; tensor names must be unique in the whole graph).
  std::unordered_map<std::string, std::string> bound;
  std::unordered_set<std::string> tensors;
  for (size_t k = start + 1; k < log.instrs.size(); ++k) {
    const TraceInstr& i = log.instrs[k];
    std::string error;
    auto where = [&] {
      return "instruction " + std::to_string(k) + " (" + OpName(i.op) + " " + i.name + i.dst + ")";
    };
    auto fail = [&](const std::string& what) {
      if (error.empty()) error = where() + ": " + what;
    };
    ForEachUse(i, [&](const std::string& n) {
      if (!bound.count(n)) fail(n + " is not bound");
    });
    if (!error.empty()) return error;
    auto define_tensor = [&](const std::string& t) {
      if (!tensors.insert(t).second) fail("tensor " + t + " is defined twice");
    };
    auto bind = [&](const std::string& n, const std::string& t) {
      if (!bound.emplace(n, t).second) fail(n + " is already bound");
    };
    switch (i.op) {
      case TraceOp::kConstant:
        define_tensor(i.name);
        bind(i.name, i.name);
        break;
      case TraceOp::kCopy:
        bind(i.dst, bound[i.src]);
        break;
      case TraceOp::kCopyFrom:
        // simrd releases dst's tensor before taking src's: onto itself, that
        // drops the last reference first (its get() then asserts).
        if (i.dst == i.src) fail("COPY_FROM of a name onto itself");
        bound[i.dst] = bound[i.src];
        break;
      case TraceOp::kRelease:
        bound.erase(i.name);
        break;
      case TraceOp::kCall:
        if (i.results.empty()) fail("a CALL needs results");
        for (const auto& r : i.results) {
          if (r.alias < -1 || r.alias >= static_cast<int32_t>(i.args.size()))
            fail("bad ALIAS index");
          define_tensor(r.name);
          bind(r.name, r.name);
        }
        break;
      case TraceOp::kMutate: {
        if (i.mutate.empty()) fail("a MUTATE needs a mutated argument");
        std::unordered_set<int32_t> seen;
        for (int32_t m : i.mutate) {
          if (m < 0 || m >= static_cast<int32_t>(i.args.size()) || !seen.insert(m).second) {
            fail("bad MUTATE index");
            break;
          }
          define_tensor(bound[i.args[m]] + "$");
        }
        if (error.empty())
          for (int32_t m : i.mutate) bound[i.args[m]] += "$";
        break;
      }
      case TraceOp::kAnnotate:
        break;
    }
    if (!error.empty()) return error;
  }
  return "";
}

std::vector<size_t> RemovableInstructions(const TraceLog& log) {
  size_t start = FirstStart(log);
  std::vector<size_t> out;
  for (size_t k = 0; k < log.instrs.size(); ++k)
    if (k != start) out.push_back(k);
  return out;
}

TraceLog RemoveWithDependents(const TraceLog& log, const std::vector<bool>& remove) {
  TraceLog out;
  out.instrs.reserve(log.instrs.size());
  std::unordered_set<std::string> dead;
  for (size_t k = 0; k < log.instrs.size(); ++k) {
    const TraceInstr& i = log.instrs[k];
    bool drop = remove[k];
    if (!drop) ForEachUse(i, [&](const std::string& n) { drop = drop || dead.count(n); });
    if (drop) {
      ForEachDefinition(i, [&](const std::string& n) { dead.insert(n); });
      continue;
    }
    out.instrs.push_back(i);
  }
  return out;
}

std::optional<TraceLog> RemoveArgument(const TraceLog& log, size_t instr, size_t arg) {
  if (instr >= log.instrs.size()) return std::nullopt;
  TraceLog out = log;
  TraceInstr& i = out.instrs[instr];
  if ((i.op != TraceOp::kCall && i.op != TraceOp::kMutate) || arg >= i.args.size())
    return std::nullopt;
  const int32_t a = static_cast<int32_t>(arg);
  if (std::find(i.mutate.begin(), i.mutate.end(), a) != i.mutate.end()) return std::nullopt;
  i.args.erase(i.args.begin() + a);
  for (auto& r : i.results) {
    if (r.alias == a)
      r.alias = -1;
    else if (r.alias > a)
      r.alias -= 1;
  }
  for (auto& m : i.mutate)
    if (m > a) m -= 1;
  return out;
}

std::optional<TraceLog> RemoveResult(const TraceLog& log, size_t instr, size_t result) {
  if (instr >= log.instrs.size()) return std::nullopt;
  const TraceInstr& call = log.instrs[instr];
  if (call.op != TraceOp::kCall || call.results.size() < 2 || result >= call.results.size())
    return std::nullopt;
  // Removing the CALL's dependents on that one result: mark the result dead by
  // removing a copy of the log in which the CALL defines only that result.
  TraceLog marked = log;
  marked.instrs[instr].results = {call.results[result]};
  std::vector<bool> remove(log.instrs.size(), false);
  remove[instr] = true;
  TraceLog pruned = RemoveWithDependents(marked, remove);
  // Put the CALL back, without that result, where it was.
  TraceInstr kept = call;
  kept.results.erase(kept.results.begin() + static_cast<std::ptrdiff_t>(result));
  pruned.instrs.insert(pruned.instrs.begin() + static_cast<std::ptrdiff_t>(instr), std::move(kept));
  return pruned;
}

std::optional<TraceLog> Contract(const TraceLog& log, size_t instr) {
  if (instr >= log.instrs.size()) return std::nullopt;
  const TraceInstr& call = log.instrs[instr];
  if (call.op != TraceOp::kCall || call.args.empty()) return std::nullopt;
  const std::string& into = call.args[0];
  std::unordered_set<std::string> results;
  for (const auto& r : call.results) results.insert(r.name);
  TraceLog out;
  out.instrs.reserve(log.instrs.size());
  for (size_t k = 0; k < log.instrs.size(); ++k) {
    if (k == instr) continue;
    TraceInstr i = log.instrs[k];
    if (k > instr) {
      if (i.op == TraceOp::kRelease && results.count(i.name)) continue;
      if (i.op == TraceOp::kCopyFrom && results.count(i.dst)) return std::nullopt;
      if (i.op == TraceOp::kMutate)
        for (int32_t m : i.mutate)
          if (results.count(i.args[m])) return std::nullopt;
      auto rename = [&](std::string& n) {
        if (results.count(n)) n = into;
      };
      if (i.op == TraceOp::kCopy || i.op == TraceOp::kCopyFrom) rename(i.src);
      if (i.op == TraceOp::kCall || i.op == TraceOp::kMutate)
        for (auto& a : i.args) rename(a);
    }
    out.instrs.push_back(std::move(i));
  }
  if (!CheckBindings(out).empty()) return std::nullopt;
  return out;
}

std::optional<TraceLog> MergeIntoPrevious(const TraceLog& log, size_t instr) {
  if (instr >= log.instrs.size()) return std::nullopt;
  const TraceInstr& from = log.instrs[instr];
  if (from.op != TraceOp::kCall && from.op != TraceOp::kConstant) return std::nullopt;
  Int bytes = 0;
  for (const auto& r : from.results)
    if (r.alias == -1) bytes += r.memory;
  if (bytes == 0) return std::nullopt;
  for (size_t k = instr; k-- > 0;) {
    const TraceInstr& into = log.instrs[k];
    if (into.op != from.op) continue;
    for (size_t r = 0; r < into.results.size(); ++r) {
      if (into.results[r].alias != -1) continue;
      std::vector<bool> remove(log.instrs.size(), false);
      remove[instr] = true;
      TraceLog out = RemoveWithDependents(log, remove);
      out.instrs[k].results[r].memory += bytes;  // k < instr: its index is unchanged
      return out;
    }
  }
  return std::nullopt;
}

std::vector<NumberRef> Numbers(const TraceLog& log) {
  std::vector<NumberRef> out;
  for (size_t k = 0; k < log.instrs.size(); ++k) {
    const TraceInstr& i = log.instrs[k];
    if (i.op == TraceOp::kCall || i.op == TraceOp::kMutate) out.push_back({k, -1});
    if (i.op == TraceOp::kCall || i.op == TraceOp::kConstant)
      for (size_t r = 0; r < i.results.size(); ++r) out.push_back({k, static_cast<int32_t>(r)});
  }
  return out;
}

Int GetNumber(const TraceLog& log, const NumberRef& ref) {
  const TraceInstr& i = log.instrs[ref.instr];
  return ref.result < 0 ? i.time : i.results[ref.result].memory;
}

TraceLog WithNumber(const TraceLog& log, const NumberRef& ref, Int value) {
  TraceLog out = log;
  TraceInstr& i = out.instrs[ref.instr];
  (ref.result < 0 ? i.time : i.results[ref.result].memory) = value;
  return out;
}

std::vector<Int> SimplerNumbers(Int v) {
  if (v <= 0) return {};
  std::vector<Int> candidates = {0, 1};
  Int power = 1;
  while (power * 10 <= v) power *= 10;
  candidates.push_back(power);
  for (int digits = 1; digits <= 3; ++digits) candidates.push_back(RoundTo(v, digits));
  auto simpler = [](Int a, Int b) {
    int sa = SignificantDigits(a), sb = SignificantDigits(b);
    return sa != sb ? sa < sb : a < b;
  };
  std::vector<Int> out;
  for (Int c : candidates)
    if (simpler(c, v) && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  std::sort(out.begin(), out.end(), simpler);
  return out;
}

}  // namespace dtrcheck
