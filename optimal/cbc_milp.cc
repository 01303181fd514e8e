// The integer program of optimal/milp_solver.h and its solution by CBC,
// built as the module dtrcheck_cbc.so (optimal/cbc_module.h: why), which
// exports only its entry points.
#include "optimal/cbc_module.h"

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <mutex>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <coin/CbcEventHandler.hpp>
#include <coin/CbcModel.hpp>
#include <coin/CbcSolver.hpp>
#include <coin/ClpEventHandler.hpp>
#include <coin/CoinPackedMatrix.hpp>
#include <coin/OsiClpSolverInterface.hpp>

namespace dtrcheck {

namespace {

// Greatest common divisor of the non-zero values (1 if none): sizes and
// costs are divided by it, so the program's numbers stay small integers.
Int CommonFactor(const std::vector<Int>& values) {
  Int g = 0;
  for (Int v : values) {
    Int a = v < 0 ? -v : v, b = g;
    while (b != 0) {
      Int r = a % b;
      a = b;
      b = r;
    }
    g = a;
  }
  return g == 0 ? 1 : g;
}

// The program's columns and rows, built once. Nodes k < n, units u (with
// producer P(u) and size m(u)), stages t <= n; stage n computes no node of
// its own: it recomputes outputs, as simrd's pins at the end of the log
// rematerialize them:
//   R[t][k]        node k computed in stage t (k <= t; R[t][t] = 1 for t < n)
//   S[t][u]        unit u kept from stage t-1 into stage t (P(u) < t)
//   A[t][u]        unit u allocated when P(u) is computed in stage t:
//                  A >= R[t][P(u)] - S[t][u] (a resident unit is not allocated again)
//   F[t][u][k]     unit u freed right after node k in stage t, for u a
//                  dependency or a unit of k: F <= R[t][k], F <= 1 - S[t+1][u],
//                  F <= 1 - R[t][j] for every later user j of u in the stage
// subject to
//   R[t][k] <= R[t][P(u)] + S[t][u]        for each dependency u of k
//   S[t+1][u] <= R[t][P(u)] + S[t][u]
//   S[t][v] <= S[t][base(v)]               for a view v
//   S[n+1][o] = 1                          for each output o
//   memory after node k in stage t, before its frees: constants so far +
//     sum m(u) S[t][u] + sum_{j<=k} sum_{u of j} m(u) A[t][u]
//     - sum_{j<k} sum_u m(u) F[t][u][j]  <=  budget
//   at the end: every constant + sum m(u) S[n+1][u] <= budget
// minimising sum c(k) R[t][k]. Frees only lower memory, so the solver sets
// F wherever its bounds allow; no lower bound is needed.
class Program {
 public:
  // Sizes are in size_unit (Units): each rounded up, each capacity
  // B - F rounded down, so a sum of rounded sizes within the rounded
  // capacity is a sum of sizes within B - F; exact when the unit divides
  // every size.
  // Stops early, with stopped() set, when `limits` expire (the program of
  // a few hundred operators takes seconds to build).
  Program(const RematProblem& p, Int budget, Int size_unit, Int cost_unit, bool tie_break,
          const SolveLimits& limits)
      : p_(p), n_(static_cast<int>(p.nodes.size())), users_(p.Users()) {
    const int units = static_cast<int>(p.units.size());
    // Among schedules of equal cost, prefer fewer computations (a free
    // operator is otherwise recomputed at random): each cost is scaled by
    // one more than the number of R columns and each computation adds 1,
    // when the scaled costs stay exact in a double.
    Int total = 0;
    for (const RematNode& node : p.nodes) total += node.cost / cost_unit;
    const Int computations = Int(n_ + 1) * (n_ + 2) / 2;
    if (tie_break && (total + 1) * (computations + 1) < (Int(1) << 52))
      tie_break_ = computations + 1;
    computations_ = IntToDouble(computations);
    // Only what may matter gets a column: a unit is kept into stage t, and a
    // node recomputed in it, only if the unit (one of the node's) can still
    // be needed: by node t or a later one, as an output, or to recompute
    // such a unit (RematProblem::Needed). Other schedules only cost more or use more memory.
    const std::vector<std::vector<bool>> need = p.Needed();
    for (int t = 0; t <= n_; ++t)
      for (int k = 0; k <= std::min(t, n_ - 1); ++k) {
        bool useful = k == t;
        for (int u : p.nodes[k].units) useful = useful || need[t][u];
        if (useful) r_[{t, k}] = Column(Cost(k, cost_unit), t == k ? 1 : 0, 1);
      }
    for (int t = 1; t <= n_ + 1; ++t)
      for (int u = 0; u < units; ++u)
        if (Producer(u) < t && need[t][u]) s_[{t, u}] = Column(0, 0, 1);
    for (int t = 0; t <= n_; ++t)
      for (int u = 0; u < units; ++u)
        if (Producer(u) <= t && p.units[u].size > 0 && R(t, Producer(u)) >= 0)
          a_[{t, u}] = Column(0, 0, 1);
    for (int t = 0; t <= n_; ++t)
      for (int k = 0; k <= std::min(t, n_ - 1); ++k)
        if (R(t, k) >= 0)
          for (int u : Freeable(k)) free_[{t, u, k}] = Column(0, 0, 1);
    for (int o : p.outputs) col_lo_[S(n_ + 1, o)] = 1;

    for (int t = 0; t <= n_; ++t) {
      if (limits.Expired()) {
        stopped_ = true;
        return;
      }
      const int last = std::min(t, n_ - 1);  // the last node stage t may compute
      const Int constants = t < n_ ? p.nodes[t].resident_before : p.fixed_at_end;
      for (int k = 0; k <= last; ++k)
        if (R(t, k) >= 0)
          for (int u : p.nodes[k].deps)
            Row({{R(t, k), 1}, {R(t, Producer(u)), -1}, {S(t, u), -1}}, 0);
      for (int u = 0; u < units; ++u) {
        if (Producer(u) > t) continue;
        if (S(t + 1, u) >= 0) Row({{S(t + 1, u), 1}, {R(t, Producer(u)), -1}, {S(t, u), -1}}, 0);
        if (A(t, u) >= 0) Row({{R(t, Producer(u)), 1}, {S(t, u), -1}, {A(t, u), -1}}, 0);
      }
      for (int k = 0; k <= last; ++k)
        for (int u : R(t, k) >= 0 ? Freeable(k) : std::vector<int>{}) {
          int f = free_.at({t, u, k});
          Row({{f, 1}, {R(t, k), -1}}, 0);
          Row({{f, 1}, {S(t + 1, u), 1}}, 1);
          for (int j : users_[u])
            if (j > k && j <= last) Row({{f, 1}, {R(t, j), 1}}, 1);
        }
      for (int k = 0; k <= last; ++k) {
        if (R(t, k) < 0) continue;
        std::vector<std::pair<int, double>> terms;
        bool allocates = false;
        for (int u = 0; u < units; ++u) terms.push_back({S(t, u), Size(u, size_unit)});
        for (int j = 0; j <= k; ++j)
          for (int u : p.nodes[j].units) {
            terms.push_back({A(t, u), Size(u, size_unit)});
            allocates = allocates || (j == k && p.units[u].size > 0);
          }
        if (!allocates) continue;  // memory only falls after a node that allocates nothing
        for (int j = 0; j < k; ++j)
          if (R(t, j) >= 0)
            for (int u : Freeable(j)) terms.push_back({free_.at({t, u, j}), -Size(u, size_unit)});
        Row(terms, IntToDouble((budget - constants) / size_unit));
      }
    }
    for (int t = 1; t <= n_ + 1; ++t)
      for (int v = 0; v < units; ++v)
        if (p.units[v].base >= 0 && S(t, v) >= 0)
          Row({{S(t, v), 1}, {S(t, p.units[v].base), -1}}, 0);
    std::vector<std::pair<int, double>> end;  // the kept units beside every constant
    for (int u = 0; u < units; ++u) end.push_back({S(n_ + 1, u), Size(u, size_unit)});
    Row(end, IntToDouble((budget - p.fixed_at_end) / size_unit));
  }

  // A proven lower bound on the cost (the search's) as a row: the
  // relaxation then starts from it, and CBC stops as soon as it finds a
  // schedule that reaches it (AllowableGap) instead of searching on.
  void CostAtLeast(Int cost, Int cost_unit) {
    std::vector<std::pair<int, double>> terms;
    for (const auto& [tk, col] : r_)
      terms.push_back({col, -IntToDouble(p_.nodes[tk.b].cost / cost_unit)});
    Row(terms, -IntToDouble((cost + cost_unit - 1) / cost_unit));
  }

  bool stopped() const { return stopped_; }
  // The objective of a schedule costing `cost` (in cost units) less half a
  // computation: every schedule cheaper than `cost` has an objective below
  // it, every other one above (the tie-break's computations are below one
  // scaled cost unit).
  double CutoffBelow(Int cost_units) const {
    return IntToDouble(cost_units) * IntToDouble(tie_break_) - 0.5;
  }

  int R(int t, int k) const {
    auto it = r_.find({t, k});
    return it == r_.end() ? -1 : it->second;
  }
  int S(int t, int u) const {
    auto it = s_.find({t, u});
    return it == s_.end() ? -1 : it->second;
  }
  int A(int t, int u) const {
    auto it = a_.find({t, u});
    return it == a_.end() ? -1 : it->second;
  }
  size_t Columns() const { return obj_.size(); }
  // A bound on the objective as a bound on the cost, in cost units.
  double CostBound(double objective) const {
    if (tie_break_ == 1) return objective;
    return std::max(0.0, (objective - computations_) / IntToDouble(tie_break_));
  }
  size_t Rows() const { return row_ub_.size(); }
  // The objective gap at which the cost (not the tie-break) is proven
  // minimal. With the tie-break, objective = cost * T + computations, where
  // computations < T and every solution computes at least the n nodes once.
  // A solution of cost C-1 or less has objective at most C*T - 1; the best
  // one found, C*T + c with c >= n, so a bound above C*T - 1 (a gap below
  // c + 1, which n + 0.999 is) proves no cheaper schedule exists. Proving
  // the fewest computations among schedules of equal cost is not needed
  // and can take far longer.
  double AllowableGap() const { return tie_break_ == 1 ? 0.999 : n_ + 0.999; }

  void Load(OsiClpSolverInterface* solver) const {
    std::vector<double> row_lo(row_ub_.size(), -solver->getInfinity());
    std::vector<int> lengths(row_ub_.size());
    for (size_t r = 0; r < lengths.size(); ++r)
      lengths[r] = static_cast<int>(row_start_[r + 1] - row_start_[r]);
    // Row-ordered (colordered = false): major dimension = rows.
    CoinPackedMatrix matrix(false, static_cast<int>(obj_.size()), static_cast<int>(row_ub_.size()),
                            static_cast<CoinBigIndex>(row_col_.size()), row_coef_.data(),
                            row_col_.data(), row_start_.data(), lengths.data());
    solver->loadProblem(matrix, col_lo_.data(), col_up_.data(), obj_.data(), row_lo.data(),
                        row_ub_.data());
    for (size_t c = 0; c < obj_.size(); ++c) solver->setInteger(static_cast<int>(c));
  }

  // The schedule of a solution: each stage's computations in log order,
  // each unit freed after its last use in the stage unless kept, and what
  // is not kept freed at the end of the stage (a node is freed when none of
  // its units stays).
  std::vector<NodeStep> Steps(const double* x) const {
    auto on = [&](int col) { return col >= 0 && x[col] > 0.5; };
    const int units = static_cast<int>(p_.units.size());
    std::vector<NodeStep> steps;
    std::vector<bool> resident(units, false);
    auto free_unit = [&](int u) {
      if (!resident[u]) return;
      steps.push_back({u, false});
      resident[u] = false;
    };
    for (int t = 0; t <= n_; ++t) {
      for (int k = 0; k <= std::min(t, n_ - 1); ++k) {
        if (!on(R(t, k))) continue;
        steps.push_back({k, true});
        for (int u : p_.nodes[k].units) resident[u] = true;
        for (int u : Freeable(k)) {
          bool later = false;
          for (int j : users_[u])
            later = later || (j > k && j <= std::min(t, n_ - 1) && on(R(t, j)));
          if (!later && !on(S(t + 1, u))) free_unit(u);
        }
      }
      for (int u = 0; u < units; ++u)
        if (!on(S(t + 1, u))) free_unit(u);
    }
    return steps;
  }

 private:
  struct Key {
    int a, b, c = 0;
    bool operator<(const Key& o) const { return a != o.a ? a < o.a : b != o.b ? b < o.b : c < o.c; }
  };
  int Producer(int u) const { return p_.units[u].node; }
  std::vector<int> Freeable(int k) const {  // k's dependencies and units, of non-zero size
    std::set<int> out;
    for (int u : p_.nodes[k].deps)
      if (p_.units[u].size > 0) out.insert(u);
    for (int u : p_.nodes[k].units)
      if (p_.units[u].size > 0) out.insert(u);
    return std::vector<int>(out.begin(), out.end());
  }
  double Cost(int k, Int unit) const {
    return IntToDouble(p_.nodes[k].cost / unit * tie_break_ + (tie_break_ > 1 ? 1 : 0));
  }
  double Size(int u, Int unit) const { return IntToDouble((p_.units[u].size + unit - 1) / unit); }
  int Column(double cost, double lo, double up) {
    obj_.push_back(cost);
    col_lo_.push_back(lo);
    col_up_.push_back(up);
    return static_cast<int>(obj_.size() - 1);
  }
  // Rows are kept as one compressed array and become a CoinPackedMatrix
  // once, in Load: appending to a CoinPackedMatrix row by row copies it
  // again and again (minutes, and a gigabyte, at 100 operators).
  void Row(const std::vector<std::pair<int, double>>& terms, double upper) {
    std::map<int, double> merged;
    for (const auto& [col, coef] : terms)
      if (col >= 0) merged[col] += coef;
    for (const auto& [col, coef] : merged)
      if (coef != 0) {
        row_col_.push_back(col);
        row_coef_.push_back(coef);
      }
    row_start_.push_back(static_cast<CoinBigIndex>(row_col_.size()));
    row_ub_.push_back(upper);
  }

  const RematProblem& p_;
  int n_;
  bool stopped_ = false;
  Int tie_break_ = 1;  // see the constructor
  double computations_ = 0;
  std::vector<std::vector<int>> users_;
  std::map<Key, int> r_, s_, a_, free_;
  std::vector<double> obj_, col_lo_, col_up_, row_ub_;
  std::vector<CoinBigIndex> row_start_{0};  // row r: [row_start_[r], row_start_[r + 1])
  std::vector<int> row_col_;
  std::vector<double> row_coef_;
};

// The program's largest capacity, in size units, above which sizes are
// rounded (Units). CBC's tolerances are absolute: with sizes up to 10^18
// (the fuzzer's wide values) and the budget's capacity as a row bound, it
// returned a solution that broke a dependency row by a whole unit
// (corpus/optimal-violation/4ae0a241202cb29e). Rounding to 2^40 units
// costs a schedule at most a unit per resident storage, under 10^-12 of
// the budget each, and leaves every real trace's program exact (their
// budgets, divided by the sizes' common factor, are far below it).
constexpr Int kMaxCapacityUnits = Int(1) << 40;

// The units of the problem's sizes and costs: their common factors, and for
// sizes, a coarser unit when the budget holds more than kMaxCapacityUnits
// of them (sizes then rounded up, capacities down: Program).
struct Units {
  Int size = 1, cost = 1;
};
Units CommonUnits(const RematProblem& p, Int budget) {
  std::vector<Int> sizes, costs;
  for (const RematNode& n : p.nodes) costs.push_back(n.cost);
  for (const RematUnit& u : p.units) sizes.push_back(u.size);
  Units units{CommonFactor(sizes), CommonFactor(costs)};
  if (budget / units.size > kMaxCapacityUnits)
    units.size = (budget + kMaxCapacityUnits - 1) / kMaxCapacityUnits;
  return units;
}

// Constants alone over the budget (a negative capacity would be rounded
// towards zero, not down).
bool ConstantsFit(const RematProblem& p, Int budget) {
  bool fits = budget >= p.fixed_at_end;
  for (const RematNode& n : p.nodes) fits = fits && budget >= n.resident_before;
  return fits;
}

// Stops Clp's simplex at the limits (polled each iteration).
class ClpLimits : public ClpEventHandler {
 public:
  explicit ClpLimits(const SolveLimits& limits) : limits_(limits) {}
  int event(Event e) override {
    if (e == endOfIteration && limits_.Expired()) return 0;  // stop: status 5, by an event
    return -1;
  }
  ClpEventHandler* clone() const override { return new ClpLimits(*this); }

 private:
  SolveLimits limits_;
};

// Why a solve stopped early.
std::string StoppedBy(const SolveLimits& limits) {
  return limits.Cancelled() ? "interrupted" : "time limit";
}

// The relaxation's optimum in cost units. kInfeasible only when Clp proved
// it (not when it stopped).
LpRelaxation SolveRelaxation(const RematProblem& p, Int budget, const Units& u,
                             const SolveLimits& limits) {
  LpRelaxation out;
  if (EstimatedProgramNonZeros(p) > kMaxProgramNonZeros) {
    out.why = "program too large";
    return out;
  }
  Program relaxed(p, budget, u.size, u.cost, /*tie_break=*/false, limits);
  if (relaxed.stopped()) {
    out.why = StoppedBy(limits);
    return out;
  }
  OsiClpSolverInterface lp;
  relaxed.Load(&lp);
  lp.messageHandler()->setLogLevel(0);
  ClpLimits events(limits);
  lp.getModelPtr()->passInEventHandler(&events);
  for (size_t c = 0; c < relaxed.Columns(); ++c) lp.setContinuous(static_cast<int>(c));
  // Clp's initialSolve installs a SIGINT handler of its own (which stops
  // the simplex as at an iteration limit) and leaves it installed: the
  // caller's is restored, and a Ctrl-C Clp caught is raised again for it.
  struct sigaction before = {};
  sigaction(SIGINT, nullptr, &before);
  lp.initialSolve();
  sigaction(SIGINT, &before, nullptr);
  if (lp.isIterationLimitReached() && !limits.Expired()) raise(SIGINT);
  if (limits.Expired() && !lp.isProvenOptimal()) {
    out.why = StoppedBy(limits);
    return out;
  }
  if (lp.isProvenPrimalInfeasible() && !lp.isAbandoned()) {
    out.outcome = LpRelaxation::kInfeasible;
    return out;
  }
  if (!lp.isProvenOptimal()) {
    out.why = "LP not solved";
    return out;
  }
  out.outcome = LpRelaxation::kBound;
  out.bound = lp.getObjValue();
  return out;
}

LpRelaxation CbcLpBound(const RematProblem& p, Int budget, const SolveLimits& limits) {
  LpRelaxation out;
  if (!ConstantsFit(p, budget)) {
    out.outcome = LpRelaxation::kConstantsExceed;
    return out;
  }
  if (p.nodes.empty()) {
    out.outcome = LpRelaxation::kBound;
    return out;
  }
  const Units u = CommonUnits(p, budget);
  out = SolveRelaxation(p, budget, u, limits);
  out.bound *= IntToDouble(u.cost);
  return out;
}

// Stops CBC's branch and bound at the limits (polled at each node and
// solution).
class CbcLimits : public CbcEventHandler {
 public:
  explicit CbcLimits(const SolveLimits& limits) : limits_(limits) {}
  CbcAction event(CbcEvent) override { return limits_.Expired() ? stop : noAction; }
  CbcEventHandler* clone() const override { return new CbcLimits(*this); }

 private:
  SolveLimits limits_;
};

OptimalResult CbcSolveMilp(const RematProblem& p, Int budget, const SolveLimits& limits,
                           const MilpExtras& extras) {
  std::optional<double> lp_bound = extras.lp_bound;
  auto started = std::chrono::steady_clock::now();
  OptimalResult result;
  result.engine = "CBC";
  const Units units = CommonUnits(p, budget);
  const Int size_unit = units.size, cost_unit = units.cost;
  auto finish = [&]() {
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
  };
  if (!ConstantsFit(p, budget)) {
    result.status = OptimalStatus::kInfeasible;
    result.proof = kConstantsExceedProof;
    return finish();
  }
  if (p.nodes.empty()) {
    result.status = OptimalStatus::kOptimal;
    result.compute = 0;
    result.proof = kNothingToComputeProof;
    return finish();
  }
  const double unit = IntToDouble(cost_unit);
  if (!lp_bound) {  // MilpLpBound's computation
    const LpRelaxation lp = SolveRelaxation(p, budget, units, limits);
    if (lp.outcome == LpRelaxation::kInfeasible) {
      result.status = OptimalStatus::kInfeasible;
      result.proof = "LP relaxation infeasible";
      return finish();
    }
    if (lp.outcome != LpRelaxation::kBound) {
      result.proof = lp.why;
      result.interrupted = limits.Cancelled();
      return finish();
    }
    lp_bound = lp.bound * unit;
  }
  if (EstimatedProgramNonZeros(p) > kMaxProgramNonZeros) {
    result.proof = "program too large";
    result.lp_bound = *lp_bound;
    result.best_bound = *lp_bound;
    return finish();
  }
  Program program(p, budget, size_unit, cost_unit, /*tie_break=*/true, limits);
  if (program.stopped()) {
    result.proof = StoppedBy(limits);
    result.interrupted = limits.Cancelled();
    result.lp_bound = result.best_bound = *lp_bound;
    return finish();
  }
  if (extras.known_bound) program.CostAtLeast(*extras.known_bound, cost_unit);
  result.variables = program.Columns();
  result.constraints = program.Rows();
  result.lp_bound = *lp_bound;

  OsiClpSolverInterface solver;
  program.Load(&solver);
  solver.messageHandler()->setLogLevel(0);
  // Clp's simplex inside CBC (the root's relaxation takes seconds on a
  // hundred operators) polls the limits too.
  // CBC works past its limits between the points where it polls them
  // (measured: 3 s past a 7 s limit on the 114-operator unet trace, on 2
  // loaded cores): it is given 70% of what is left, the rest a margin.
  SolveLimits cbc_limits = limits;
  cbc_limits.deadline =
      std::min(limits.deadline, std::chrono::steady_clock::now() +
                                    std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                        std::chrono::duration<double>(0.7 * limits.SecondsLeft())));
  ClpLimits clp_events(cbc_limits);
  solver.getModelPtr()->passInEventHandler(&clp_events);
  CbcModel model(solver);
  CbcLimits events(cbc_limits);
  model.passInEventHandler(&events);
  // CBC's command-line driver keeps its place in the arguments in globals:
  // two threads solving at once (fuzz-optimal -j2) read each other's
  // arguments, lose "-log 0" and the time limit, and even read commands
  // from standard input. One CBC solve at a time in a process.
  static std::mutex cbc_driver;
  std::lock_guard<std::mutex> one_at_a_time(cbc_driver);
  CbcSolverUsefulData data;
  CbcMain0(model, data);
  // Costs are integers in cost units: a gap below one unit proves optimality
  // (AllowableGap: the cost, not the tie-break among equal costs). The time
  // limit is wall-clock time (timeMode elapsed), as the command's is.
  const std::string seconds = std::to_string(std::max(0.01, cbc_limits.SecondsLeft()));
  const std::string gap = std::to_string(program.AllowableGap());
  // Two-MIR cuts off: Cgl's generator prints "2mir_test: why does constraint
  // not exist ?" with printf, past every log level, into the standard output
  // that `dtrcheck optimal --json` writes its one JSON object to.
  std::vector<std::string> args = {"dtrcheck-optimal",
                                   "-log",
                                   "0",
                                   "-slog",
                                   "0",
                                   "-timeMode",
                                   "elapsed",
                                   "-seconds",
                                   seconds,
                                   "-allowableGap",
                                   gap,
                                   "-ratioGap",
                                   "0",
                                   "-twoMirCuts",
                                   "off"};
  if (extras.cutoff) {
    args.push_back("-cutoff");
    args.push_back(std::to_string(program.CutoffBelow(*extras.cutoff / cost_unit)));
  }
  args.push_back("-solve");
  args.push_back("-quit");
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  // CbcMain1 installs a SIGINT handler of its own (which stops the branch
  // and bound as a user event) and does not restore the caller's: it is
  // restored here, and a Ctrl-C CBC caught is raised again for it.
  struct sigaction before = {};
  sigaction(SIGINT, nullptr, &before);
  CbcMain1(
      static_cast<int>(argv.size()), argv.data(), model, [](CbcModel*, int) { return 0; }, data);
  sigaction(SIGINT, &before, nullptr);
  // CBC's secondary status: 0 search completed (with a solution), 1 linear
  // relaxation infeasible or nothing better than the cutoff (completed),
  // 2 stopped on the gap, 3 nodes, 4 time, 5 an event (our limits or its
  // SIGINT handler), 6 solutions, 7 unbounded, 8 iterations.
  // Nothing CBC says after the deadline counts as complete: a relaxation
  // stopped by the limits may have read as an infeasible node.
  const bool completed = !cbc_limits.Expired() && model.status() == 0 &&
                         (model.secondaryStatus() == 0 || model.secondaryStatus() == 1) &&
                         !model.isSecondsLimitReached() && !model.isNodeLimitReached();
  const bool cbc_caught_sigint =
      model.secondaryStatus() == 5 && !cbc_limits.Expired() && !model.isSecondsLimitReached();
  if (cbc_caught_sigint) raise(SIGINT);
  // CBC's bound counts only from a completed search. Stopped by the limits,
  // it may come from a relaxation whose simplex our events cut short, which
  // bounds nothing: the fuzzer (optimal/optimum_fuzz.h) found it 54,000
  // times the cost of a schedule the search proved optimal (seed 1 case 1,
  // 46 operators at 14,134,385 bytes, --solve-time 2), and such a bound
  // would also "prove" any schedule below it optimal (below). The LP
  // relaxation's bound, solved to optimality beforehand, stands.
  double cbc_bound = completed ? program.CostBound(model.getBestPossibleObjValue()) * unit : 0;
  // Under a cutoff CBC prunes every node at or above it, so its bound says
  // only that nothing below the cutoff is left: never more than the cutoff
  // (unet seed 91739 at 0.55 printed a "proven bound" 385x the schedule found).
  if (extras.cutoff) cbc_bound = std::min(cbc_bound, IntToDouble(*extras.cutoff));
  result.best_bound = std::max(result.lp_bound, cbc_bound);
  const double* x = model.bestSolution();
  if (completed && model.isProvenInfeasible() && !x) {
    result.status = OptimalStatus::kInfeasible;
    result.proof = extras.cutoff ? "CBC search completed: nothing cheaper than the cutoff"
                                 : "CBC search completed";
    return finish();
  }
  if (!x) {
    result.status = OptimalStatus::kNotProven;
    result.proof = limits.Cancelled() || cbc_caught_sigint ? "interrupted"
                   : completed                             ? "CBC gave up"
                                                           : "time limit";
    result.interrupted = limits.Cancelled() || cbc_caught_sigint;
    return finish();
  }
  result.steps = program.Steps(x);
  Int total = 0;
  for (const NodeStep& s : result.steps)
    if (s.compute) total += p.nodes[s.index].cost;
  result.compute = total;
  result.status =
      completed && model.isProvenOptimal() ? OptimalStatus::kOptimal : OptimalStatus::kFeasible;
  result.proof = result.status == OptimalStatus::kOptimal  ? "CBC search completed"
                 : limits.Cancelled() || cbc_caught_sigint ? "interrupted"
                                                           : "time limit";
  result.interrupted = limits.Cancelled() || cbc_caught_sigint;
  // A schedule whose cost reaches a bound is minimal, proven or not by CBC
  // (which may still be closing the gap on the tie-break): costs are whole
  // cost units, so a bound above (k - 1) units proves k. The 1e-6 absorbs
  // the LP's floating-point tolerance, as CBC's own gap test does.
  const double bound_units = std::max(result.lp_bound, result.best_bound) / unit;
  if (result.status == OptimalStatus::kFeasible &&
      IntToDouble(total / cost_unit) <= std::ceil(bound_units - 1e-6)) {
    result.status = OptimalStatus::kOptimal;
    result.proof = "the schedule reaches the proven bound";
  }
  if (result.status == OptimalStatus::kOptimal) result.best_bound = IntToDouble(total);
  return finish();
}

}  // namespace
}  // namespace dtrcheck

// The module's one exported symbol (the rest is hidden: CMake builds it
// with -fvisibility=hidden).
extern "C" __attribute__((visibility("default"))) const dtrcheck::CbcModuleEntryPoints*
dtrcheck_cbc_module_entry_points() {
  static const dtrcheck::CbcModuleEntryPoints entry_points{
      dtrcheck::kCbcModuleAbi, &dtrcheck::CbcSolveMilp, &dtrcheck::CbcLpBound};
  return &entry_points;
}
