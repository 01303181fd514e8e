#include "traces/synthetic/generators.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <stdexcept>

#include "traces/synthetic/trace_builder.h"

namespace dtrcheck {

namespace {

// No call below has two arguments that draw random numbers or add to the
// log: C++ leaves the order in which arguments are evaluated unspecified
// (GCC evaluates these right to left, clang left to right), so such a call
// made a different trace under each compiler. Where a call needs two, the
// later argument is drawn into a local first: GCC's order, which made every
// trace recorded before.

// Sizes and times of one model, drawn from the builder's random numbers.
class Model {
 public:
  Model(TraceBuilder& b, int64_t base) : b_(b), base_(base) {}

  TraceBuilder& b() { return b_; }
  GenRng& rng() { return b_.rng(); }

  // An activation: base * [1/2, 1) * 2^k with P(k) = 2^-(k+1), k <= 4; a
  // multiple of 4 bytes, as float32 tensors are.
  Int Act() { return Round4(base_ * static_cast<int64_t>(rng().HeavyTail(4, 4)) / 8); }
  // A weight: a sixteenth of an activation, with a longer tail (large
  // fully-connected layers).
  Int Weight() { return Round4(base_ * static_cast<int64_t>(rng().HeavyTail(7, 4)) / 128); }
  Int Small() { return 4 * rng().Range(1, 64); }
  Int Cheap() { return static_cast<Int>(rng().LogUniform(1000, 30000)); }
  Int Expensive() { return static_cast<Int>(rng().LogUniform(100000, 3000000)); }

  Value Conv(Value x, Int bytes) {
    Value w = b_.Param(Weight());
    return b_.Op1("cudnn_convolution", {x, w}, bytes, Expensive(), Save::kInputs);
  }
  // cudnn_batch_norm's tuple: output, saved mean, saved inverse deviation.
  Value BatchNorm(Value x) {
    Value gamma = b_.Param(Small()), beta = b_.Param(Small());
    Int time = Cheap();
    auto outs = b_.Op("cudnn_batch_norm", {x, gamma, beta},
                      {{b_.Bytes(x), true}, {Small(), false}, {Small(), false}}, time, Save::kBoth);
    b_.Release(outs[1]);
    b_.Release(outs[2]);
    return outs[0];
  }
  Value Relu(Value x) {
    if (rng().Chance(1, 2)) return b_.InPlace("relu_", x, {}, Cheap());
    Value y = b_.Op1("relu", {x}, b_.Bytes(x), Cheap(), Save::kOutputs);
    b_.Release(x);
    return y;
  }
  Value ConvBnRelu(Value x, Int bytes) {
    Value c = Conv(x, bytes);
    Value n = BatchNorm(c);
    b_.Release(c);
    return Relu(n);
  }
  // A classifier head and nll loss; returns the loss.
  Value Loss(Value x) {
    Value flat = b_.View("view", x, 1000);
    Value w = b_.Param(Weight());
    Int time = Expensive();
    Value logits = b_.Op1("addmm", {flat, w}, Small(), time, Save::kInputs);
    b_.Release(flat);
    Value lsm = b_.Op1("_log_softmax", {logits}, b_.Bytes(logits), Cheap(), Save::kOutputs);
    b_.Release(logits);
    Value target = b_.Input(Small());
    auto outs =
        b_.Op("nll_loss_forward", {lsm, target}, {{4, true}, {4, false}}, Cheap(), Save::kBoth);
    b_.Release(lsm);
    b_.Release(outs[1]);
    return outs[0];
  }

 private:
  static Int Round4(int64_t v) { return std::max<int64_t>(4, v / 4 * 4); }

  TraceBuilder& b_;
  int64_t base_;
};

Value Chain(Model& m, int layers, int width) {
  TraceBuilder& b = m.b();
  Value x = b.Input(m.Act());
  for (int l = 0; l < layers; ++l) {
    Value w = b.Param(m.Weight());
    Int time = m.Expensive();
    Value y = b.Op1("mm", {x, w}, m.Act(), time, Save::kInputs);
    b.Release(x);
    for (int k = 1; k < width; ++k) {
      switch (m.rng().Below(3)) {
        case 0: {
          Value bias = b.Param(m.Small());
          Value z = b.Op1("add", {y, bias}, b.Bytes(y), m.Cheap(), Save::kNothing);
          b.Release(y);
          y = z;
          break;
        }
        case 1: {
          Int time = m.Cheap();
          y = b.InPlace("mul_", y, {b.Param(m.Small())}, time);
          break;
        }
        default: {
          Value v = b.View("view", y, 1000);
          Value z = b.Op1("mul", {v, v}, b.Bytes(y), m.Cheap(), Save::kInputs);
          b.Release(v);
          b.Release(y);
          y = z;
        }
      }
    }
    x = m.Relu(y);
  }
  return m.Loss(x);
}

Value Resnet(Model& m, int blocks, int width) {
  TraceBuilder& b = m.b();
  Int bytes0 = m.Act();
  Value x = m.ConvBnRelu(b.Input(m.Act()), bytes0);
  for (int k = 0; k < blocks; ++k) {
    Value h = x;
    Int bytes = m.Act();
    for (int c = 0; c < width; ++c) {
      Value conv = m.Conv(h, bytes);
      if (h.id != x.id) b.Release(h);
      h = m.BatchNorm(conv);
      b.Release(conv);
      if (c + 1 < width) h = m.Relu(h);
    }
    // Every third block changes resolution; its shortcut is a slice (a view).
    Value shortcut = x;
    if (k % 3 == 2) shortcut = b.View("slice", x, 1000);
    Value sum = b.Op1("add", {h, shortcut}, b.Bytes(h), m.Cheap(), Save::kNothing);
    b.Release(h);
    if (shortcut.id != x.id) b.Release(shortcut);
    b.Release(x);
    x = m.Relu(sum);
  }
  Int time = m.Cheap();
  Value pooled = b.Op1("avg_pool2d", {x}, m.Small(), time, Save::kInputs);
  b.Release(x);
  return m.Loss(pooled);
}

Value Unet(Model& m, int levels, int width) {
  TraceBuilder& b = m.b();
  Value x = b.Input(m.Act());
  // Convolutions that consume x (releasing it unless it is kept as a skip).
  auto convs = [&](Value x, const std::vector<Value>& keep) {
    for (int c = 0; c < width; ++c) {
      Value y = m.ConvBnRelu(x, m.Act());
      if (std::none_of(keep.begin(), keep.end(), [&](Value k) { return k.id == x.id; }))
        b.Release(x);
      x = y;
    }
    return x;
  };
  std::vector<Value> skips;
  for (int l = 0; l < levels; ++l) {
    x = convs(x, {});
    skips.push_back(x);  // kept for the way up
    auto pooled =
        b.Op("max_pool2d_with_indices", {x},
             {{b.Bytes(x) / 4 + 4, true}, {b.Bytes(x) / 8 + 4, false}}, m.Cheap(), Save::kBoth);
    b.Release(pooled[1]);
    x = pooled[0];
  }
  x = convs(x, {});
  for (int l = levels; l-- > 0;) {
    Value up = b.Op1("upsample_bilinear2d", {x}, b.Bytes(skips[l]), m.Cheap(), Save::kNothing);
    b.Release(x);
    Value cat =
        b.Op1("cat", {up, skips[l]}, b.Bytes(up) + b.Bytes(skips[l]), m.Cheap(), Save::kNothing);
    b.Release(up);
    b.Release(skips[l]);
    x = convs(cat, {});
  }
  return m.Loss(x);
}

Value Lstm(Model& m, int steps, int stacked) {
  TraceBuilder& b = m.b();
  Int hidden = m.Act() / 4 + 4;
  std::vector<Value> w_ih, w_hh, h, c;
  for (int l = 0; l < stacked; ++l) {
    w_ih.push_back(b.Param(m.Weight()));
    w_hh.push_back(b.Param(m.Weight()));
    h.push_back(b.Input(hidden));
    c.push_back(b.Input(hidden));
  }
  // The input sequence arrives in batches split into per-step views.
  std::deque<Value> inputs;
  for (int t = 0; t < steps; ++t) {
    if (inputs.empty()) {
      int n = std::min(steps - t, 32);
      Value batch = b.Input(hidden * n);
      for (Value v : b.Split("split", batch, n, 1000)) inputs.push_back(v);
      b.Release(batch);
    }
    Value in = inputs.front();
    inputs.pop_front();
    for (int l = 0; l < stacked; ++l) {
      Value wt = b.View("t", w_ih[l], 1000);
      Value g1 = b.Op1("mm", {in, wt}, 4 * hidden, m.Expensive(), Save::kInputs);
      b.Release(wt);
      Value ut = b.View("t", w_hh[l], 1000);
      Value g2 = b.Op1("mm", {h[l], ut}, 4 * hidden, m.Expensive(), Save::kInputs);
      b.Release(ut);
      Value gates = b.Op1("add", {g1, g2}, 4 * hidden, m.Cheap(), Save::kNothing);
      b.Release(g1);
      b.Release(g2);
      auto cell =
          b.Op("lstm_cell", {gates, c[l]}, {{hidden, true}, {hidden, true}, {4 * hidden, false}},
               m.Cheap(), Save::kBoth);
      b.Release(gates);
      b.Release(cell[2]);
      if (l == 0) b.Release(in);
      b.Release(h[l]);
      b.Release(c[l]);
      h[l] = cell[0];
      c[l] = cell[1];
      in = h[l];
    }
  }
  for (int l = 0; l + 1 < stacked; ++l) b.Release(h[l]);
  for (int l = 0; l < stacked; ++l) b.Release(c[l]);
  return m.Loss(h[stacked - 1]);
}

Value Tree(Model& m, int depth, int arity) {
  TraceBuilder& b = m.b();
  Int hidden = m.Act() / 4 + 4;
  Value embedding = b.Param(m.Weight()), w_leaf = b.Param(m.Weight()), w_node = b.Param(m.Weight());
  std::function<std::pair<Value, Value>(int)> node = [&](int d) -> std::pair<Value, Value> {
    if (d == 0) {
      Value word = b.Input(m.Small());
      Value x = b.Op1("embedding", {word, embedding}, hidden, m.Cheap(), Save::kInputs);
      auto hc = b.Op("leaf_cell", {x, w_leaf}, {{hidden, true}, {hidden, true}}, m.Expensive(),
                     Save::kBoth);
      b.Release(x);
      return {hc[0], hc[1]};
    }
    std::vector<Value> args;
    std::vector<std::pair<Value, Value>> kids;
    for (int k = 0; k < arity; ++k) kids.push_back(node(d - 1));
    for (auto& [kh, kc] : kids) args.push_back(kh);
    for (auto& [kh, kc] : kids) args.push_back(kc);
    args.push_back(w_node);
    auto hc =
        b.Op("tree_lstm_cell", args, {{hidden, true}, {hidden, true}}, m.Expensive(), Save::kBoth);
    for (auto& [kh, kc] : kids) {
      b.Release(kh);
      b.Release(kc);
    }
    return {hc[0], hc[1]};
  };
  auto [root_h, root_c] = node(depth);
  b.Release(root_c);
  return m.Loss(root_h);
}

Value Dag(Model& m, int ops, int fan_in) {
  TraceBuilder& b = m.b();
  const size_t kWindow = 8;  // an op reads only recent values; older ones are released
  std::deque<Value> live = {b.Input(m.Act()), b.Input(m.Act())};
  GenRng& rng = m.rng();
  for (int i = 0; i < ops; ++i) {
    int n = static_cast<int>(rng.Range(1, fan_in));
    std::vector<Value> in;
    for (int k = 0; k < n; ++k) in.push_back(live[live.size() - 1 - rng.Below(live.size())]);
    if (rng.Chance(1, 2)) in.push_back(b.Param(m.Weight()));
    switch (rng.Below(5)) {
      case 0: {
        Int time = m.Expensive();
        live.push_back(b.Op1("matmul", in, m.Act(), time, Save::kInputs));
        break;
      }
      case 1: {
        Int time = m.Cheap();
        live.push_back(b.Op1("pointwise", in, m.Act(), time, Save::kNothing));
        break;
      }
      case 2: {
        Save save = rng.Chance(1, 2) ? Save::kBoth : Save::kOutputs;
        Int time = m.Expensive();
        auto outs = b.Op("fused", in, {{m.Act(), true}, {m.Act(), rng.Chance(1, 2)}}, time, save);
        live.push_back(outs[0]);
        live.push_back(outs[1]);
        break;
      }
      case 3:
        live.push_back(b.View("view", in[0], 1000));
        break;
      default: {
        // In place on a recent value that is not a view and not a weight; the
        // old value is no longer readable, so it leaves the window.
        auto it = std::find_if(live.rbegin(), live.rend(),
                               [&](Value v) { return !b.IsView(v) && rng.Chance(2, 3); });
        if (it == live.rend()) {
          Int time = m.Cheap();
          live.push_back(b.Op1("pointwise", in, m.Act(), time, Save::kNothing));
          break;
        }
        *it = b.InPlace("add_", *it, {in.back()}, m.Cheap());
      }
    }
    while (live.size() > kWindow) {
      b.Release(live.front());
      live.pop_front();
    }
  }
  Value sum = live.back();
  live.pop_back();
  for (Value v : live) {
    Value s = b.Op1("add", {sum, v}, b.Bytes(sum), m.Cheap(), Save::kNothing);
    b.Release(sum);
    b.Release(v);
    sum = s;
  }
  return m.Loss(sum);
}

using ShapeFn = Value (*)(Model&, int, int);

const std::vector<std::pair<std::string, ShapeFn>>& Shapes() {
  static const std::vector<std::pair<std::string, ShapeFn>> shapes = {
      {"chain", Chain}, {"resnet", Resnet}, {"unet", Unet},
      {"lstm", Lstm},   {"tree", Tree},     {"dag", Dag}};
  return shapes;
}

}  // namespace

const std::vector<std::string>& GeneratorShapes() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [name, fn] : Shapes()) out.push_back(name);
    return out;
  }();
  return names;
}

TraceLog GenerateTrace(const GeneratorParams& p) {
  ShapeFn fn = nullptr;
  std::string valid;
  for (const auto& [name, f] : Shapes()) {
    if (name == p.shape) fn = f;
    valid += (valid.empty() ? "" : ", ") + name;
  }
  if (!fn) throw std::invalid_argument("unknown shape \"" + p.shape + "\"; valid: " + valid);
  if (p.layers < 1 || p.layers > 4096) throw std::invalid_argument("layers must be in [1, 4096]");
  if (p.width < 1 || p.width > 16) throw std::invalid_argument("width must be in [1, 16]");
  if (p.base_bytes < 4 || p.base_bytes > (int64_t(1) << 40))
    throw std::invalid_argument("base bytes must be in [4, 2^40]");
  if (p.shape == "tree") {
    int64_t leaves = 1;
    for (int d = 0; d < p.layers && leaves <= 4096; ++d) leaves *= p.width;
    if (leaves > 4096)
      throw std::invalid_argument("tree: width^layers must be at most 4096 leaves");
  }
  // The shape and its parameters are mixed into the seed, so that traces of
  // different shapes with the same seed do not share their random numbers.
  uint64_t seed = p.seed;
  for (char ch : p.shape) seed = seed * 131 + static_cast<unsigned char>(ch);
  seed = seed * 1000003 + static_cast<uint64_t>(p.layers) * 17 + static_cast<uint64_t>(p.width);
  TraceBuilder builder(seed);
  Model model(builder, p.base_bytes);
  Value loss = fn(model, p.layers, p.width);
  builder.Backward(loss);
  return builder.Finish();
}

}  // namespace dtrcheck
