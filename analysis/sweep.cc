#include "analysis/sweep.h"

#include <algorithm>
#include <charconv>
#include <mutex>
#include <stdexcept>
#include <string>

#include "analysis/parallel_for.h"
#include "sim/telemetry.h"

namespace dtrcheck {

namespace {

// A decimal number as mantissa * 10^exponent, both exact.
struct Decimal {
  Int mantissa = 0;
  int exponent = 0;
};

// Accepts digits with an optional fraction and exponent: "0.103", "5",
// ".5", "1e-3", "2.5E+1". No sign: grids are of non-negative quantities.
Decimal ParseDecimal(std::string_view text, const char* what) {
  auto fail = [&]() -> Decimal {
    throw std::invalid_argument(std::string(what) +
                                ": expected a non-negative decimal number, got \"" +
                                std::string(text) + "\"");
  };
  Decimal d;
  size_t i = 0, digits = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
    if (d.mantissa > (Int(1) << 100)) fail();
    d.mantissa = d.mantissa * 10 + (text[i] - '0');
  }
  if (i < text.size() && text[i] == '.') {
    for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
      if (d.mantissa > (Int(1) << 100)) fail();
      d.mantissa = d.mantissa * 10 + (text[i] - '0');
      d.exponent -= 1;
    }
  }
  if (digits == 0) fail();
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
    int e = 0;
    size_t exp_digits = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++exp_digits) {
      e = e * 10 + (text[i] - '0');
      if (e > 400) fail();
    }
    if (exp_digits == 0) fail();
    d.exponent += negative ? -e : e;
  }
  if (i != text.size()) fail();
  return d;
}

Int Pow10(int n) {
  Int p = 1;
  while (n-- > 0) p *= 10;
  return p;
}

// m * 10^(e - scale) as an exact integer, for e >= scale.
Int Rescale(const Decimal& d, int scale, std::string_view text, const char* what) {
  int shift = d.exponent - scale;
  if (shift > 36 || (d.mantissa != 0 && d.mantissa > (Int(1) << 120) / Pow10(shift)))
    throw std::invalid_argument(std::string(what) + ": \"" + std::string(text) +
                                "\" is out of range for a grid with this step");
  return d.mantissa * Pow10(shift);
}

// The double nearest to k * 10^scale (from_chars rounds correctly).
double NearestDouble(Int k, int scale) {
  std::string s = IntToString(k) + "e" + std::to_string(scale);
  double v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size())
    throw std::invalid_argument("grid value " + s + " is not representable as a double");
  return v;
}

size_t GridCount(Int from, Int to, Int step) {
  if (step <= 0) throw std::invalid_argument("grid step must be positive");
  if (to < from) throw std::invalid_argument("grid end is below its start");
  Int n = (to - from) / step + 1;
  if (n > Int(kMaxGridPoints))
    throw std::invalid_argument("grid has " + IntToString(n) + " points; the limit is " +
                                std::to_string(kMaxGridPoints));
  return static_cast<size_t>(n);
}

// Thrown by CancelObserver out of a run to abandon it.
struct SweepCancelled {};

class CancelObserver : public RuntimeObserver {
 public:
  explicit CancelObserver(const std::atomic<bool>* flag) : flag_(flag) {}
  void OnCommand(size_t) override {
    if (flag_->load(std::memory_order_relaxed)) throw SweepCancelled{};
  }

 private:
  const std::atomic<bool>* flag_;
};

}  // namespace

std::vector<double> RatioGrid(std::string_view from, std::string_view to, std::string_view step) {
  Decimal f = ParseDecimal(from, "grid start"), t = ParseDecimal(to, "grid end"),
          s = ParseDecimal(step, "grid step");
  int scale = std::min({f.exponent, t.exponent, s.exponent});
  Int fi = Rescale(f, scale, from, "grid start"), ti = Rescale(t, scale, to, "grid end"),
      si = Rescale(s, scale, step, "grid step");
  size_t n = GridCount(fi, ti, si);
  std::vector<double> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) out.push_back(NearestDouble(fi + Int(i) * si, scale));
  return out;
}

std::vector<Int> ByteGrid(Int from, Int to, Int step) {
  if (from < 0) throw std::invalid_argument("grid start must not be negative");
  size_t n = GridCount(from, to, step);
  std::vector<Int> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) out.push_back(from + Int(i) * step);
  return out;
}

Int BudgetSpec::Resolve(const Baseline& baseline) const {
  return ratio ? BudgetFromRatio(baseline.peak, *ratio) : bytes;
}

std::vector<BudgetSpec> RatioBudgets(const std::vector<double>& ratios) {
  std::vector<BudgetSpec> out;
  for (double r : ratios) out.push_back(BudgetSpec::Ratio(r));
  return out;
}

std::vector<BudgetSpec> ByteBudgets(const std::vector<Int>& bytes) {
  std::vector<BudgetSpec> out;
  for (Int b : bytes) out.push_back(BudgetSpec::Bytes(b));
  return out;
}

RunConfig WithBudget(const RunConfig& base, const BudgetSpec& spec) {
  RunConfig c = base;
  c.ratio = spec.ratio;
  c.budget.reset();
  if (!spec.ratio) c.budget = spec.bytes;
  return c;
}

SweepResult RunSweep(const Graph& graph, const RunConfig& base, const Baseline& baseline,
                     const std::vector<BudgetSpec>& budgets, const SweepOptions& options) {
  const size_t total = budgets.size();
  std::vector<std::optional<SweepPoint>> slots(total);
  std::mutex mu;  // guards done and on_point
  size_t done = 0;
  // The points to run, by budget, dealt out to one group per worker in
  // turn: each group is one SimulateBudgets call, which runs the schedule
  // its runs share once, and the groups get budgets from the whole range.
  std::vector<size_t> todo;
  for (size_t i = 0; i < total; ++i)
    if (!(i < options.skip.size() && options.skip[i])) todo.push_back(i);
  std::stable_sort(todo.begin(), todo.end(), [&](size_t a, size_t b) {
    return budgets[a].Resolve(baseline) < budgets[b].Resolve(baseline);
  });
  const size_t groups = std::min(todo.size(), static_cast<size_t>(std::max(options.jobs, 1)));
  ParallelFor(
      groups, options.jobs,
      [&](size_t g) {
        std::vector<size_t> indices;
        std::vector<RunConfig> configs;
        for (size_t k = g; k < todo.size(); k += groups) {
          indices.push_back(todo[k]);
          configs.push_back(WithBudget(base, budgets[todo[k]]));
        }
        std::optional<CancelObserver> cancel_observer;
        if (options.cancel) cancel_observer.emplace(options.cancel);
        try {
          SimulateBudgets(
              graph, configs, baseline,
              [&](size_t j, RunRecord&& record) {
                const size_t i = indices[j];
                std::lock_guard<std::mutex> lock(mu);
                slots[i] = SweepPoint{i, std::move(record)};
                ++done;
                if (options.on_point) options.on_point(*slots[i], done, total);
              },
              cancel_observer ? &*cancel_observer : nullptr);
        } catch (const SweepCancelled&) {
          // The group's unfinished slots stay empty; no further group starts.
        }
      },
      [&] { return options.cancel && options.cancel->load(); });

  SweepResult result;
  for (size_t i = 0; i < total; ++i) {
    if (slots[i]) {
      result.points.push_back(std::move(*slots[i]));
    } else if (!(i < options.skip.size() && options.skip[i])) {
      result.cancelled = true;  // only cancellation leaves a point unrun
    }
  }
  return result;
}

}  // namespace dtrcheck
