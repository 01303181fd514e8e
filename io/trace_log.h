// A simrd log as a list of instructions, before it becomes a Graph.
//
// ParseTrace (sim/parse.h) turns a log into the Graph that simrd simulates;
// a TraceLog keeps the log itself, so that tools can build logs (the
// synthetic generators), edit them (the reducer) and write them back
// (io/trace_writer.h). Each TraceInstr is one instruction together with the
// MEMORY and ALIAS lines that belong to it, so that removing an instruction
// never leaves a stray line behind.
#ifndef DTRCHECK_IO_TRACE_LOG_H_
#define DTRCHECK_IO_TRACE_LOG_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/python/py_arith.h"

namespace dtrcheck {

// One output of a CALL or CONSTANT: its MEMORY and ALIAS lines.
struct TraceResult {
  std::string name;
  Int memory = 0;      // bytes; simrd ignores it for an alias
  int32_t alias = -1;  // index into the CALL's args whose storage it shares, or -1
  bool operator==(const TraceResult&) const = default;
};

enum class TraceOp : uint8_t { kConstant, kCopy, kCopyFrom, kRelease, kCall, kMutate, kAnnotate };

// The fields each kind uses (the others stay empty):
//   CONSTANT   name (the tensor), results = {{name, bytes, -1}}  (+ its MEMORY line)
//   COPY       dst, src      dst becomes another name for src's tensor
//   COPY_FROM  dst, src      dst drops its tensor and names src's
//   RELEASE    name
//   CALL       name (the operator), args, results, time  (+ MEMORY, ALIAS per result)
//   MUTATE     name, args, mutate (indices into args), time
//   ANNOTATE   name (the annotation: START, BACKWARD, ...)
struct TraceInstr {
  TraceOp op = TraceOp::kAnnotate;
  std::string name;
  std::string dst, src;
  std::vector<std::string> args;
  std::vector<TraceResult> results;
  std::vector<int32_t> mutate;
  Int time = 0;

  static TraceInstr Constant(std::string tensor, Int bytes);
  static TraceInstr Copy(std::string dst, std::string src);
  static TraceInstr CopyFrom(std::string dst, std::string src);
  static TraceInstr Release(std::string tensor);
  static TraceInstr Call(std::string op, std::vector<std::string> args,
                         std::vector<TraceResult> results, Int time);
  static TraceInstr Mutate(std::string op, std::vector<std::string> args,
                           std::vector<int32_t> mutate, Int time);
  static TraceInstr Annotate(std::string annotation);

  // Log lines it occupies (CALL: 1 + 2 per result; CONSTANT: 2).
  size_t LineCount() const;
  bool operator==(const TraceInstr&) const = default;
};

struct TraceLog {
  std::vector<TraceInstr> instrs;

  // Operators simrd will compute: CONSTANT, CALL and MUTATE instructions.
  size_t NumOperators() const;
  bool operator==(const TraceLog&) const = default;
};

// Reads a log into instructions. Every line must be a JSON object with a
// known INSTRUCTION, and every MEMORY/ALIAS line must follow its CONSTANT or
// CALL in order (as simrd requires after START; the reader requires it
// everywhere). Numbers may be JSON integers or decimal strings, as in simrd.
// Throws TraceError (sim/parse.h) naming the file and line.
TraceLog ReadTraceLog(std::string_view text, const std::string& file);
TraceLog ReadTraceLogFile(const std::string& path);

}  // namespace dtrcheck

#endif  // DTRCHECK_IO_TRACE_LOG_H_
