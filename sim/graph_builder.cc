#include "sim/graph_builder.h"

#include <algorithm>
#include <unordered_set>

namespace dtrcheck {

void GraphBuilder::Reserve(size_t lines) {
  g_.ops.reserve(g_.ops.size() + lines / 3);
  g_.tensors.reserve(g_.tensors.size() + lines / 2);
  ref_.reserve(ref_.size() + lines / 2);
  g_.schedule.reserve(g_.schedule.size() + lines);
  names_.reserve(names_.size() + lines / 2);
  map_.reserve(map_.size() + lines / 2);
}

TensorId GraphBuilder::Lookup(long line, std::string_view name) const {
  auto it = names_.find(name);
  if (it == names_.end() || it->second.map_pos == kUnbound)
    Fail(line, "reference to undefined tensor \"" + Excerpt(name) + "\"");
  return map_[it->second.map_pos].second;
}

void GraphBuilder::Bind(NameEntry& name, TensorId t) {
  Name& n = name.second;
  if (n.map_pos != kUnbound) {
    map_[n.map_pos].second = t;
  } else {
    n.map_pos = map_.size();
    map_.emplace_back(&name.first, t);
  }
}

OpId GraphBuilder::MakeOp(long line, std::vector<TensorId> args, Int cost, std::vector<Int> sizes,
                          std::vector<int32_t> alias, std::string_view name,
                          const std::vector<NameEntry*>& results) {
  OpId id = static_cast<OpId>(g_.ops.size());
  GOp op;
  op.cost = cost;
  op.size = std::move(sizes);
  op.alias = std::move(alias);
  op.args = std::move(args);
  const std::string number = std::to_string(next_id_++);
  op.name.reserve(name.size() + 1 + number.size());
  op.name.append(name).append("/").append(number);
  // simrd marks the backward pass from the first operator whose name says so.
  in_bwd_ = in_bwd_ || name.find("backward") != std::string::npos;
  op.bwd = in_bwd_;
  op.result.reserve(results.size());
  for (size_t i = 0; i < results.size(); ++i) {
    const std::string_view res_name = results[i]->first;
    bool& defined = results[i]->second.defined;
    if (defined) Fail(line, "tensor \"" + Excerpt(res_name) + "\" is defined twice");
    defined = true;
    GTensor t;
    t.op = id;
    t.index = static_cast<int32_t>(i);
    t.name.assign(res_name);
    int32_t a = op.alias[i];
    t.storage_size = a >= 0 ? g_.tensors[op.args[a]].storage_size : op.size[i];
    op.result.push_back(static_cast<TensorId>(g_.tensors.size()));
    g_.tensors.push_back(std::move(t));
    ref_.push_back(0);
  }
  g_.compute += op.cost;
  g_.ops.push_back(std::move(op));
  return id;
}

void GraphBuilder::Constant(long line, std::string_view name, Int bytes) {
  NameEntry& entry = Entry(name);
  OpId op = MakeOp(line, {}, 0, {bytes}, {-1}, "constant", {&entry});
  g_.schedule.push_back({CommandKind::kCompute, op, static_cast<int32_t>(line)});
  TensorId v = g_.ops[op].result[0];
  g_.schedule.push_back({CommandKind::kPin, v, static_cast<int32_t>(line)});
  Bind(entry, v);
  ref_[v] = 1;
}

void GraphBuilder::Copy(long line, std::string_view dst, std::string_view src) {
  TensorId t = Lookup(line, src);
  NameEntry& entry = Entry(dst);
  if (Bound(entry)) Fail(line, "COPY destination \"" + Excerpt(dst) + "\" is already defined");
  Bind(entry, t);
  ref_[t] += 1;
  g_.schedule.push_back({CommandKind::kGet, t, static_cast<int32_t>(line)});
}

void GraphBuilder::CopyFrom(long line, std::string_view dst, std::string_view src) {
  TensorId old = Lookup(line, dst);
  TensorId t = Lookup(line, src);
  Bind(Entry(dst), t);
  ref_[old] -= 1;
  ref_[t] += 1;
  g_.schedule.push_back({CommandKind::kRelease, old, static_cast<int32_t>(line)});
  g_.schedule.push_back({CommandKind::kGet, t, static_cast<int32_t>(line)});
}

void GraphBuilder::Release(long line, std::string_view name) {
  auto it = names_.find(name);
  if (it != names_.end() && it->second.map_pos != kUnbound) {
    TensorId t = map_[it->second.map_pos].second;
    ref_[t] -= 1;
    g_.schedule.push_back({CommandKind::kRelease, t, static_cast<int32_t>(line)});
  } else if (!options_.ignore_undefined_release) {
    Fail(line, "release of undefined tensor \"" + Excerpt(name) + "\"");
  }
}

void GraphBuilder::Call(long line, std::string_view op_name, std::vector<TensorId> args,
                        const std::vector<CallResult>& results, Int time) {
  if (results.empty()) Fail(line, "CALL without results");
  std::vector<Int> sizes;
  std::vector<int32_t> alias;
  sizes.reserve(results.size());
  alias.reserve(results.size());
  std::vector<NameEntry*>& entries = entries_;
  entries.clear();
  for (const CallResult& r : results) {
    // The readers check this when they read the ALIAS line; a log built in
    // memory may not have been read.
    if (r.alias < -1 || r.alias >= static_cast<int64_t>(args.size()))
      Fail(line, "ALIAS index out of range of the arguments");
    alias.push_back(r.alias);
    sizes.push_back(r.alias != -1 ? Int(0) : r.memory);
  }
  for (const CallResult& r : results) {
    entries.push_back(&Entry(r.name));
    if (Bound(*entries.back())) Fail(line, "result \"" + Excerpt(r.name) + "\" is already defined");
  }
  OpId op =
      MakeOp(line, std::move(args), time, std::move(sizes), std::move(alias), op_name, entries);
  for (size_t k = 0; k < results.size(); ++k) {
    TensorId t = g_.ops[op].result[k];
    ref_[t] = 1;
    Bind(*entries[k], t);
  }
  g_.schedule.push_back({CommandKind::kCompute, op, static_cast<int32_t>(line)});
}

void GraphBuilder::Mutate(long line, std::string_view op_name,
                          const std::vector<std::string>& arg_names, std::vector<TensorId> args,
                          const std::vector<size_t>& mutate, Int time) {
  // An op without outputs: simrd's compute materializes tensors[0] (IndexError).
  if (mutate.empty()) Fail(line, "MUTATE without mutated arguments");
  std::vector<Int> sizes;
  std::vector<int32_t> alias;
  sizes.reserve(mutate.size());
  alias.reserve(mutate.size());
  std::vector<NameEntry*>& entries = entries_;
  entries.clear();
  for (size_t m : mutate) {
    if (m >= args.size()) Fail(line, "MUTATE index out of range of the arguments");
    sizes.push_back(g_.tensors[args[m]].storage_size);
    alias.push_back(-1);
    entries.push_back(&Entry(g_.tensors[args[m]].name + "$"));
  }
  OpId op =
      MakeOp(line, std::move(args), time, std::move(sizes), std::move(alias), op_name, entries);
  g_.schedule.push_back({CommandKind::kCompute, op, static_cast<int32_t>(line)});
  for (size_t k = 0; k < mutate.size(); ++k) {
    NameEntry& entry = Entry(arg_names[mutate[k]]);
    // Bound: the argument was looked up by this name.
    TensorId old = map_[entry.second.map_pos].second;
    TensorId t = g_.ops[op].result[k];
    Bind(entry, t);
    ref_[t] = 1;
    ref_[old] -= 1;
    g_.schedule.push_back({CommandKind::kRelease, old, static_cast<int32_t>(line)});
  }
}

void GraphBuilder::Annotate(std::string_view annotation) {
  if (annotation == "BACKWARD") in_bwd_ = true;
}

Graph GraphBuilder::Finish() {
  // Outputs: every name whose tensor is still referenced, in dict order.
  std::unordered_set<std::string> outputs;
  for (const auto& entry : map_) {
    const TensorId t = entry.second;
    if (ref_[t] <= 0) continue;
    const GTensor& gt = g_.tensors[t];
    const GOp& op = g_.ops[gt.op];
    int32_t a = op.alias[gt.index];
    std::string storage_name = a >= 0 ? g_.tensors[op.args[a]].name : gt.name;
    if (options_.out_cond == OutputCondition::kRematerialize) {
      g_.schedule.push_back({CommandKind::kPin, t});
    } else if (!outputs.count(storage_name)) {
      g_.output_ram += gt.storage_size;
    }
    outputs.insert(storage_name);
  }
  g_.outputs.assign(outputs.begin(), outputs.end());
  std::sort(g_.outputs.begin(), g_.outputs.end());
  // Reserve's room is an upper bound from the line count, about twice what
  // the public logs use: the graph outlives the parse, and its unused room
  // would lie between the blocks a run touches, each huge page of the heap
  // (cli/heap_pages.h) zeroed whole (on the LSTM trace, 2.3 MB: one huge
  // page of ten, for 0.2% more instructions to move the rest).
  g_.ops.shrink_to_fit();
  g_.tensors.shrink_to_fit();
  g_.schedule.shrink_to_fit();
  return std::move(g_);
}

}  // namespace dtrcheck
