// A version-1 plugin whose heuristics misuse the API or fail, one way each
// (tests/hostile/plugins_test.py runs each by name): dtrcheck must answer
// each with one error naming the plugin and the heuristic, never a hang or
// a crash without a word.
#include <csignal>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include <dtrcheck/heuristic.h>

namespace {

using dtrcheck::api::Cost;
using dtrcheck::api::Features;
using dtrcheck::api::Int;
using dtrcheck::api::StorageHandle;
using dtrcheck::api::View;

// Volatile, so that the compiler cannot see the null pointer or the
// unbounded recursion (and turn them into a trap instruction or a warning).
volatile int* volatile g_null = nullptr;
volatile int g_never = -1;

int Recurse(int depth) {
  volatile char frame[512];
  frame[0] = static_cast<char>(depth);
  if (depth == g_never) return 0;
  return Recurse(depth + 1) + frame[0];
}

// A heuristic whose Score and Choose are the given functions.
class Scripted : public dtrcheck::api::Heuristic {
 public:
  Scripted(std::function<Cost(StorageHandle, View&)> score,
           std::function<StorageHandle(View&)> choose)
      : score_(std::move(score)), choose_(std::move(choose)) {}
  Features RequiredFeatures() const override { return 0; }
  Cost Score(StorageHandle s, View& view) override {
    return score_ ? score_(s, view) : Cost::Integer(view.Size(s));
  }
  StorageHandle Choose(View& view) override {
    return choose_ ? choose_(view) : dtrcheck::api::kUseScores;
  }

 private:
  std::function<Cost(StorageHandle, View&)> score_;
  std::function<StorageHandle(View&)> choose_;
};

void AddScripted(dtrcheck::api::Registrar& r, const std::string& name,
                 std::function<Cost(StorageHandle, View&)> score,
                 std::function<StorageHandle(View&)> choose = nullptr) {
  r.Add(name, name, [score, choose](Int) { return std::make_unique<Scripted>(score, choose); });
}

}  // namespace

DTRCHECK_PLUGIN(registrar) {
  // Works: the control, so that a refusal below is the misuse's.
  AddScripted(registrar, "SizeScore", nullptr);
  // View calls with bad arguments.
  AddScripted(registrar, "RandBelowZero", nullptr,
              [](View& v) { return v.PoolNth(static_cast<size_t>(v.RandBelow(0))); });
  AddScripted(registrar, "RandBelowNegative", nullptr,
              [](View& v) { return v.PoolNth(static_cast<size_t>(v.RandBelow(-5))); });
  AddScripted(registrar, "PoolNthPastEnd", nullptr,
              [](View& v) { return v.PoolNth(v.PoolSize() + 1000000); });
  AddScripted(registrar, "PoolSlotPastEnd", nullptr,
              [](View& v) { return v.PoolSlot(v.PoolSlotCount() + 7); });
  AddScripted(registrar, "BadHandle",
              [](StorageHandle, View& v) { return Cost::Integer(v.Size(StorageHandle{1} << 40)); });
  AddScripted(registrar, "DivideByZero",
              [](StorageHandle s, View& v) { return Cost::Float(v.TrueDivide(v.Size(s), 0)); });
  // Exceptions that are not std::exception.
  AddScripted(registrar, "ScoreThrowsInt", [](StorageHandle, View&) -> Cost { throw 42; });
  AddScripted(registrar, "ChooseThrowsString", nullptr,
              [](View&) -> StorageHandle { throw std::string("not an exception class"); });
  registrar.Add("FactoryThrowsInt", "FactoryThrowsInt",
                [](Int) -> std::unique_ptr<dtrcheck::api::Heuristic> { throw 7; });
  registrar.Add("FactoryThrowsStd", "FactoryThrowsStd",
                [](Int) -> std::unique_ptr<dtrcheck::api::Heuristic> {
                  throw std::runtime_error("no model file");
                });
  // Crashes.
  AddScripted(registrar, "SegvInScore",
              [](StorageHandle, View&) { return Cost::Integer(*g_null); });
  AddScripted(registrar, "StackOverflowInChoose", nullptr,
              [](View&) { return static_cast<StorageHandle>(Recurse(0)); });
  AddScripted(registrar, "AbortInScore", [](StorageHandle, View&) -> Cost {
    std::raise(SIGABRT);
    return Cost::Integer(0);
  });
}
