// simrd's parse_file without the reading: the Graph and schedule that each
// log instruction adds (simrd/parse/parse.py, the body of its loop).
//
// Two front ends feed it: ParseTrace (sim/parse.h), which decodes log text,
// and TraceLogGraph (io/trace_graph.h), which walks a TraceLog that a
// generator or the reducer built in memory. So a generated trace becomes the
// Graph its log text would become, without writing and parsing that text.
// Every error is a TraceError naming the file and the line the instruction
// occupies (or would occupy) in the log.
#ifndef DTRCHECK_SIM_GRAPH_BUILDER_H_
#define DTRCHECK_SIM_GRAPH_BUILDER_H_

#include <cstdint>
#include <memory_resource>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/graph.h"
#include "sim/log_line.h"  // TraceError
#include "sim/parse.h"     // ParseOptions

namespace dtrcheck {

// One result of a CALL: its MEMORY and ALIAS lines.
struct CallResult {
  std::string_view name;  // must outlive the Call
  Int memory = 0;         // ignored for an alias, as in simrd
  int32_t alias = -1;     // index into the CALL's arguments, or -1
};

class GraphBuilder {
 public:
  GraphBuilder(std::string file, const ParseOptions& options)
      : file_(std::move(file)), options_(options) {}

  // Room for what a log of `lines` more lines may add, so that the graph's
  // arrays do not move their elements as they grow (most of a parse's time
  // went to that). A CALL takes at least three lines (with a MEMORY and an
  // ALIAS line per result), a CONSTANT two; a hint, not a limit.
  void Reserve(size_t lines);

  // The tensor a name refers to now (tensor_map[name]).
  TensorId Lookup(long line, std::string_view name) const;

  // `line` is the line errors name: for a constant its MEMORY line, as in
  // simrd, where the constant is made when that line is read.
  void Constant(long line, std::string_view name, Int bytes);
  void Copy(long line, std::string_view dst, std::string_view src);
  void CopyFrom(long line, std::string_view dst, std::string_view src);
  void Release(long line, std::string_view name);
  // `args` are the arguments' tensors, looked up (Lookup) before the
  // result lines were read, as simrd does.
  void Call(long line, std::string_view op, std::vector<TensorId> args,
            const std::vector<CallResult>& results, Int time);
  void Mutate(long line, std::string_view op, const std::vector<std::string>& arg_names,
              std::vector<TensorId> args, const std::vector<size_t>& mutate, Int time);
  void Annotate(std::string_view annotation);

  // Pins or sizes the outputs (the names still referenced) and returns the
  // Graph. The builder is spent afterwards.
  Graph Finish();

 private:
  [[noreturn]] void Fail(long line, const std::string& message) const {
    throw TraceError(file_, line, message);
  }
  // Every name the log has used, in one table: whether an op's result has
  // it (simrd's g.tensors keys) and its place in map_ if tensor_map has it.
  // An entry is found once per use of a name (Entry) and then read and
  // written through: its node does not move.
  static constexpr size_t kUnbound = SIZE_MAX;
  struct Name {
    size_t map_pos = kUnbound;
    bool defined = false;
  };
  using NameEntry = std::pair<const std::pmr::string, Name>;
  // Names are looked up as views of the log's text: no string is made for
  // a name the table has. The table's nodes and long names are carved from
  // one growing buffer (names_memory_) and freed with it at once: a trace
  // has as many names as tensors, each a node that malloc would otherwise
  // allocate and free one by one.
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
  };
  using NameTable = std::pmr::unordered_map<std::pmr::string, Name, NameHash, std::equal_to<>>;
  NameEntry& Entry(std::string_view name) {
    auto it = names_.find(name);
    if (it == names_.end()) it = names_.try_emplace(std::pmr::string(name, &names_memory_)).first;
    return *it;
  }
  // tensor_map[name] = t, keeping the position of an existing key (dict semantics).
  void Bind(NameEntry& name, TensorId t);
  static bool Bound(const NameEntry& name) { return name.second.map_pos != kUnbound; }
  // GOp.make: adds an op named "<name>/<n>" with fresh result tensors, named
  // as `results` say.
  OpId MakeOp(long line, std::vector<TensorId> args, Int cost, std::vector<Int> sizes,
              std::vector<int32_t> alias, std::string_view name,
              const std::vector<NameEntry*>& results);

  std::string file_;
  ParseOptions options_;
  Graph g_;
  bool in_bwd_ = false;
  std::vector<int64_t> ref_;  // simrd's GTensor.meta['_ref']
  std::pmr::monotonic_buffer_resource names_memory_;
  NameTable names_{&names_memory_};
  std::vector<NameEntry*> entries_;  // Call's and Mutate's, kept for their room
  // tensor_map in insertion order; the names are names_'s keys, whose nodes
  // do not move.
  std::vector<std::pair<const std::pmr::string*, TensorId>> map_;
  int64_t next_id_ = 0;
};

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_GRAPH_BUILDER_H_
