#include "traces/synthetic/trace_builder.h"

#include <stdexcept>

namespace dtrcheck {

TraceBuilder::TraceBuilder(uint64_t seed) : rng_(seed) {
  log_.instrs.push_back(TraceInstr::Annotate("START"));
}

std::string TraceBuilder::Fresh() {
  std::string name = "x";  // (not "x" + ...: GCC 12 warns falsely, -Wrestrict)
  name += std::to_string(next_name_++);
  return name;
}

Value TraceBuilder::NewValue(std::string name, Int bytes, bool requires_grad) {
  values_.push_back(ValueInfo{std::move(name), bytes, requires_grad, false, false});
  return Value{static_cast<int32_t>(values_.size() - 1)};
}

const std::string& TraceBuilder::NameOf(Value v) const {
  if (v.id < 0 || v.id >= static_cast<int32_t>(values_.size()) || values_[v.id].name.empty())
    throw std::logic_error("generator bug: value " + std::to_string(v.id) +
                           " was released or rebound and cannot be used");
  return values_[v.id].name;
}

std::string TraceBuilder::SaveCopy(Value v) {
  std::string copy = Fresh();
  log_.instrs.push_back(TraceInstr::Copy(copy, NameOf(v)));
  return copy;
}

Value TraceBuilder::Param(Int bytes) {
  std::string constant = Fresh();
  log_.instrs.push_back(TraceInstr::Constant(constant, bytes));
  std::string param = Fresh();
  log_.instrs.push_back(TraceInstr::Copy(param, constant));
  log_.instrs.push_back(TraceInstr::Release(constant));
  Value v = NewValue(param, bytes, true);
  values_[v.id].is_param = true;
  params_.push_back(v);
  return v;
}

Value TraceBuilder::Input(Int bytes) {
  std::string constant = Fresh();
  log_.instrs.push_back(TraceInstr::Constant(constant, bytes));
  return NewValue(constant, bytes, false);
}

std::vector<Value> TraceBuilder::Op(const std::string& name, const std::vector<Value>& inputs,
                                    const std::vector<OutSpec>& outs, Int time, Save save) {
  if (outs.empty())
    throw std::logic_error("generator bug: an op needs an output (simrd rejects CALLs without)");
  std::vector<std::string> args;
  bool requires_grad = false;
  for (Value v : inputs) {
    args.push_back(NameOf(v));
    requires_grad = requires_grad || values_[v.id].requires_grad;
  }
  std::vector<TraceResult> results;
  std::vector<Value> outputs;
  for (const OutSpec& o : outs) {
    results.push_back({Fresh(), o.bytes, -1});
    outputs.push_back(NewValue(results.back().name, o.bytes, requires_grad && o.differentiable));
  }
  log_.instrs.push_back(TraceInstr::Call(name, std::move(args), std::move(results), time));
  if (!requires_grad) return outputs;
  TapeEntry e{name, inputs, outputs, {}, time, false};
  if (save == Save::kInputs || save == Save::kBoth)
    for (Value v : inputs) e.saved.push_back(SaveCopy(v));
  if (save == Save::kOutputs || save == Save::kBoth)
    for (Value v : outputs) e.saved.push_back(SaveCopy(v));
  tape_.push_back(std::move(e));
  return outputs;
}

Value TraceBuilder::View(const std::string& name, Value x, Int time) {
  std::string result = Fresh();
  log_.instrs.push_back(TraceInstr::Call(name, {NameOf(x)}, {{result, Bytes(x), 0}}, time));
  Value v = NewValue(result, Bytes(x), values_[x.id].requires_grad);
  values_[v.id].is_view = true;
  if (values_[x.id].requires_grad) tape_.push_back(TapeEntry{name, {x}, {v}, {}, time, true});
  return v;
}

std::vector<Value> TraceBuilder::Split(const std::string& name, Value x, int count, Int time) {
  std::vector<TraceResult> results;
  std::vector<Value> outputs;
  Int part = Bytes(x) / count;
  for (int i = 0; i < count; ++i) {
    results.push_back({Fresh(), part, 0});
    outputs.push_back(NewValue(results.back().name, part, values_[x.id].requires_grad));
    values_[outputs.back().id].is_view = true;
  }
  log_.instrs.push_back(TraceInstr::Call(name, {NameOf(x)}, std::move(results), time));
  if (values_[x.id].requires_grad) tape_.push_back(TapeEntry{name, {x}, outputs, {}, time, true});
  return outputs;
}

Value TraceBuilder::InPlace(const std::string& name, Value x, const std::vector<Value>& extra,
                            Int time) {
  if (values_[x.id].is_view)
    throw std::logic_error("generator bug: in-place op on a view (its storage size is its base's)");
  std::vector<std::string> args = {NameOf(x)};
  bool requires_grad = values_[x.id].requires_grad;
  for (Value v : extra) {
    args.push_back(NameOf(v));
    requires_grad = requires_grad || values_[v.id].requires_grad;
  }
  std::string name_of_x = NameOf(x);
  log_.instrs.push_back(TraceInstr::Mutate(name, std::move(args), {0}, time));
  values_[x.id].name.clear();  // the name now holds the mutated tensor
  Value y = NewValue(name_of_x, Bytes(x), requires_grad);
  if (requires_grad) {
    std::vector<Value> inputs = {x};
    inputs.insert(inputs.end(), extra.begin(), extra.end());
    tape_.push_back(TapeEntry{name, inputs, {y}, {SaveCopy(y)}, time, false});
  }
  return y;
}

void TraceBuilder::Release(Value x) {
  log_.instrs.push_back(TraceInstr::Release(NameOf(x)));
  values_[x.id].name.clear();
}

Int TraceBuilder::BackwardTime(Int forward_time) {
  int64_t t = static_cast<int64_t>(forward_time);
  return rng_.Range(t / 2 + 1, 2 * t + 1);
}

void TraceBuilder::AccumulateGrad(Value v, const std::string& grad) {
  auto it = grad_.find(v.id);
  if (it == grad_.end()) {
    grad_[v.id] = grad;
    return;
  }
  log_.instrs.push_back(
      TraceInstr::Mutate("add_", {it->second, grad}, {0}, rng_.Range(1000, 20000)));
  log_.instrs.push_back(TraceInstr::Release(grad));
}

void TraceBuilder::RunBackward(const TapeEntry& e) {
  std::vector<std::string> out_grads;
  for (Value o : e.outputs) {
    auto it = grad_.find(o.id);
    if (it == grad_.end()) continue;
    out_grads.push_back(it->second);
    grad_.erase(it);
  }
  std::vector<Value> needs;
  for (Value v : e.inputs)
    if (values_[v.id].requires_grad) needs.push_back(v);
  std::vector<std::string> new_grads;
  if (!out_grads.empty() && !needs.empty()) {
    std::vector<TraceResult> results;
    if (e.view && e.outputs.size() == 1) {
      // The gradient of a view is a view of the incoming gradient.
      results.push_back({Fresh(), Bytes(needs[0]), 0});
    } else {
      for (Value v : needs) results.push_back({Fresh(), Bytes(v), -1});
    }
    for (const auto& r : results) new_grads.push_back(r.name);
    std::vector<std::string> args = out_grads;
    args.insert(args.end(), e.saved.begin(), e.saved.end());
    log_.instrs.push_back(TraceInstr::Call(e.name + "_backward", std::move(args),
                                           std::move(results), BackwardTime(e.time)));
  }
  for (const auto& g : out_grads) log_.instrs.push_back(TraceInstr::Release(g));
  for (const auto& s : e.saved) log_.instrs.push_back(TraceInstr::Release(s));
  for (size_t i = 0; i < new_grads.size(); ++i) AccumulateGrad(needs[i], new_grads[i]);
}

void TraceBuilder::OptimizerStep() {
  for (Value p : params_) {
    auto it = grad_.find(p.id);
    if (it == grad_.end()) continue;
    std::string g = it->second;
    grad_.erase(it);
    const std::string& name = NameOf(p);
    if (rng_.Chance(1, 2)) {
      log_.instrs.push_back(TraceInstr::Mutate("add_", {name, g}, {0}, rng_.Range(1000, 20000)));
    } else {
      std::string updated = Fresh();
      log_.instrs.push_back(
          TraceInstr::Call("sub", {name, g}, {{updated, Bytes(p), -1}}, rng_.Range(1000, 20000)));
      log_.instrs.push_back(TraceInstr::CopyFrom(name, updated));
      log_.instrs.push_back(TraceInstr::Release(updated));
    }
    log_.instrs.push_back(TraceInstr::Release(g));
  }
}

void TraceBuilder::Backward(Value loss) {
  for (size_t i = 0; i < values_.size(); ++i)
    if (!values_[i].name.empty() && !values_[i].is_param && static_cast<int32_t>(i) != loss.id)
      Release(Value{static_cast<int32_t>(i)});
  log_.instrs.push_back(TraceInstr::Annotate("BACKWARD"));
  std::string seed_grad = Fresh();
  log_.instrs.push_back(
      TraceInstr::Call("ones_like", {NameOf(loss)}, {{seed_grad, Bytes(loss), -1}}, 1000));
  grad_[loss.id] = seed_grad;
  for (size_t i = tape_.size(); i-- > 0;) RunBackward(tape_[i]);
  OptimizerStep();
  // Gradients that reached no weight (e.g. of values the loss does not
  // depend on) are dropped, as autograd frees them.
  for (const auto& [id, g] : grad_) log_.instrs.push_back(TraceInstr::Release(g));
  grad_.clear();
}

TraceLog TraceBuilder::Finish() { return std::move(log_); }

}  // namespace dtrcheck
