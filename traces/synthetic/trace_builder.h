// Builds the log of one training step the way PyTorch's autograd produces it.
//
// The generators describe only a model's forward pass (Param, Input, Op,
// View, InPlace); the builder writes the corresponding log instructions and
// records a tape, and Backward() then replays the tape in reverse the way the
// logs of real models read:
//   - an op's saved tensors are extra references (COPY) taken right after it
//     runs and released once its backward has run;
//   - each backward is a CALL "<op>_backward" taking the output gradients and
//     the saved tensors and returning one gradient per input that needs one
//     (a tuple when there are several); a view's backward is itself a view of
//     the incoming gradient (ALIAS 0);
//   - a gradient arriving at a tensor that already has one is accumulated in
//     place (MUTATE add_), as autograd does for shared weights;
//   - the optimizer step updates each weight in place (MUTATE add_) or by
//     COPY_FROM of a new tensor, and releases the weight gradients.
// Names are released exactly once, and never used after their RELEASE, so
// the log is valid input for simrd.
#ifndef DTRCHECK_TRACES_SYNTHETIC_TRACE_BUILDER_H_
#define DTRCHECK_TRACES_SYNTHETIC_TRACE_BUILDER_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "io/trace_log.h"
#include "traces/synthetic/rng.h"

namespace dtrcheck {

// A tensor value of the forward pass (an index into the builder's table).
struct Value {
  int32_t id = -1;
};

// One output of an Op: its bytes, and whether it needs a gradient (small
// side outputs such as batch-norm statistics do not).
struct OutSpec {
  Int bytes = 0;
  bool differentiable = true;
};

// How an op keeps tensors for its backward.
enum class Save : uint8_t { kNothing, kInputs, kOutputs, kBoth };

class TraceBuilder {
 public:
  explicit TraceBuilder(uint64_t seed);

  GenRng& rng() { return rng_; }

  // A weight: CONSTANT, then a COPY as the parameter and a RELEASE of the
  // constant's own name, as in the public logs.
  Value Param(Int bytes);
  // A constant that needs no gradient (input batch, labels, initial state).
  Value Input(Int bytes);
  // CALL `name` on `inputs`, producing `outs` (a tuple when several).
  // `time` is the forward compute time; the backward gets a time of the same
  // order. Returns the outputs.
  std::vector<Value> Op(const std::string& name, const std::vector<Value>& inputs,
                        const std::vector<OutSpec>& outs, Int time, Save save);
  Value Op1(const std::string& name, const std::vector<Value>& inputs, Int bytes, Int time,
            Save save) {
    return Op(name, inputs, {{bytes, true}}, time, save)[0];
  }
  // A view of `x` (CALL with ALIAS 0): shares x's storage.
  Value View(const std::string& name, Value x, Int time);
  // `count` views of x, as one CALL with a tuple of aliases (like split).
  std::vector<Value> Split(const std::string& name, Value x, int count, Int time);
  // MUTATE `name` on x (index 0) with extra arguments; x's name now holds the
  // result, which is returned. The backward saves the result.
  Value InPlace(const std::string& name, Value x, const std::vector<Value>& extra, Int time);
  // The forward pass no longer needs `x`: RELEASE its name.
  void Release(Value x);

  Int Bytes(Value v) const { return values_[v.id].bytes; }
  bool IsView(Value v) const { return values_[v.id].is_view; }

  // Ends the forward pass at `loss`: releases every forward value still
  // named (except weights, inputs and the loss), writes the backward pass
  // and the optimizer step. The loss stays referenced (an output of the step).
  void Backward(Value loss);

  TraceLog Finish();

 private:
  struct ValueInfo {
    std::string name;  // the log name bound to it; empty once released or rebound
    Int bytes = 0;
    bool requires_grad = false;
    bool is_param = false;
    bool is_view = false;  // an alias of one of its op's inputs
  };
  struct TapeEntry {
    std::string name;
    std::vector<Value> inputs, outputs;
    std::vector<std::string> saved;  // COPY names to release after the backward
    Int time = 0;
    bool view = false;
  };

  std::string Fresh();
  Value NewValue(std::string name, Int bytes, bool requires_grad);
  const std::string& NameOf(Value v) const;  // throws std::logic_error if unnamed
  std::string SaveCopy(Value v);
  void AccumulateGrad(Value v, const std::string& grad);
  void RunBackward(const TapeEntry& e);
  void OptimizerStep();
  Int BackwardTime(Int forward_time);

  GenRng rng_;
  TraceLog log_;
  int64_t next_name_ = 0;
  std::vector<ValueInfo> values_;
  std::vector<TapeEntry> tape_;
  std::map<int32_t, std::string> grad_;  // value id -> name of its gradient
  std::vector<Value> params_;
};

}  // namespace dtrcheck

#endif  // DTRCHECK_TRACES_SYNTHETIC_TRACE_BUILDER_H_
