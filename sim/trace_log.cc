#include "sim/trace_log.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

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
    case TraceOp::kConstant: return 2;
    case TraceOp::kCall: return 1 + 2 * results.size();
    default: return 1;
  }
}

size_t TraceLog::NumOperators() const {
  size_t n = 0;
  for (const auto& i : instrs)
    n += i.op == TraceOp::kConstant || i.op == TraceOp::kCall || i.op == TraceOp::kMutate;
  return n;
}

namespace {

using nlohmann::json;

struct Line {
  long number;
  json j;
  std::string kind;
};

class Reader {
 public:
  explicit Reader(const std::string& file) : file_(file) {}

  TraceLog Run(std::string_view text);

 private:
  [[noreturn]] void Fail(long line, const std::string& message) const {
    throw TraceError(file_, line, message);
  }
  const json& Field(const Line& l, const char* key) const {
    auto it = l.j.find(key);
    if (it == l.j.end()) Fail(l.number, l.kind + " line without field \"" + key + "\"");
    return *it;
  }
  std::string String(const Line& l, const char* key) const {
    const json& v = Field(l, key);
    if (!v.is_string()) Fail(l.number, std::string("field \"") + key + "\" must be a string");
    return v.get<std::string>();
  }
  std::vector<std::string> Names(const Line& l, const char* key) const {
    const json& v = Field(l, key);
    std::vector<std::string> out;
    if (v.is_array())
      for (const json& e : v)
        if (e.is_string()) out.push_back(e.get<std::string>());
    if (!v.is_array() || out.size() != v.size())
      Fail(l.number, std::string("field \"") + key + "\" must be a list of names");
    return out;
  }
  // simrd applies int() to these; logs write them as decimal strings.
  Int Number(const Line& l, const char* key) const {
    const json& v = Field(l, key);
    std::optional<Int> n;
    if (v.is_number_integer())
      n = v.is_number_unsigned() ? Int(v.get<uint64_t>()) : Int(v.get<int64_t>());
    else if (v.is_string())
      n = ParseInt(v.get<std::string>());
    if (!n) Fail(l.number, std::string("field \"") + key + "\" is not an integer: " + v.dump());
    return *n;
  }
  // The next line, which must be the MEMORY or ALIAS line of `name`.
  const Line& Expect(size_t i, const char* kind, const std::string& name, long owner) const {
    if (i >= lines_.size())
      Fail(owner, std::string("expected the ") + kind + " line of \"" + name + "\", found the end of the log");
    const Line& l = lines_[i];
    if (l.kind != kind || String(l, "NAME") != name)
      Fail(l.number, std::string("expected the ") + kind + " line of \"" + name + "\"");
    return l;
  }

  std::string file_;
  std::vector<Line> lines_;
};

TraceLog Reader::Run(std::string_view text) {
  long number = 0;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view s = text.substr(pos, end - pos);
    pos = end + 1;
    ++number;
    while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    Line l{number, json(), ""};
    try {
      l.j = json::parse(s);
    } catch (const json::exception& e) {  // also out_of_range: a number like 7E777 overflows
      Fail(number, std::string("bad JSON: ") + e.what());
    }
    if (!l.j.is_object()) Fail(number, "expected a JSON object");
    auto it = l.j.find("INSTRUCTION");
    if (it == l.j.end() || !it->is_string()) Fail(number, "missing string field \"INSTRUCTION\"");
    l.kind = it->get<std::string>();
    lines_.push_back(std::move(l));
  }

  TraceLog log;
  for (size_t i = 0; i < lines_.size();) {
    const Line& l = lines_[i++];
    if (l.kind == "CONSTANT") {
      std::string name = String(l, "NAME");
      const Line& m = Expect(i++, "MEMORY", name, l.number);
      log.instrs.push_back(TraceInstr::Constant(name, Number(m, "MEMORY")));
    } else if (l.kind == "CALL") {
      std::vector<TraceResult> results;
      std::string name = String(l, "NAME");
      std::vector<std::string> args = Names(l, "ARGS");
      Int time = Number(l, "TIME");
      for (const auto& r : Names(l, "RESULT")) {
        const Line& m = Expect(i++, "MEMORY", r, l.number);
        const Line& a = Expect(i++, "ALIAS", r, l.number);
        Int alias = Number(a, "ALIAS");
        if (alias < -1 || alias >= Int(args.size()))
          Fail(a.number, "ALIAS must be -1 or an index into the CALL's arguments");
        results.push_back({r, Number(m, "MEMORY"), static_cast<int32_t>(alias)});
      }
      log.instrs.push_back(TraceInstr::Call(std::move(name), std::move(args), std::move(results), time));
    } else if (l.kind == "MUTATE") {
      std::vector<std::string> args = Names(l, "ARGS");
      std::vector<int32_t> mutate;
      const json& mv = Field(l, "MUTATE");
      if (!mv.is_array()) Fail(l.number, "field \"MUTATE\" must be a list of argument indices");
      for (const json& e : mv) {
        if (!e.is_number_integer() || e.get<int64_t>() < 0 || e.get<int64_t>() >= int64_t(args.size()))
          Fail(l.number, "MUTATE index out of range of the arguments");
        mutate.push_back(static_cast<int32_t>(e.get<int64_t>()));
      }
      log.instrs.push_back(TraceInstr::Mutate(String(l, "NAME"), std::move(args), std::move(mutate),
                                              Number(l, "TIME")));
    } else if (l.kind == "COPY") {
      log.instrs.push_back(TraceInstr::Copy(String(l, "DST"), String(l, "SRC")));
    } else if (l.kind == "COPY_FROM") {
      log.instrs.push_back(TraceInstr::CopyFrom(String(l, "DST"), String(l, "SRC")));
    } else if (l.kind == "RELEASE") {
      log.instrs.push_back(TraceInstr::Release(String(l, "NAME")));
    } else if (l.kind == "ANNOTATE") {
      log.instrs.push_back(TraceInstr::Annotate(String(l, "ANNOTATION")));
    } else if (l.kind == "MEMORY" || l.kind == "ALIAS") {
      Fail(l.number, l.kind + " line outside a CONSTANT or CALL");
    } else {
      Fail(l.number, "unknown instruction \"" + l.kind + "\"");
    }
  }
  return log;
}

}  // namespace

TraceLog ReadTraceLog(std::string_view text, const std::string& file) { return Reader(file).Run(text); }

TraceLog ReadTraceLogFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TraceError(path, 0, "cannot open file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw TraceError(path, 0, "read error");
  return ReadTraceLog(buffer.str(), path);
}

}  // namespace dtrcheck
