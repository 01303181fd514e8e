#include "optimal/milp_solver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <numeric>
#include <string>

#include <coin/CbcModel.hpp>
#include <coin/CbcSolver.hpp>
#include <coin/CoinPackedMatrix.hpp>
#include <coin/CoinPackedVector.hpp>
#include <coin/OsiClpSolverInterface.hpp>

namespace dtrcheck {

const char* OptimalStatusName(OptimalStatus s) {
  switch (s) {
    case OptimalStatus::kOptimal:
      return "optimal";
    case OptimalStatus::kFeasible:
      return "feasible (not proven optimal)";
    case OptimalStatus::kInfeasible:
      return "infeasible";
    case OptimalStatus::kNotProven:
      return "not proven";
  }
  return "?";
}

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

// The program's columns and rows, built once.
class Program {
 public:
  // Sizes are divided by size_unit, which divides them all: a sum of sizes
  // is at most B - F exactly when the sum of units is at most floor((B - F) / unit).
  Program(const RematProblem& p, Int budget, Int size_unit, Int cost_unit)
      : p_(p), n_(static_cast<int>(p.nodes.size())), users_(p.Users()) {
    const int units = static_cast<int>(p.units.size());
    // Stages 0..n-1 run node t; stage n, after the last node, only
    // recomputes (outputs freed to make room for the last nodes: simrd
    // rematerializes them when it pins the outputs at the end).
    for (int t = 0; t <= n_; ++t)
      for (int i = 0; i <= Last(t); ++i) r_[{t, i}] = Column(Cost(i, cost_unit), 0, 1);
    for (int t = 1; t <= n_ + 1; ++t)
      for (int u = 0; u < units; ++u)
        if (p.units[u].node < t) s_[{t, u}] = Column(0, 0, 1);
    for (int t = 0; t <= n_; ++t)
      for (int k = 0; k <= Last(t); ++k)
        for (int u : Freeable(k)) free_[{t, u, k}] = Column(0, 0, 1);
    for (int t = 0; t < n_; ++t) col_lo_[r_[{t, t}]] = 1;
    for (int o : p.outputs) col_lo_[s_[{n_ + 1, o}]] = 1;

    for (int t = 0; t <= n_; ++t) {
      const Int fixed = t < n_ ? p.nodes[t].resident_before : p.fixed_at_end;
      for (int k = 0; k <= Last(t); ++k)
        for (int d : p.nodes[k].deps)
          Row({{R(t, k), 1}, {R(t, p.units[d].node), -1}, {S(t, d), -1}}, 0);
      for (int u = 0; u < units; ++u) {
        const int node = p.units[u].node;
        if (node > t) continue;
        Row({{S(t + 1, u), 1}, {R(t, node), -1}, {S(t, u), -1}}, 0);
        // Never recomputed while a storage it creates is resident: freeing
        // that storage first costs nothing and needs less memory (simrd
        // would allocate it twice and free the copy).
        if (node < t) Row({{R(t, node), 1}, {S(t, u), 1}}, 1);
      }
      for (int k = 0; k <= Last(t); ++k) {
        for (int u : Freeable(k)) {
          int f = free_.at({t, u, k});
          Row({{f, 1}, {R(t, k), -1}}, 0);
          Row({{f, 1}, {S(t + 1, u), 1}}, 1);
          for (int j : users_[u])
            if (j > k && j <= Last(t)) Row({{f, 1}, {R(t, j), 1}}, 1);
        }
      }
      // Memory right after each computation that allocates, before its frees.
      for (int k = 0; k <= Last(t); ++k) {
        if (p.nodes[k].size == 0) continue;
        std::vector<std::pair<int, double>> terms;
        for (int u = 0; u < units; ++u)
          if (p.units[u].node < t) terms.push_back({S(t, u), UnitSize(u, size_unit)});
        for (int j = 0; j <= k; ++j) terms.push_back({R(t, j), NodeSize(j, size_unit)});
        for (int j = 0; j < k; ++j)
          for (int u : Freeable(j)) terms.push_back({free_.at({t, u, j}), -UnitSize(u, size_unit)});
        Row(terms, IntToDouble((budget - fixed) / size_unit));
      }
    }
    std::vector<std::pair<int, double>> end;  // the outputs beside every constant
    for (int u = 0; u < units; ++u) end.push_back({S(n_ + 1, u), UnitSize(u, size_unit)});
    Row(end, IntToDouble((budget - p.fixed_at_end) / size_unit));
    for (int t = 1; t <= n_ + 1; ++t)
      for (int u = 0; u < units; ++u)
        if (p.units[u].node < t)
          for (int b : p.units[u].bases) Row({{S(t, u), 1}, {S(t, b), -1}}, 0);
  }

  int Last(int t) const { return t < n_ ? t : n_ - 1; }  // the last node stage t may compute
  int R(int t, int i) const { return r_.at({t, i}); }
  int S(int t, int u) const { return p_.units[u].node < t ? s_.at({t, u}) : -1; }
  size_t Columns() const { return obj_.size(); }
  size_t Rows() const { return row_ub_.size(); }

  void Load(OsiClpSolverInterface* solver) const {
    std::vector<double> row_lo(row_ub_.size(), -solver->getInfinity());
    CoinPackedMatrix matrix = matrix_;
    matrix.setDimensions(static_cast<int>(row_ub_.size()), static_cast<int>(obj_.size()));
    solver->loadProblem(matrix, col_lo_.data(), col_up_.data(), obj_.data(), row_lo.data(),
                        row_ub_.data());
    for (size_t c = 0; c < obj_.size(); ++c) solver->setInteger(static_cast<int>(c));
  }

  // The schedule of a solution: each stage's computations in log order,
  // each storage freed after its last use in the stage unless kept, and
  // what is not kept freed at the end of the stage.
  std::vector<NodeStep> Steps(const double* x) const {
    auto on = [&](int col) { return col >= 0 && x[col] > 0.5; };
    std::vector<NodeStep> steps;
    std::vector<bool> resident(p_.units.size(), false);
    auto free = [&](int u) {
      resident[u] = false;
      if (p_.units[u].tensor >= 0) steps.push_back({u, false});  // views unit: nothing to free
    };
    for (int t = 0; t <= n_; ++t) {
      for (int k = 0; k <= Last(t); ++k) {
        if (!on(R(t, k))) continue;
        steps.push_back({k, true});
        for (int u : p_.nodes[k].units) resident[u] = true;
        for (int u : Freeable(k)) {
          bool later = false;
          for (int j : users_[u]) later = later || (j > k && j <= Last(t) && on(R(t, j)));
          if (resident[u] && !later && !on(S(t + 1, u))) free(u);
        }
      }
      for (size_t u = 0; u < p_.units.size(); ++u)
        if (resident[u] && !on(S(t + 1, static_cast<int>(u)))) free(static_cast<int>(u));
    }
    return steps;
  }

 private:
  struct Key {
    int a, b, c = 0;
    bool operator<(const Key& o) const { return a != o.a ? a < o.a : b != o.b ? b < o.b : c < o.c; }
  };
  std::vector<int> Freeable(int k) const {  // storages k needs or creates, of non-zero size
    std::vector<int> out;
    for (int d : p_.nodes[k].deps)
      if (p_.units[d].size > 0) out.push_back(d);
    for (int u : p_.nodes[k].units)
      if (p_.units[u].size > 0) out.push_back(u);
    return out;
  }
  double Cost(int i, Int unit) const { return IntToDouble(p_.nodes[i].cost / unit); }
  double NodeSize(int i, Int unit) const { return IntToDouble(p_.nodes[i].size / unit); }
  double UnitSize(int u, Int unit) const { return IntToDouble(p_.units[u].size / unit); }
  int Column(double cost, double lo, double up) {
    obj_.push_back(cost);
    col_lo_.push_back(lo);
    col_up_.push_back(up);
    return static_cast<int>(obj_.size() - 1);
  }
  void Row(const std::vector<std::pair<int, double>>& terms, double upper) {
    CoinPackedVector row;
    std::map<int, double> merged;
    for (const auto& [col, coef] : terms)
      if (col >= 0) merged[col] += coef;
    for (const auto& [col, coef] : merged)
      if (coef != 0) row.insert(col, coef);
    matrix_.appendRow(row);
    row_ub_.push_back(upper);
  }

  const RematProblem& p_;
  int n_;
  std::vector<std::vector<int>> users_;
  std::map<Key, int> r_, s_, free_;
  std::vector<double> obj_, col_lo_, col_up_, row_ub_;
  CoinPackedMatrix matrix_{false, 0, 0};
};

}  // namespace

OptimalResult SolveOptimal(const RematProblem& p, Int budget, const OptimalOptions& options) {
  auto started = std::chrono::steady_clock::now();
  OptimalResult result;
  std::vector<Int> sizes, costs;
  for (const RematNode& n : p.nodes) costs.push_back(n.cost);
  for (const RematUnit& u : p.units) sizes.push_back(u.size);
  const Int size_unit = CommonFactor(sizes), cost_unit = CommonFactor(costs);
  auto finish = [&]() {
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
  };
  // Constants alone over the budget (a negative capacity would be rounded
  // towards zero, not down).
  bool fits = budget >= p.fixed_at_end;
  for (const RematNode& n : p.nodes) fits = fits && budget >= n.resident_before;
  if (!fits) {
    result.status = OptimalStatus::kInfeasible;
    return finish();
  }
  if (p.nodes.empty()) {
    result.status = OptimalStatus::kOptimal;
    result.compute = 0;
    return finish();
  }
  Program program(p, budget, size_unit, cost_unit);
  result.variables = program.Columns();
  result.constraints = program.Rows();

  OsiClpSolverInterface lp;
  program.Load(&lp);
  lp.messageHandler()->setLogLevel(0);
  for (size_t c = 0; c < program.Columns(); ++c) lp.setContinuous(static_cast<int>(c));
  lp.initialSolve();
  if (lp.isProvenPrimalInfeasible()) {
    result.status = OptimalStatus::kInfeasible;
    return finish();
  }
  const double unit = IntToDouble(cost_unit);
  result.lp_bound = lp.getObjValue() * unit;

  OsiClpSolverInterface solver;
  program.Load(&solver);
  solver.messageHandler()->setLogLevel(0);
  CbcModel model(solver);
  CbcSolverUsefulData data;
  CbcMain0(model, data);
  // Costs are integers in cost units: a gap below one unit proves optimality.
  const std::string seconds = std::to_string(options.time_limit_seconds);
  const char* argv[] = {"dtrcheck-optimal",
                        "-log",
                        "0",
                        "-seconds",
                        seconds.c_str(),
                        "-allowableGap",
                        "0.999",
                        "-ratioGap",
                        "0",
                        "-preprocess",
                        "off",
                        "-solve",
                        "-quit"};
  CbcMain1(
      static_cast<int>(std::size(argv)), argv, model, [](CbcModel*, int) { return 0; }, data);
  result.best_bound = std::max(result.lp_bound, model.getBestPossibleObjValue() * unit);
  const double* x = model.bestSolution();
  if (model.isProvenInfeasible() && !x) {
    result.status = OptimalStatus::kInfeasible;
    return finish();
  }
  if (!x) {
    result.status = OptimalStatus::kNotProven;
    return finish();
  }
  result.steps = program.Steps(x);
  Int total = 0;
  for (const NodeStep& s : result.steps)
    if (s.compute) total += p.nodes[s.index].cost;
  result.compute = total;
  result.status = model.isProvenOptimal() ? OptimalStatus::kOptimal : OptimalStatus::kFeasible;
  if (result.status == OptimalStatus::kOptimal) result.best_bound = IntToDouble(total);
  return finish();
}

}  // namespace dtrcheck
