// Pathology searches: each is the RapidCheck property "no X exists" over
// generated traces, which we expect to be FALSE. The test runs the check
// itself (fixed seed, bounded cases), asserts that RapidCheck falsified it
// and shrank the counterexample, re-checks the shrunk trace, and, when simrd
// is available, confirms it with simrd.
#include <rapidcheck.h>
#include <rapidcheck/detail/TestListener.h>

#include <filesystem>
#include <iostream>

#include <gtest/gtest.h>

#include "analysis/simrd_confirm.h"
#include "analysis/sweep.h"
#include "io/trace_writer.h"
#include "plugins/plugin_heuristic.h"
#include "properties/pathology_search.h"
#include "properties/trace_gen.h"
#include "sim/parse.h"

namespace dtrcheck {
namespace {

struct SearchOutcome {
  bool falsified = false;
  TraceLog first, shrunk;  // the first counterexample found, and the last (shrunk) one
  PropertySpec witness;    // on the shrunk trace
  size_t evaluations = 0;
};

// RapidCheck's own report of each failure goes nowhere: the test reports.
class QuietListener : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

// Runs "no pathology exists" through RapidCheck.
//
// Until the first counterexample, every case searches the whole ratio grid.
// From then on the property checks only the first witness's two ratios: a
// trace showing the pathology there shows it on the grid, so every shrink
// RapidCheck keeps is still a counterexample to "no pathology on the grid",
// and each evaluation costs two runs instead of a sweep. Shrinking stops once
// `max_evaluations` traces have been checked (the property then passes every
// further candidate), which bounds the time deterministically.
SearchOutcome SearchAndShrink(const PathologySearch& search, uint64_t seed, int max_success,
                              size_t max_evaluations) {
  SearchOutcome out;
  TraceGenLimits limits;
  limits.max_layers = 5;
  limits.max_width = 2;
  limits.base_bytes = {65536};
  auto property = [&]() {
    TraceLog log = *GenTrace(limits);
    if (out.evaluations >= max_evaluations) return;
    ++out.evaluations;
    Graph graph = ParseTrace(TraceLogText(log), "generated");
    bool found;
    if (!out.falsified) {
      std::optional<PropertySpec> witness = FindPathology(graph, search);
      found = witness.has_value();
      if (found) {
        out.first = log;
        out.witness = *witness;
      }
    } else {
      found = CheckTraceProperty(graph, out.witness).holds;
    }
    if (found) {
      out.falsified = true;
      out.shrunk = log;
    }
    RC_ASSERT(!found);
  };
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = max_success;
  params.maxSize = rc::kNominalSize;
  rc::detail::TestMetadata metadata;
  metadata.id = std::string("no ") + TracePropertyName(search.property);
  metadata.description = metadata.id;
  QuietListener listener;
  auto result = rc::detail::checkTestable(property, metadata, params, listener);
  EXPECT_TRUE(result.template is<rc::detail::FailureResult>())
      << metadata.id << ": RapidCheck did not falsify the property in " << max_success << " cases";
  return out;
}

PathologySearch Search(TraceProperty property) {
  PathologySearch s;
  s.property = property;
  s.ratios = RatioGrid("0.05", "0.95", "0.02");
  s.factor = 1.5;
  s.cliff_gap = 0.02;  // neighbouring grid points
  if (property == TraceProperty::kInversion) s.config.overhead_limit = 8.0;
  return s;
}

void ExpectFoundShrunkAndConfirmed(TraceProperty property, uint64_t seed) {
  SearchOutcome o = SearchAndShrink(Search(property), seed, 100, 20000);
  ASSERT_TRUE(o.falsified);
  std::cout << TracePropertyName(property) << ": first counterexample " << o.first.NumOperators()
            << " operators, shrunk to " << o.shrunk.NumOperators() << " operators ("
            << o.shrunk.instrs.size() << " instructions) after " << o.evaluations << " searches\n";
  EXPECT_LT(o.shrunk.NumOperators(), o.first.NumOperators());
  EXPECT_LT(o.shrunk.instrs.size(), o.first.instrs.size());

  // The shrunk trace still shows the pathology at the witness budgets.
  std::string text = TraceLogText(o.shrunk);
  PropertyCheck check = CheckTraceProperty(ParseTrace(text, "shrunk"), o.witness);
  EXPECT_TRUE(check.holds) << check.summary;
  std::cout << "  witness: " << check.summary << "\n";

  std::filesystem::path file =
      std::filesystem::temp_directory_path() /
      ("dtrcheck_shrunk_" + std::string(TracePropertyName(property)) + ".log");
  WriteTraceLogFile(o.shrunk, file.string());
  SimrdConfirmation simrd = ConfirmWithSimrd(file.string(), o.witness, check);
  if (!simrd.available) {
    std::cout << "  simrd: " << simrd.error << " (not confirmed)\n";
    return;
  }
  EXPECT_EQ(simrd.error, "");
  EXPECT_TRUE(simrd.confirmed) << simrd.ToJson().dump();
  std::cout << "  simrd confirms it (" << file.string() << ")\n";
}

TEST(PathologySearch, FindsAndShrinksAFeasibilityInversion) {
  ExpectFoundShrunkAndConfirmed(TraceProperty::kInversion, 1);
}

TEST(PathologySearch, FindsAndShrinksAnOverheadRise) {
  ExpectFoundShrunkAndConfirmed(TraceProperty::kOverheadRise, 2);
}

TEST(PathologySearch, FindsAndShrinksARegimeCliff) {
  ExpectFoundShrunkAndConfirmed(TraceProperty::kCliff, 3);
}

TEST(PathologySearch, FindsAndShrinksAPinnedFrontierOom) {
  ExpectFoundShrunkAndConfirmed(TraceProperty::kPinnedOom, 4);
}

// dtrcheck's own heuristics (policies/) read addresses, so the search runs
// them under an allocator model; simrd has no oracle for them: the shrunk
// witness is re-checked in dtrcheck, as `archive add` confirms a plugin's.
void ExpectOwnFoundAndShrunk(const std::string& heuristic, MemoryModel model,
                             TraceProperty property, uint64_t seed) {
  RegisterAddressPolicies();  // as the command line registers them
  PathologySearch search = Search(property);
  search.config.heuristic = heuristic;
  search.config.memory.model = model;
  SearchOutcome o = SearchAndShrink(search, seed, 100, 2000);
  ASSERT_TRUE(o.falsified);
  std::cout << heuristic << " under " << MemoryModelName(model) << ", "
            << TracePropertyName(property) << ": first counterexample " << o.first.NumOperators()
            << " operators, shrunk to " << o.shrunk.NumOperators() << " operators ("
            << o.shrunk.instrs.size() << " instructions) after " << o.evaluations << " searches\n";
  EXPECT_EQ(o.witness.config.heuristic, heuristic);
  EXPECT_EQ(o.witness.config.memory.model, model);
  EXPECT_LT(o.shrunk.NumOperators(), o.first.NumOperators());
  PropertyCheck check = CheckTraceProperty(ParseTrace(TraceLogText(o.shrunk), "shrunk"), o.witness);
  EXPECT_TRUE(check.holds) << check.summary;
  std::cout << "  witness: " << check.summary << "\n";
}

TEST(PathologySearch, FindsAndShrinksACoopCliffUnderTheArena) {
  ExpectOwnFoundAndShrunk("Coop", MemoryModel::kArena, TraceProperty::kCliff, 5);
}

TEST(PathologySearch, FindsAndShrinksADteCliffUnderCudaCaching) {
  ExpectOwnFoundAndShrunk("DTE", MemoryModel::kCudaCaching, TraceProperty::kCliff, 6);
}

TEST(PathologySearch, FindsAndShrinksACoopInversionUnderCudaCaching) {
  ExpectOwnFoundAndShrunk("Coop", MemoryModel::kCudaCaching, TraceProperty::kInversion, 7);
}

TEST(PathologySearch, FindsAndShrinksADteOverheadRiseUnderTheArena) {
  ExpectOwnFoundAndShrunk("DTE", MemoryModel::kArena, TraceProperty::kOverheadRise, 8);
}

}  // namespace
}  // namespace dtrcheck
