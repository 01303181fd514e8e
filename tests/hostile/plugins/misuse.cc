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

namespace api = dtrcheck::api;

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
class Scripted : public api::Heuristic {
 public:
  Scripted(std::function<api::Cost(api::StorageHandle, api::View&)> score,
           std::function<api::StorageHandle(api::View&)> choose)
      : score_(std::move(score)), choose_(std::move(choose)) {}
  api::Features RequiredFeatures() const override { return 0; }
  api::Cost Score(api::StorageHandle s, api::View& view) override {
    return score_ ? score_(s, view) : api::Cost::Integer(view.Size(s));
  }
  api::StorageHandle Choose(api::View& view) override {
    return choose_ ? choose_(view) : api::kUseScores;
  }

 private:
  std::function<api::Cost(api::StorageHandle, api::View&)> score_;
  std::function<api::StorageHandle(api::View&)> choose_;
};

// Scores by size, and aborts when destroyed (at the end of the run).
class AbortsWhenDestroyed : public Scripted {
 public:
  AbortsWhenDestroyed() : Scripted(nullptr, nullptr) {}
  ~AbortsWhenDestroyed() override { std::raise(SIGABRT); }
};

void AddScripted(api::Registrar& r, const std::string& name,
                 std::function<api::Cost(api::StorageHandle, api::View&)> score,
                 std::function<api::StorageHandle(api::View&)> choose = nullptr) {
  r.Add(name, name,
        [score, choose](api::Int) { return std::make_unique<Scripted>(score, choose); });
}

}  // namespace

DTRCHECK_PLUGIN(registrar) {
  // Works: the control, so that a refusal below is the misuse's.
  AddScripted(registrar, "SizeScore", nullptr);
  // View calls with bad arguments.
  AddScripted(registrar, "RandBelowZero", nullptr,
              [](api::View& v) { return v.PoolNth(static_cast<size_t>(v.RandBelow(0))); });
  AddScripted(registrar, "RandBelowNegative", nullptr,
              [](api::View& v) { return v.PoolNth(static_cast<size_t>(v.RandBelow(-5))); });
  AddScripted(registrar, "PoolNthPastEnd", nullptr,
              [](api::View& v) { return v.PoolNth(v.PoolSize() + 1000000); });
  AddScripted(registrar, "PoolSlotPastEnd", nullptr,
              [](api::View& v) { return v.PoolSlot(v.PoolSlotCount() + 7); });
  AddScripted(registrar, "BadHandle", [](api::StorageHandle, api::View& v) {
    return api::Cost::Integer(v.Size(api::StorageHandle{1} << 40));
  });
  AddScripted(registrar, "DivideByZero", [](api::StorageHandle s, api::View& v) {
    return api::Cost::Float(v.TrueDivide(v.Size(s), 0));
  });
  // Exceptions that are not std::exception.
  AddScripted(registrar, "ScoreThrowsInt",
              [](api::StorageHandle, api::View&) -> api::Cost { throw 42; });
  AddScripted(registrar, "ChooseThrowsString", nullptr, [](api::View&) -> api::StorageHandle {
    throw std::string("not an exception class");
  });
  registrar.Add("FactoryThrowsInt", "FactoryThrowsInt",
                [](api::Int) -> std::unique_ptr<api::Heuristic> { throw 7; });
  registrar.Add("FactoryThrowsStd", "FactoryThrowsStd",
                [](api::Int) -> std::unique_ptr<api::Heuristic> {
                  throw std::runtime_error("no model file");
                });
  // Crashes.
  AddScripted(registrar, "SegvInScore",
              [](api::StorageHandle, api::View&) { return api::Cost::Integer(*g_null); });
  AddScripted(registrar, "StackOverflowInChoose", nullptr,
              [](api::View&) { return static_cast<api::StorageHandle>(Recurse(0)); });
  registrar.Add("AbortInDestructor", "AbortInDestructor",
                [](api::Int) { return std::make_unique<AbortsWhenDestroyed>(); });
  AddScripted(registrar, "AbortInScore", [](api::StorageHandle, api::View&) -> api::Cost {
    std::raise(SIGABRT);
    return api::Cost::Integer(0);
  });
}
