// A plugin registering a built-in's name (the loader refuses it).
#include <memory>

#include <dtrcheck/heuristic.h>

namespace {
class Zero : public dtrcheck::api::Heuristic {
 public:
  dtrcheck::api::Features RequiredFeatures() const override { return 0; }
  dtrcheck::api::Cost Score(dtrcheck::api::StorageHandle, dtrcheck::api::View&) override {
    return dtrcheck::api::Cost::Integer(0);
  }
};
}  // namespace

DTRCHECK_PLUGIN(registrar) {
  registrar.Add("DTR", "clash", [](dtrcheck::api::Int) { return std::make_unique<Zero>(); });
}
