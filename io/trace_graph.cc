#include "io/trace_graph.h"

#include <optional>

#include "sim/graph_builder.h"

namespace dtrcheck {

namespace {

// The reader's range check (LogLineReader::Integer), for values that were
// never read from text.
Int Checked(Int value, const char* key, const std::string& file, long line) {
  if (std::optional<std::string> error = IntegerRangeError(value, key, false))
    throw TraceError(file, line, *error);
  return value;
}

}  // namespace

Graph TraceLogGraph(const TraceLog& log, const std::string& file, const ParseOptions& options) {
  size_t k = 0;
  long line = 1;  // the line instrs[k] starts on
  if (options.start) {
    while (true) {
      if (k == log.instrs.size()) {
        long last = line - 1;  // ParseTrace names the log's last line
        throw TraceError(file, last, "no START annotation (use --no-start for logs without one)");
      }
      const TraceInstr& in = log.instrs[k++];
      line += static_cast<long>(in.LineCount());
      if (in.op == TraceOp::kAnnotate && in.name == "START") break;
    }
  }
  GraphBuilder b(file, options);
  // Room for the whole graph at once, as the text parser makes (a fuzz
  // case's graph is built once per input, each allocation costly under ASan).
  size_t lines = 0;
  for (size_t i = k; i < log.instrs.size(); ++i) lines += log.instrs[i].LineCount();
  b.Reserve(lines);
  for (; k < log.instrs.size(); ++k) {
    const TraceInstr& in = log.instrs[k];
    switch (in.op) {
      case TraceOp::kConstant:
        // As the writer requires (io/trace_writer.cc).
        if (in.results.size() != 1 || in.results[0].name != in.name)
          throw TraceError(file, line,
                           "CONSTANT \"" + in.name + "\" must have exactly its own result");
        b.Constant(line + 1, in.name, Checked(in.results[0].memory, "MEMORY", file, line + 1));
        break;
      case TraceOp::kCopy:
        b.Copy(line, in.dst, in.src);
        break;
      case TraceOp::kCopyFrom:
        b.CopyFrom(line, in.dst, in.src);
        break;
      case TraceOp::kRelease:
        b.Release(line, in.name);
        break;
      case TraceOp::kCall: {
        std::vector<TensorId> args;
        for (const std::string& a : in.args) args.push_back(b.Lookup(line, a));
        std::vector<CallResult> results;
        long memory_line = line + 1;
        for (const TraceResult& r : in.results) {
          // The reader checks the ALIAS line (LogLineReader::AliasIndex), then MEMORY.
          if (std::optional<std::string> error = IntegerRangeError(r.alias, "ALIAS", true))
            throw TraceError(file, memory_line + 1, *error);
          if (r.alias >= static_cast<int64_t>(args.size()))
            throw TraceError(file, memory_line + 1, "ALIAS index out of range of the arguments");
          results.push_back({r.name, Checked(r.memory, "MEMORY", file, memory_line), r.alias});
          memory_line += 2;
        }
        b.Call(line, in.name, std::move(args), results, Checked(in.time, "TIME", file, line));
        break;
      }
      case TraceOp::kMutate: {
        std::vector<TensorId> args;
        for (const std::string& a : in.args) args.push_back(b.Lookup(line, a));
        std::vector<size_t> mutate;
        for (int32_t m : in.mutate) {
          if (m < 0) throw TraceError(file, line, "MUTATE index is not an argument index");
          mutate.push_back(static_cast<size_t>(m));
        }
        b.Mutate(line, in.name, in.args, std::move(args), mutate,
                 Checked(in.time, "TIME", file, line));
        break;
      }
      case TraceOp::kAnnotate:
        b.Annotate(in.name);
        break;
    }
    line += static_cast<long>(in.LineCount());
  }
  return b.Finish();
}

}  // namespace dtrcheck
