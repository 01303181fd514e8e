#include "optimal/best_first.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <queue>
#include <unordered_map>
#include <unordered_set>

namespace dtrcheck {

namespace {

// Units (or nodes) as a fixed bit set: a state's resident units, hashed.
constexpr int kWords = 4;
constexpr int kMaxBits = 64 * kWords;

struct Bits {
  uint64_t w[kWords] = {};
  void Set(int i) { w[i >> 6] |= uint64_t{1} << (i & 63); }
  bool Test(int i) const { return w[i >> 6] >> (i & 63) & 1; }
  Bits And(const Bits& o) const {
    Bits r;
    for (int i = 0; i < kWords; ++i) r.w[i] = w[i] & o.w[i];
    return r;
  }
  Bits AndNot(const Bits& o) const {
    Bits r;
    for (int i = 0; i < kWords; ++i) r.w[i] = w[i] & ~o.w[i];
    return r;
  }
  Bits Or(const Bits& o) const {
    Bits r;
    for (int i = 0; i < kWords; ++i) r.w[i] = w[i] | o.w[i];
    return r;
  }
  bool Empty() const {
    uint64_t any = 0;
    for (uint64_t x : w) any |= x;
    return any == 0;
  }
  bool SubsetOf(const Bits& o) const { return AndNot(o).Empty(); }
  bool operator==(const Bits& o) const = default;
  template <typename F>
  void ForEach(F f) const {
    for (int i = 0; i < kWords; ++i)
      for (uint64_t x = w[i]; x; x &= x - 1) f(i * 64 + __builtin_ctzll(x));
  }
};

double WallSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

class Search {
 public:
  Search(const RematProblem& p, Int budget, const BestFirstOptions& options)
      : p_(p),
        options_(options),
        n_(static_cast<int>(p.nodes.size())),
        units_(static_cast<int>(p.units.size())) {
    deps_.resize(n_);
    made_.resize(n_);
    for (int k = 0; k < n_; ++k) {
      for (int u : p.nodes[k].deps) deps_[k].Set(u);
      for (int u : p.nodes[k].units) made_[k].Set(u);
      cost_.push_back(static_cast<int64_t>(p.nodes[k].cost));
    }
    with_views_.resize(units_);
    for (int u = 0; u < units_; ++u) {
      const RematUnit& unit = p.units[u];
      size_.push_back(static_cast<int64_t>(unit.size));
      producer_.push_back(unit.node);
      with_views_[u].Set(u);
      if (unit.base >= 0) with_views_[unit.base].Set(u);
      if (unit.base < 0 && unit.size > 0) storages_.Set(u);
    }
    for (int o : p.outputs) outputs_.Set(o);
    const std::vector<std::vector<bool>> need = p.Needed();
    live_.resize(n_ + 1);
    direct_.resize(n_ + 1);
    for (int t = 0; t <= n_; ++t)
      for (int u = 0; u < units_; ++u) {
        if (need[t][u]) live_[t].Set(u);
        if (producer_[u] < t && outputs_.Test(u)) direct_[t].Set(u);
      }
    for (int k = n_ - 1; k >= 0; --k)
      for (int t = 0; t <= k; ++t)
        for (int u : p.nodes[k].deps)
          if (producer_[u] < t) direct_[t].Set(u);
    suffix_.assign(n_ + 1, 0);
    for (int t = n_ - 1; t >= 0; --t) suffix_[t] = suffix_[t + 1] + cost_[t];
    for (int t = 0; t <= n_; ++t) {
      const Int constants = t < n_ ? p.nodes[t].resident_before : p.fixed_at_end;
      cap_.push_back(static_cast<int64_t>(budget - constants));
    }
    // Per stage k: what node k's first run holds (base), and what is needed
    // after it (after: an argument of a later node, or an output, made
    // before k). A stage where all of it fits never binds the cover.
    base_.resize(n_);
    after_.resize(n_);
    for (int k = 0; k < n_; ++k) {
      base_[k] = deps_[k].Or(made_[k]);
      for (int u = 0; u < units_; ++u)
        if (producer_[u] < k && outputs_.Test(u)) after_[k].Set(u);
      for (int j = k + 1; j < n_; ++j)
        for (int u : p.nodes[j].deps)
          if (producer_[u] < k) after_[k].Set(u);
      after_[k] = after_[k].AndNot(base_[k]);
      Bits all = base_[k].Or(after_[k]);
      after_[k].ForEach([&](int u) {
        if (p.units[u].base >= 0) all.Set(p.units[u].base);
      });
      if (Memory(all) > cap_[k]) tight_.push_back(k);
      end_tight_ = end_tight_ || Memory(base_[k].Or(outputs_)) > cap_[n_];
    }
  }

  BestFirstResult Run() {
    BestFirstResult result;
    started_ = WallSeconds();
    const double started = started_;
    auto finish = [&](BestFirstResult::Outcome outcome) {
      result.outcome = outcome;
      result.states = records_.size();
      result.seconds = WallSeconds() - started;
      result.state_limit = outcome == BestFirstResult::kStopped && OverStates();
      return result;
    };
    const int64_t upper = options_.upper_bound ? static_cast<int64_t>(*options_.upper_bound) : -1;
    Bits none;
    if (Dead(0, none)) return finish(Settled(&result, upper));
    Add(0, none, 0, kNoParent, -1, upper);
    int64_t bound = -1;  // the least f in the queue, and since when (seconds)
    double bound_since = 0;
    while (!open_.empty()) {
      const Entry e = open_.top();
      if (e.f > bound) bound = e.f, bound_since = WallSeconds() - started;
      if (++result.expanded % 16 == 0 &&
          (OverTime() || WallSeconds() - started - bound_since > options_.stall_seconds ||
           OverStates())) {
        result.lower_bound = e.f;
        return finish(BestFirstResult::kStopped);
      }
      open_.pop();
      const Record r = records_[e.id];
      if (e.g > r.g) continue;  // reached again more cheaply since
      if (r.t == n_ && outputs_.SubsetOf(r.resident)) {
        result.compute = r.g;
        result.lower_bound = r.g;
        result.steps = Steps(e.id);
        return finish(BestFirstResult::kOptimal);
      }
      Expand(e.id, upper);
      if (out_of_time_) {  // inside one expansion: its state's f still bounds the rest
        result.lower_bound = e.f;
        return finish(BestFirstResult::kStopped);
      }
    }
    return finish(Settled(&result, upper));
  }

 private:
  static constexpr uint32_t kNoParent = UINT32_MAX;
  static constexpr int64_t kInfinity = INT64_MAX / 4;  // no way to fit (still summable)
  static constexpr size_t kCoverNodes = 20000;
  struct CoverKey {
    int k;
    Bits paid;
    bool operator==(const CoverKey&) const = default;
  };
  struct CoverHash {
    size_t operator()(const CoverKey& c) const {
      uint64_t h = static_cast<uint64_t>(c.k) * 0x9e3779b97f4a7c15ULL;
      for (uint64_t x : c.paid.w) h = (h ^ x) * 0xff51afd7ed558ccdULL, h ^= h >> 29;
      return h;
    }
  };
  struct Record {
    Bits resident;
    int64_t g = 0;
    uint32_t parent = kNoParent;
    int16_t t = 0, computed = -1;  // the stage; the node computed to get here
  };
  struct Entry {
    int64_t f, g;
    uint32_t id;
    int32_t depth;  // the stage: how far the schedule has got
    // Least f first; among equals the furthest along, then the most compute
    // done, which reach a complete schedule soonest.
    bool operator<(const Entry& o) const {
      return f != o.f ? f > o.f : depth != o.depth ? depth < o.depth : g < o.g;
    }
  };
  struct KeyHash {
    const std::vector<Record>* records;
    size_t operator()(uint32_t id) const {
      const Record& r = (*records)[id];
      uint64_t h = static_cast<uint64_t>(r.t) * 0x9e3779b97f4a7c15ULL;
      for (uint64_t x : r.resident.w) h = (h ^ x) * 0xff51afd7ed558ccdULL, h ^= h >> 29;
      return h;
    }
  };
  struct KeyEq {
    const std::vector<Record>* records;
    bool operator()(uint32_t a, uint32_t b) const {
      const Record &x = (*records)[a], &y = (*records)[b];
      return x.t == y.t && x.resident == y.resident;
    }
  };

  // The queue ran out: nothing cheaper than the bound exists, or, without
  // one, nothing at all.
  static BestFirstResult::Outcome Settled(BestFirstResult* result, int64_t upper) {
    if (upper < 0) return BestFirstResult::kInfeasible;
    result->lower_bound = upper;
    return BestFirstResult::kAtBound;
  }

  bool OverTime() const {
    return WallSeconds() - started_ > options_.seconds ||
           (options_.cancel && options_.cancel->load());
  }
  bool OverStates() const { return records_.size() > options_.max_states; }

  int64_t Memory(const Bits& b) const {
    int64_t m = 0;
    b.ForEach([&](int u) { m += size_[u]; });
    return m;
  }

  // The lower bound on the cost still to come in stage t with `resident`:
  // every node from t on runs once; every producer of a needed unit that
  // is not resident runs again, with the producers of its own missing
  // arguments (closure, `paid`); and at each later stage k where memory
  // binds, whatever is needed after k and not held through k's first run
  // is recomputed after it (StageCover), as is every output not held
  // through the last run of a paid producer (LastRunCover). The largest of
  // the covers counts. Each of those is a distinct
  // computation no schedule from here avoids.
  int64_t Remaining(int t, const Bits& resident) {
    int64_t h = suffix_[t];
    Bits queued;
    std::vector<int> work;
    auto want = [&](int u) {
      const int k = producer_[u];
      if (!queued.Test(k)) queued.Set(k), work.push_back(k);
    };
    direct_[t].AndNot(resident).ForEach(want);
    while (!work.empty()) {
      const int k = work.back();
      work.pop_back();
      h += cost_[k];
      deps_[k].AndNot(resident).ForEach(want);
    }
    int64_t cover = 0;
    for (int k : tight_)
      if (k >= t && !out_of_time_) cover = std::max(cover, StageCover(k, queued));
    if (end_tight_)
      queued.ForEach([&](int p) {
        if (cover >= kInfinity || out_of_time_) return;
        // chain: the producers of p's missing arguments, and of theirs.
        Bits chain;
        std::vector<int> stack{p};
        while (!stack.empty()) {
          const int k = stack.back();
          stack.pop_back();
          deps_[k].AndNot(resident).ForEach([&](int u) {
            const int q = producer_[u];
            if (!chain.Test(q)) chain.Set(q), stack.push_back(q);
          });
        }
        cover = std::max(cover, LastRunCover(t, p, queued, chain));
      });
    return h + cover;
  }

  // The least cost, beyond the producers already `paid` for, of making
  // stage k fit: at node k's first run its arguments and results are
  // resident; each unit needed after k is held through it (its storage
  // too, for a view) or recomputed after it, which needs its producer's
  // arguments held through k or recomputed in turn. The held units must
  // fit beside node k's.
  int64_t StageCover(int k, const Bits& paid) {
    return Cover(k, base_[k], after_[k], cap_[k], paid);
  }

  // The same at the last run of a producer p that must run again (paid):
  // the outputs are needed after it, and any of them not held then is
  // recomputed after it. The producers that run before p to bring back its
  // own missing arguments (`chain`) are paid for that run only: running
  // again after p costs again. A producer not yet run (from stage t on)
  // may first run after p at no extra cost. Memory is at most what stage t
  // allows (constants only accumulate).
  int64_t LastRunCover(int t, int p, const Bits& paid, const Bits& chain) {
    Bits free = paid.AndNot(chain);
    for (int q = t; q < n_; ++q) free.Set(q);
    return Cover(n_ + p * (n_ + 1) + t, base_[p], outputs_.AndNot(base_[p]), cap_[t], free);
  }

  // Branch and bound over hold/recompute for each unit of `pending`, latest
  // unit first (so a unit's decision comes after every unit that may need
  // it), the producers in `free` recomputed at no cost; memoized by (id, free).
  int64_t Cover(int id, const Bits& base, const Bits& pending, int64_t cap, const Bits& free) {
    CoverKey ck{id, free};
    if (auto it = cover_cache_.find(ck); it != cover_cache_.end()) return it->second;
    int64_t best = INT64_MAX;
    const int64_t room = cap - Memory(base);
    // The branch and bound is exponential in the worst case: past this many
    // nodes it gives up, and the cover counts as 0 (still a lower bound).
    size_t nodes = 0;
    bool gave_up = false;
    auto search = [&](auto&& self, Bits pending, Bits held, Bits regen, int64_t memory,
                      int64_t cost) -> void {
      if (cost >= best || gave_up) return;
      if (++nodes > kCoverNodes) {
        gave_up = true;
        return;
      }
      // A state's covers can take millions of nodes: the limits are polled
      // here too (a cover given up counts as 0, still a lower bound).
      if (nodes % 1024 == 0 && !out_of_time_ && OverTime()) out_of_time_ = true;
      if (out_of_time_) {
        gave_up = true;
        return;
      }
      int u = -1;
      for (int i = kWords - 1; i >= 0 && u < 0; --i)
        if (pending.w[i]) u = i * 64 + 63 - __builtin_clzll(pending.w[i]);
      if (u < 0) {
        best = cost;
        return;
      }
      pending.w[u >> 6] &= ~(uint64_t{1} << (u & 63));
      const int k2 = producer_[u];
      if (held.Test(u) || regen.Test(k2)) return self(self, pending, held, regen, memory, cost);
      // Hold u (and the storage of a view).
      {
        Bits h2 = held;
        int64_t m2 = memory;
        h2.Set(u);
        m2 += size_[u];
        const int b = p_.units[u].base;
        if (b >= 0 && !base.Test(b) && !h2.Test(b)) h2.Set(b), m2 += size_[b];
        if (m2 <= room) self(self, pending, h2, regen, m2, cost);
      }
      // Recompute its producer afterwards.
      {
        Bits r2 = regen;
        r2.Set(k2);
        const Bits p2 = pending.Or(deps_[k2].AndNot(base).AndNot(held));
        self(self, p2, held, r2, memory, cost + (free.Test(k2) ? 0 : cost_[k2]));
      }
    };
    if (room >= 0) search(search, pending, Bits{}, Bits{}, 0, 0);
    const int64_t result = gave_up ? 0 : best == INT64_MAX ? kInfinity : best;
    cover_cache_.emplace(ck, result);
    return result;
  }

  // Stage t must still compute node t (or, in the last stage, make the
  // outputs resident) by recomputations, in any order: each producer of a
  // missing argument (and of a missing argument of such a producer...)
  // must run again in this stage, with its arguments and results resident
  // then. The state is dead if one of them cannot fit beside the stage's
  // constants even alone. (The search once kept each stage's
  // recomputations in log order, Checkmate's restriction, and read an
  // empty queue as infeasibility: corpus/optimal-violation/eac76c045ddc2c27,
  // where a run with recomputations out of log order fits.)
  bool Dead(int t, const Bits& resident) const {
    const Bits target = t < n_ ? deps_[t] : outputs_;
    Bits queued;
    std::vector<int> work;
    auto want = [&](int u) {
      const int k = producer_[u];
      if (!queued.Test(k)) queued.Set(k), work.push_back(k);
    };
    target.AndNot(resident).ForEach(want);
    while (!work.empty()) {
      const int k = work.back();
      work.pop_back();
      if (Memory(deps_[k].Or(made_[k])) > cap_[t]) return true;
      deps_[k].AndNot(resident).ForEach(want);
    }
    return false;
  }

  void Add(int t, const Bits& resident, int64_t g, uint32_t parent, int computed, int64_t upper) {
    if (Dead(t, resident)) return;
    const int64_t f = g + Remaining(t, resident);
    if (f >= kInfinity) return;            // some later stage cannot fit
    if (upper >= 0 && f >= upper) return;  // only a cheaper schedule is wanted
    Record r;
    r.resident = resident;
    r.g = g;
    r.parent = parent;
    r.t = static_cast<int16_t>(t);
    r.computed = static_cast<int16_t>(computed);
    records_.push_back(r);
    const uint32_t id = static_cast<uint32_t>(records_.size() - 1);
    auto [it, inserted] = seen_.insert(id);
    if (!inserted) {
      records_.pop_back();
      Record& old = records_[*it];
      if (old.g <= g) return;
      old.g = g;
      old.parent = parent;
      old.computed = static_cast<int16_t>(computed);
      open_.push({f, g, *it, t});
      return;
    }
    open_.push({f, g, id, t});
  }

  void Expand(uint32_t id, int64_t upper) {
    const Record r = records_[id];
    const int t = r.t;
    const int64_t resident_memory = Memory(r.resident);
    for (int j = 0; j <= std::min(t, n_ - 1); ++j) {
      if (j < t && made_[j].And(live_[t]).AndNot(r.resident).Empty())
        continue;  // nothing to remake
      if (!deps_[j].SubsetOf(r.resident)) continue;
      const int64_t excess = resident_memory + Memory(made_[j].AndNot(r.resident)) - cap_[t];
      auto emit = [&](const Bits& freed) {
        Bits next = r.resident;
        freed.ForEach([&](int u) { next = next.AndNot(with_views_[u]); });
        next = next.Or(made_[j]);
        const int t2 = j == t ? t + 1 : t;
        Add(t2, next.And(live_[t2]), r.g + cost_[j], id, j, upper);
      };
      if (excess <= 0) {
        emit(Bits{});
        continue;
      }
      // Inclusion-minimal sets of frees that make room, largest units first.
      std::vector<int> candidates;
      r.resident.And(storages_).AndNot(deps_[j]).AndNot(made_[j]).ForEach(
          [&](int u) { candidates.push_back(u); });
      std::stable_sort(candidates.begin(), candidates.end(),
                       [&](int a, int b) { return size_[a] > size_[b]; });
      std::vector<int64_t> rest(candidates.size() + 1, 0);
      for (size_t i = candidates.size(); i-- > 0;) rest[i] = rest[i + 1] + size_[candidates[i]];
      Bits chosen;
      // The sets can be exponentially many (a hundred resident units): the
      // time and state limits are checked as they are made too.
      auto choose = [&](auto&& self, size_t i, int64_t freed, int64_t smallest) -> void {
        if (out_of_time_) return;
        if (++made_sets_ % 4096 == 0 && (OverTime() || OverStates())) {
          out_of_time_ = true;
          return;
        }
        if (freed >= excess) {
          // Minimal: without its smallest member (the last chosen) it would not fit.
          if (freed - smallest < excess) emit(chosen);
          return;
        }
        if (i == candidates.size() || freed + rest[i] < excess) return;
        const int u = candidates[i];
        Bits before = chosen;
        chosen.Set(u);
        self(self, i + 1, freed + size_[u], size_[u]);
        chosen = before;
        self(self, i + 1, freed, smallest);
      };
      choose(choose, 0, 0, 0);
    }
  }

  // The schedule that reaches record `id`: per step, the frees that made
  // room (and what was no longer needed) before the computation, then the
  // computation, then its arguments and results that are no longer needed.
  std::vector<NodeStep> Steps(uint32_t id) const {
    std::vector<uint32_t> path;
    for (uint32_t i = id; i != kNoParent; i = records_[i].parent) path.push_back(i);
    std::reverse(path.begin(), path.end());
    std::vector<NodeStep> steps;
    auto free_all = [&](const Bits& b) {
      // Views first: a view's own free does not touch its storage.
      b.AndNot(storages_).ForEach([&](int u) { steps.push_back({u, false}); });
      b.And(storages_).ForEach([&](int u) { steps.push_back({u, false}); });
    };
    for (size_t i = 1; i < path.size(); ++i) {
      const Record &from = records_[path[i - 1]], &to = records_[path[i]];
      const int j = to.computed;
      const Bits used = deps_[j].Or(made_[j]);
      const Bits gone = from.resident.Or(made_[j]).AndNot(to.resident);
      free_all(gone.AndNot(used).And(from.resident));
      steps.push_back({j, true});
      free_all(gone.And(used));
    }
    free_all(records_[id].resident.AndNot(outputs_));
    return steps;
  }

  const RematProblem& p_;
  const BestFirstOptions& options_;
  int n_, units_;
  std::vector<Bits> deps_, made_, with_views_;
  std::vector<Bits> live_, direct_;  // per stage 0..n: needed; needed by a later node or the end
  Bits storages_, outputs_;          // storages: units of non-zero size that are not views
  std::vector<Bits> base_, after_;   // per node k: its arguments and results; needed after it
  std::vector<int> tight_;           // stages where holding all that is needed does not fit
  bool end_tight_ = false;           // some node's run beside every output does not fit
  std::unordered_map<CoverKey, int64_t, CoverHash> cover_cache_;
  std::vector<int> producer_;
  std::vector<int64_t> size_, cost_, suffix_, cap_;
  double started_ = 0;        // CPU seconds when Run began
  size_t made_sets_ = 0;      // free sets tried, to poll the limits within an expansion
  bool out_of_time_ = false;  // a limit was reached within an expansion
  std::vector<Record> records_;
  std::unordered_set<uint32_t, KeyHash, KeyEq> seen_{1024, KeyHash{&records_}, KeyEq{&records_}};
  std::priority_queue<Entry> open_;
};

}  // namespace

BestFirstResult BestFirstOptimum(const RematProblem& p, Int budget,
                                 const BestFirstOptions& options) {
  BestFirstResult result;
  Int total_cost = 0, total_size = 0;
  for (const RematNode& n : p.nodes) total_cost += n.cost;
  for (const RematUnit& u : p.units) total_size += u.size;
  const Int limit = Int(1) << 60;
  if (p.units.size() > kMaxBits || p.nodes.size() > kMaxBits || p.nodes.size() > INT16_MAX ||
      total_cost * Int(p.nodes.size() + 1) >= limit || total_size >= limit || budget >= limit ||
      budget < 0) {
    result.outcome = BestFirstResult::kTooLarge;
    return result;
  }
  for (const RematNode& n : p.nodes)
    if (budget < n.resident_before) {
      result.outcome = BestFirstResult::kInfeasible;
      return result;
    }
  // The outputs beside every constant at the end (the search's goal test
  // looks only at which units are resident).
  Int outputs = p.fixed_at_end;
  for (int o : p.outputs) outputs += p.units[o].size;
  if (budget < outputs) {
    result.outcome = BestFirstResult::kInfeasible;
    return result;
  }
  return Search(p, budget, options).Run();
}

}  // namespace dtrcheck
