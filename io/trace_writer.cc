#include "io/trace_writer.h"

#include <cstdio>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"

namespace dtrcheck {

namespace {

// nlohmann::json keeps object keys in a std::map: sorted, like Python's
// json.dumps(sort_keys=True), which is how the public traces were written.
using nlohmann::json;

void Emit(std::ostream& out, const json& j) {
  // ensure_ascii, as Python's json.dumps does by default.
  out << j.dump(-1, ' ', /*ensure_ascii=*/true) << '\n';
}

void EmitMemory(std::ostream& out, const TraceResult& r) {
  Emit(out, {{"INSTRUCTION", "MEMORY"}, {"MEMORY", IntToString(r.memory)}, {"NAME", r.name}});
}

}  // namespace

void WriteTraceLog(const TraceLog& log, std::ostream& out) {
  for (const TraceInstr& i : log.instrs) {
    switch (i.op) {
      case TraceOp::kConstant:
        if (i.results.size() != 1 || i.results[0].name != i.name)
          throw std::invalid_argument("CONSTANT \"" + i.name +
                                      "\" must have exactly its own result");
        Emit(out, {{"INSTRUCTION", "CONSTANT"}, {"NAME", i.name}});
        EmitMemory(out, i.results[0]);
        break;
      case TraceOp::kCopy:
      case TraceOp::kCopyFrom:
        Emit(out, {{"DST", i.dst},
                   {"INSTRUCTION", i.op == TraceOp::kCopy ? "COPY" : "COPY_FROM"},
                   {"SRC", i.src}});
        break;
      case TraceOp::kRelease:
        Emit(out, {{"INSTRUCTION", "RELEASE"}, {"NAME", i.name}});
        break;
      case TraceOp::kCall: {
        json results = json::array();
        for (const auto& r : i.results) results.push_back(r.name);
        Emit(out, {{"ARGS", i.args},
                   {"INSTRUCTION", "CALL"},
                   {"NAME", i.name},
                   {"RESULT", results},
                   {"TIME", IntToString(i.time)}});
        for (const auto& r : i.results) {
          EmitMemory(out, r);
          Emit(out,
               {{"ALIAS", std::to_string(r.alias)}, {"INSTRUCTION", "ALIAS"}, {"NAME", r.name}});
        }
        break;
      }
      case TraceOp::kMutate:
        Emit(out, {{"ARGS", i.args},
                   {"INSTRUCTION", "MUTATE"},
                   {"MUTATE", i.mutate},
                   {"NAME", i.name},
                   {"TIME", IntToString(i.time)}});
        break;
      case TraceOp::kAnnotate:
        Emit(out, {{"ANNOTATION", i.name}, {"INSTRUCTION", "ANNOTATE"}});
        break;
    }
  }
}

std::string TraceLogText(const TraceLog& log) {
  std::ostringstream out;
  WriteTraceLog(log, out);
  return out.str();
}

void WriteTraceLogFile(const TraceLog& log, const std::string& path) {
  AtomicFile out(path);
  WriteTraceLog(log, out.stream());
  out.Commit();
}

}  // namespace dtrcheck
