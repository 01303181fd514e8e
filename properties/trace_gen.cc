#include "properties/trace_gen.h"

#include <algorithm>
#include <memory>
#include <optional>

#include "io/trace_writer.h"
#include "reduce/trace_edits.h"

namespace dtrcheck {

namespace {

// One candidate edit, applied only when RapidCheck asks for it.
struct Edit {
  enum Kind { kRemoveChunk, kRemoveResult, kRemoveArgument, kContract, kMerge, kNumber } kind;
  size_t a = 0, b = 0;  // chunk [a, b) of removable units; or instruction, index
  Int value = 0;        // kNumber
  NumberRef number;
};

std::optional<TraceLog> Apply(const TraceLog& log, const std::vector<size_t>& units,
                              const Edit& e) {
  switch (e.kind) {
    case Edit::kRemoveChunk: {
      std::vector<bool> remove(log.instrs.size(), false);
      for (size_t u = e.a; u < e.b; ++u) remove[units[u]] = true;
      return RemoveWithDependents(log, remove);
    }
    case Edit::kRemoveResult:
      return RemoveResult(log, e.a, e.b);
    case Edit::kRemoveArgument:
      return RemoveArgument(log, e.a, e.b);
    case Edit::kContract:
      return Contract(log, e.a);
    case Edit::kMerge:
      return MergeIntoPrevious(log, e.a);
    case Edit::kNumber:
      return WithNumber(log, e.number, e.value);
  }
  return std::nullopt;
}

std::vector<Edit> Edits(const TraceLog& log, const std::vector<size_t>& units) {
  std::vector<Edit> edits;
  for (size_t chunk = std::max<size_t>(1, units.size() / 2);; chunk /= 2) {
    for (size_t end = units.size(); end > 0;) {
      size_t begin = end > chunk ? end - chunk : 0;
      edits.push_back({Edit::kRemoveChunk, begin, end, 0, {}});
      end = begin;
    }
    if (chunk == 1) break;
  }
  for (size_t k = log.instrs.size(); k-- > 0;) {
    const TraceInstr& i = log.instrs[k];
    for (size_t r = i.results.size(); i.op == TraceOp::kCall && r-- > 0;)
      edits.push_back({Edit::kRemoveResult, k, r, 0, {}});
    for (size_t a = i.args.size(); a-- > 0;) edits.push_back({Edit::kRemoveArgument, k, a, 0, {}});
    if (i.op == TraceOp::kCall) edits.push_back({Edit::kContract, k, 0, 0, {}});
    if (i.op == TraceOp::kCall || i.op == TraceOp::kConstant)
      edits.push_back({Edit::kMerge, k, 0, 0, {}});
  }
  for (const NumberRef& ref : Numbers(log))
    for (Int v : SimplerNumbers(GetNumber(log, ref)))
      edits.push_back({Edit::kNumber, 0, 0, v, ref});
  return edits;
}

}  // namespace

rc::Gen<GeneratorParams> GenParams(const TraceGenLimits& limits) {
  return rc::gen::apply(
      [](std::string shape, uint32_t seed, int layers, int width, int64_t base) {
        if (shape == "tree") layers = std::min(layers, 4);  // width^layers leaves
        if (shape == "dag") layers *= 8;                    // ops, not layers
        return GeneratorParams{shape, seed, layers, width, base};
      },
      rc::gen::elementOf(limits.shapes), rc::gen::arbitrary<uint32_t>(),
      rc::gen::inRange(1, limits.max_layers + 1), rc::gen::inRange(1, limits.max_width + 1),
      rc::gen::elementOf(limits.base_bytes));
}

namespace {

// A trace whose shrinks are ShrinkTrace's edits, tried from `cursor` on and
// then wrapping around. A kept shrink resumes at the edit that produced it:
// RapidCheck restarts from a kept shrink's first shrink, and starting each
// time from the biggest chunks again would cost a pass over all chunk sizes
// per kept edit (quadratic); resuming makes it behave like ddmin, and the
// wrap-around still tries every edit before the shrinking ends.
rc::Shrinkable<TraceLog> ResumingShrinkable(std::shared_ptr<const TraceLog> log, size_t cursor) {
  return rc::shrinkable::lambda(
      [log] { return *log; },
      [log, cursor] {
        auto units = std::make_shared<const std::vector<size_t>>(RemovableInstructions(*log));
        auto edits = std::make_shared<const std::vector<Edit>>(Edits(*log, *units));
        const size_t n = edits->size();
        auto tried = rc::seq::map(rc::seq::range<size_t>(0, n), [=](size_t k) {
          const size_t i = (cursor + k) % n;
          std::optional<rc::Shrinkable<TraceLog>> out;
          std::optional<TraceLog> candidate = Apply(*log, *units, (*edits)[i]);
          if (candidate && CheckBindings(*candidate).empty())
            out = ResumingShrinkable(std::make_shared<const TraceLog>(std::move(*candidate)), i);
          return out;
        });
        auto kept = rc::seq::filter(std::move(tried), [](const auto& s) { return s.has_value(); });
        return rc::seq::map(std::move(kept), [](const auto& s) { return *s; });
      });
}

}  // namespace

rc::Gen<TraceLog> GenTrace(const TraceGenLimits& limits) {
  rc::Gen<GeneratorParams> params = GenParams(limits);
  return rc::Gen<TraceLog>([params](const rc::Random& random, int size) {
    return ResumingShrinkable(
        std::make_shared<const TraceLog>(GenerateTrace(params(random, size).value())), 0);
  });
}

rc::Seq<TraceLog> ShrinkTrace(const TraceLog& log) {
  auto shared = std::make_shared<const TraceLog>(log);
  auto units = std::make_shared<const std::vector<size_t>>(RemovableInstructions(log));
  auto candidates =
      rc::seq::map(rc::seq::fromContainer(Edits(log, *units)), [shared, units](const Edit& e) {
        std::optional<TraceLog> out = Apply(*shared, *units, e);
        if (out && !CheckBindings(*out).empty()) out.reset();
        return out;
      });
  auto valid = rc::seq::filter(std::move(candidates),
                               [](const std::optional<TraceLog>& t) { return t.has_value(); });
  return rc::seq::map(std::move(valid), [](const std::optional<TraceLog>& t) { return *t; });
}

void showValue(const TraceLog& log, std::ostream& os) {
  os << "trace of " << log.instrs.size() << " instructions, " << log.NumOperators()
     << " operators:\n"
     << TraceLogText(log);
}

}  // namespace dtrcheck
