#include "io/trace_log.h"

#include <string>

#include "base/file_text.h"
#include "sim/log_line.h"
#include "sim/parse.h"

namespace dtrcheck {

TraceInstr TraceInstr::Constant(std::string tensor, Int bytes) {
  TraceInstr i;
  i.op = TraceOp::kConstant;
  i.results = {{tensor, bytes, -1}};
  i.name = std::move(tensor);
  return i;
}

TraceInstr TraceInstr::Copy(std::string dst, std::string src) {
  TraceInstr i;
  i.op = TraceOp::kCopy;
  i.dst = std::move(dst);
  i.src = std::move(src);
  return i;
}

TraceInstr TraceInstr::CopyFrom(std::string dst, std::string src) {
  TraceInstr i = Copy(std::move(dst), std::move(src));
  i.op = TraceOp::kCopyFrom;
  return i;
}

TraceInstr TraceInstr::Release(std::string tensor) {
  TraceInstr i;
  i.op = TraceOp::kRelease;
  i.name = std::move(tensor);
  return i;
}

TraceInstr TraceInstr::Call(std::string op, std::vector<std::string> args,
                            std::vector<TraceResult> results, Int time) {
  TraceInstr i;
  i.op = TraceOp::kCall;
  i.name = std::move(op);
  i.args = std::move(args);
  i.results = std::move(results);
  i.time = time;
  return i;
}

TraceInstr TraceInstr::Mutate(std::string op, std::vector<std::string> args,
                              std::vector<int32_t> mutate, Int time) {
  TraceInstr i;
  i.op = TraceOp::kMutate;
  i.name = std::move(op);
  i.args = std::move(args);
  i.mutate = std::move(mutate);
  i.time = time;
  return i;
}

TraceInstr TraceInstr::Annotate(std::string annotation) {
  TraceInstr i;
  i.op = TraceOp::kAnnotate;
  i.name = std::move(annotation);
  return i;
}

size_t TraceInstr::LineCount() const {
  switch (op) {
    case TraceOp::kConstant:
      return 2;
    case TraceOp::kCall:
      return 1 + 2 * results.size();
    default:
      return 1;
  }
}

size_t TraceLog::NumOperators() const {
  size_t n = 0;
  for (const auto& i : instrs)
    n += i.op == TraceOp::kConstant || i.op == TraceOp::kCall || i.op == TraceOp::kMutate;
  return n;
}

namespace {

// Instructions from lines: each CONSTANT or CALL takes the MEMORY and ALIAS
// lines that follow it. Lines and fields are read by LogLineReader, as
// ParseTrace reads them.
class Reader {
 public:
  explicit Reader(const std::string& file) : lines_(file) {}

  TraceLog Run(std::string_view text);

 private:
  // The next line, which must be the MEMORY or ALIAS line of `name`.
  const LogLine& Expect(size_t i, LineKind kind, const std::string& name, long owner) {
    const std::string what = std::string(LineKindName(kind));
    if (i >= raw_.size())
      lines_.Fail(owner, "expected the " + what + " line of \"" + Excerpt(name) +
                             "\", found the end of the log");
    const LogLine& l = At(i);
    if (l.kind != kind || lines_.String(l, "NAME") != name)
      lines_.Fail(l.line, "expected the " + what + " line of \"" + Excerpt(name) + "\"");
    return l;
  }

  // Line i, decoded when first asked for. Lines are asked for in order and
  // at most kRing of them are in use at once (a CALL's MEMORY and ALIAS
  // lines), so only those are kept: memory does not grow with the log.
  const LogLine& At(size_t i) {
    LogLine& slot = ring_[i % kRing];
    if (slot.line != long(i + 1)) slot = lines_.Decode(raw_[i], long(i + 1));
    return slot;
  }

  static constexpr size_t kRing = 4;
  LogLineReader lines_;
  std::vector<std::string_view> raw_;
  LogLine ring_[kRing];
};

TraceLog Reader::Run(std::string_view text) {
  raw_ = SplitLogLines(text);
  // simrd decodes every line before it interprets any, so a bad line is
  // reported before any error of meaning; the decoded lines are not kept.
  for (size_t k = 0; k < raw_.size(); ++k) lines_.Decode(raw_[k], long(k + 1));

  TraceLog log;
  for (size_t i = 0; i < raw_.size();) {
    const LogLine& l = At(i++);
    switch (l.kind) {
      case LineKind::kConstant: {
        std::string name = lines_.String(l, "NAME");
        const LogLine& m = Expect(i++, LineKind::kMemory, name, l.line);
        log.instrs.push_back(TraceInstr::Constant(name, lines_.Integer(m, "MEMORY")));
        break;
      }
      case LineKind::kCall: {
        std::vector<TraceResult> results;
        std::string name = lines_.String(l, "NAME");
        std::vector<std::string> args = lines_.Names(l, "ARGS");
        Int time = lines_.Integer(l, "TIME");
        const long call_line = l.line;  // l's slot is reused after two results
        for (const auto& r : lines_.Names(l, "RESULT")) {
          const LogLine& m = Expect(i++, LineKind::kMemory, r, call_line);
          const LogLine& a = Expect(i++, LineKind::kAlias, r, call_line);
          int32_t alias = lines_.AliasIndex(a, args.size());
          results.push_back({r, lines_.Integer(m, "MEMORY"), alias});
        }
        log.instrs.push_back(
            TraceInstr::Call(std::move(name), std::move(args), std::move(results), time));
        break;
      }
      case LineKind::kMutate: {
        std::vector<std::string> args = lines_.Names(l, "ARGS");
        std::vector<int32_t> mutate;
        for (size_t m : lines_.MutateIndices(l, args.size()))
          mutate.push_back(static_cast<int32_t>(m));
        log.instrs.push_back(TraceInstr::Mutate(lines_.String(l, "NAME"), std::move(args),
                                                std::move(mutate), lines_.Integer(l, "TIME")));
        break;
      }
      case LineKind::kCopy:
        log.instrs.push_back(TraceInstr::Copy(lines_.String(l, "DST"), lines_.String(l, "SRC")));
        break;
      case LineKind::kCopyFrom:
        log.instrs.push_back(
            TraceInstr::CopyFrom(lines_.String(l, "DST"), lines_.String(l, "SRC")));
        break;
      case LineKind::kRelease:
        log.instrs.push_back(TraceInstr::Release(lines_.String(l, "NAME")));
        break;
      case LineKind::kAnnotate:
        log.instrs.push_back(TraceInstr::Annotate(lines_.String(l, "ANNOTATION")));
        break;
      case LineKind::kMemory:
      case LineKind::kAlias:
        lines_.Fail(l.line, std::string(LineKindName(l.kind)) + " line outside a CONSTANT or CALL");
    }
  }
  return log;
}

}  // namespace

TraceLog ReadTraceLog(std::string_view text, const std::string& file) {
  return Reader(file).Run(text);
}

TraceLog ReadTraceLogFile(const std::string& path) {
  const FileText file(path);
  return ReadTraceLog(file.text(), path);
}

}  // namespace dtrcheck
