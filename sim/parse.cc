#include "sim/parse.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include <simdjson.h>

#include "base/file_text.h"
#include "sim/graph_builder.h"
#include "sim/log_line.h"

namespace dtrcheck {

namespace {

// Two JSON readers decode the log's lines. The reference reader
// (LogLineReader, sim/log_line.h: nlohmann::json) decodes every line before
// any is interpreted (as simrd does), and its reading gives every error
// message. The fast reader,
// simdjson, is about fifteen times faster on the public traces; it decodes a
// line when the parser reaches it and gives up on the first thing it does not
// accept, and on any error at all, whereupon the log is parsed again by the
// reference reader. So both readers build the same Graph from a good log, and
// every bad log gets the reference reader's error.
struct UseReferenceReader {};

// The keys the parser reads. The fast reader finds them all in one pass
// over a line's object (FastLine), not one scan of it per field read.
enum Key : uint8_t {
  kInstructionKey,
  kNameKey,
  kMemoryKey,
  kAliasKey,
  kArgsKey,
  kResultKey,
  kTimeKey,
  kMutateKey,
  kDstKey,
  kSrcKey,
  kAnnotationKey,
  kKeyCount
};
constexpr const char* kKeyNames[kKeyCount] = {"INSTRUCTION", "NAME",   "MEMORY",    "ALIAS",
                                              "ARGS",        "RESULT", "TIME",      "MUTATE",
                                              "DST",         "SRC",    "ANNOTATION"};

// The key a field's name is, or kKeyCount for any other name.
Key KeyOf(std::string_view name) {
  for (uint8_t k = 0; k < kKeyCount; ++k)
    if (name == kKeyNames[k]) return static_cast<Key>(k);
  return kKeyCount;
}

// One log line, decoded by one of the readers: the reference reader's
// object is LogLine::j (sim/log_line.h), the fast reader's the values in
// `fields` (see FastLine for how long they live).
struct Instr : LogLine {
  // The fast reader's values of the keys in `present` (bit k for Key k).
  simdjson::dom::element fields[kKeyCount];
  uint32_t present = 0;
};

class Parser {
 public:
  // fast: decode with simdjson; `text` must then be followed by
  // simdjson::SIMDJSON_PADDING readable bytes.
  Parser(const std::string& file, const ParseOptions& options, bool fast)
      : reference_(file), options_(options), fast_(fast) {}

  // done_with_text, if set, is called once every line is read, before the
  // graph is finished: the caller may free the text then.
  Graph Run(std::string_view text, const std::function<void()>& done_with_text = {});

 private:
  [[noreturn]] void Fail(long line, const std::string& message) const {
    if (fast_) throw UseReferenceReader{};
    reference_.Fail(line, message);
  }
  simdjson::dom::element FastField(const Instr& in, Key key) const {
    if ((in.present >> key & 1) == 0) Fail(in.line, "");
    return in.fields[key];
  }
  // The string as a view: of the fast reader's line (valid until kFastRing
  // more lines are read), or of *scratch, which the reference reader's copy
  // goes to.
  std::string_view StringView(const Instr& in, Key key, std::string* scratch) const {
    if (fast_) {
      std::string_view v;
      if (FastField(in, key).get_string().get(v)) Fail(in.line, "");
      return v;
    }
    *scratch = reference_.String(in, kKeyNames[key]);
    return *scratch;
  }
  // Into *out, whose strings keep their room from line to line.
  void StringListField(const Instr& in, Key key, std::vector<std::string>* out) const {
    if (fast_) {
      simdjson::dom::array list;
      if (FastField(in, key).get_array().get(list)) Fail(in.line, "");
      out->resize(list.size());
      size_t i = 0;
      for (simdjson::dom::element e : list) {
        std::string_view v;
        if (e.get_string().get(v)) Fail(in.line, "");
        (*out)[i++].assign(v);
      }
      return;
    }
    *out = reference_.Names(in, kKeyNames[key]);
  }
  // As LogLineReader::AliasIndex and MutateIndices.
  int32_t AliasField(const Instr& in, size_t n_args) const;
  std::vector<size_t> MutateField(const Instr& in, size_t n_args) const;
  // As LogLineReader::Integer.
  Int IntField(const Instr& in, Key key, bool allow_minus_one = false) const;
  // The key must be present; its value is not read.
  void RequireField(const Instr& in, Key key) const {
    if (fast_) {
      FastField(in, key);
    } else {
      reference_.Field(in, kKeyNames[key]);
    }
  }

  // The fast reader's line k (0-based). Lines are decoded into a ring of
  // kFastRing slots, each with its own simdjson parser whose buffers hold
  // the line's values, so a line's fields stay readable until kFastRing
  // more lines are decoded. Run reads all of a line's fields before it reads
  // more than one line ahead, except its number, which only errors use (and
  // errors make the reference reader start over).
  const Instr& FastLine(std::string_view line_text, size_t k);
  static constexpr size_t kFastRing = 4;
  LogLineReader reference_;
  ParseOptions options_;
  bool fast_;
  simdjson::dom::parser fast_parsers_[kFastRing];
  Instr fast_lines_[kFastRing];
  // Run's per-line values, reused so that reading a line allocates nothing
  // once they have grown: the NAME of a CONSTANT, CALL or MUTATE line, a
  // CALL's arguments' and results' names (copied: the lines that follow may
  // outlast the ring), and spare strings for the reference reader's
  // StringView.
  std::string name_;
  std::vector<std::string> arg_names_, result_names_;
  std::vector<CallResult> results_;
  std::string scratch_[2];
};

Int Parser::IntField(const Instr& in, Key key, bool allow_minus_one) const {
  if (!fast_) return reference_.Integer(in, kKeyNames[key], allow_minus_one);
  simdjson::dom::element v = FastField(in, key);
  std::optional<Int> value;
  int64_t i;
  uint64_t u;
  std::string_view s;
  if (!v.get_int64().get(i)) {
    value = Int(i);
  } else if (!v.get_uint64().get(u)) {
    value = Int(u);
  } else if (!v.get_string().get(s)) {
    value = ParseInt(s);
  }
  if (!value || *value < (allow_minus_one ? -1 : 0) || *value > Int(INT64_MAX)) Fail(in.line, "");
  return *value;
}

const Instr& Parser::FastLine(std::string_view line_text, size_t k) {
  if (line_text.size() > kMaxLineBytes) Fail(static_cast<long>(k + 1), "");
  line_text = StripLogLine(line_text);
  Instr& in = fast_lines_[k % kFastRing];
  in.line = static_cast<long>(k + 1);
  simdjson::dom::element doc;
  simdjson::dom::object object;
  if (fast_parsers_[k % kFastRing].parse(line_text.data(), line_text.size(), false).get(doc) ||
      doc.get_object().get(object))
    Fail(in.line, "");
  // Python keeps the last of repeated keys, simdjson finds the first: leave
  // lines that repeat a key the parser reads to the reference reader (no
  // other key is read, so its repeats change nothing).
  in.present = 0;
  for (simdjson::dom::key_value_pair field : object) {
    const Key key = KeyOf(field.key);
    if (key == kKeyCount) continue;
    if (in.present >> key & 1) Fail(in.line, "");
    in.present |= uint32_t{1} << key;
    in.fields[key] = field.value;
  }
  std::string_view name;
  if (FastField(in, kInstructionKey).get_string().get(name)) Fail(in.line, "");
  std::optional<LineKind> kind = LineKindFromName(name);
  if (!kind) Fail(in.line, "");
  in.kind = *kind;
  return in;
}

int32_t Parser::AliasField(const Instr& in, size_t n_args) const {
  if (!fast_) return reference_.AliasIndex(in, n_args);
  Int a = IntField(in, kAliasKey, /*allow_minus_one=*/true);
  if (a >= Int(n_args)) Fail(in.line, "");
  return static_cast<int32_t>(a);
}

std::vector<size_t> Parser::MutateField(const Instr& in, size_t n_args) const {
  std::vector<size_t> mutate;
  if (fast_) {
    simdjson::dom::array list;
    if (FastField(in, kMutateKey).get_array().get(list)) Fail(in.line, "");
    for (simdjson::dom::element e : list) {
      int64_t i;
      if (e.get_int64().get(i) || i < 0 || i >= int64_t(n_args)) Fail(in.line, "");
      mutate.push_back(static_cast<size_t>(i));
    }
    return mutate;
  }
  return reference_.MutateIndices(in, n_args);
}

Graph Parser::Run(std::string_view text, const std::function<void()>& done_with_text) {
  // The reference reader decodes every line first, as simrd does (a bad
  // line is reported before any error of meaning), but keeps none: lines are
  // decoded again when reached, into a ring of kFastRing slots as the fast
  // reader's, so memory does not grow with the log. Lines are read in order,
  // each once per pass: no list of them is made.
  long line_count = 0;
  if (!fast_) {
    LogLines all(text);
    for (std::string_view t; all.Next(&t);) reference_.Decode(t, ++line_count);
  }
  Instr ring[kFastRing];
  LogLines lines(text);
  std::string_view next_text;  // line i, if `more`
  bool more = lines.Next(&next_text);
  size_t i = 0;
  // Line i, decoded; then i and next_text move on.
  auto take = [&]() -> const Instr& {
    const size_t k = i++;
    const std::string_view t = next_text;
    more = lines.Next(&next_text);
    if (fast_) return FastLine(t, k);
    Instr& slot = ring[k % kFastRing];
    slot = Instr{reference_.Decode(t, static_cast<long>(k + 1)), {}};
    return slot;
  };

  if (options_.start) {
    while (true) {
      // The fast reader's Fail leaves the message to the reference reader.
      if (!more) Fail(line_count, "no START annotation (use --no-start for logs without one)");
      const Instr& in = take();
      if (in.kind == LineKind::kAnnotate && StringView(in, kAnnotationKey, &scratch_[0]) == "START")
        break;
    }
  }
  // A line is held only until kFastRing more are read: a CALL keeps its
  // own line number, not its line, across its results.
  auto pop = [&](long owner_line, const char* what) -> const Instr& {
    if (!more)
      Fail(owner_line, std::string("expected a ") + what + " line, found the end of the log");
    return take();
  };

  GraphBuilder b(reference_.file(), options_);
  // Each line ends with a newline but perhaps the last (or uses lone CRs:
  // the count is only a hint).
  if (more)
    b.Reserve(static_cast<size_t>(std::count(next_text.data(), text.data() + text.size(), '\n')) +
              1);
  while (more) {
    const Instr& l = take();
    switch (l.kind) {
      case LineKind::kConstant: {
        name_.assign(StringView(l, kNameKey, &scratch_[0]));
        const std::string& name = name_;
        const Instr& m = pop(l.line, "MEMORY");
        if (m.kind != LineKind::kMemory)
          Fail(m.line, "expected the MEMORY line of constant \"" + Excerpt(name) + "\"");
        const std::string_view memory_name = StringView(m, kNameKey, &scratch_[0]);
        if (memory_name != name)
          Fail(m.line, "MEMORY line names \"" + Excerpt(memory_name) + "\", expected \"" +
                           Excerpt(name) + "\"");
        b.Constant(m.line, name, IntField(m, kMemoryKey));
        break;
      }
      case LineKind::kCopy:
        b.Copy(l.line, StringView(l, kDstKey, &scratch_[0]), StringView(l, kSrcKey, &scratch_[1]));
        break;
      case LineKind::kRelease:
        b.Release(l.line, StringView(l, kNameKey, &scratch_[0]));
        break;
      case LineKind::kCall:
      case LineKind::kMutate: {
        bool call = l.kind == LineKind::kCall;
        const long line = l.line;
        name_.assign(StringView(l, kNameKey, &scratch_[0]));
        const std::string& name = name_;
        std::vector<std::string>& arg_names = arg_names_;
        StringListField(l, kArgsKey, &arg_names);
        Int time = IntField(l, kTimeKey);
        std::vector<TensorId> args;
        args.reserve(arg_names.size());
        for (const auto& a : arg_names) args.push_back(b.Lookup(l.line, a));
        if (call) {
          std::vector<std::string>& names = result_names_;
          StringListField(l, kResultKey, &names);
          std::vector<CallResult>& results = results_;
          results.clear();
          for (const auto& r : names) {
            const Instr& m = pop(line, "MEMORY");
            if (m.kind != LineKind::kMemory || StringView(m, kNameKey, &scratch_[0]) != r)
              Fail(m.line, "expected the MEMORY line of \"" + Excerpt(r) + "\"");
            const Instr& al = pop(line, "ALIAS");
            if (al.kind != LineKind::kAlias || StringView(al, kNameKey, &scratch_[0]) != r)
              Fail(al.line, "expected the ALIAS line of \"" + Excerpt(r) + "\"");
            int32_t a = AliasField(al, args.size());
            // simrd reads a view's MEMORY value with int() only when ALIAS is
            // -1 (`0 if alias != -1 else int(memory)`): a view's MEMORY may
            // hold anything, but the key must be there (j["MEMORY"]).
            Int memory = 0;
            if (a == -1) {
              memory = IntField(m, kMemoryKey);
            } else {
              RequireField(m, kMemoryKey);
            }
            results.push_back(CallResult{r, memory, a});
          }
          b.Call(line, name, std::move(args), results, time);
        } else {
          std::vector<size_t> mutate = MutateField(l, args.size());
          b.Mutate(l.line, name, arg_names, std::move(args), mutate, time);
        }
        break;
      }
      case LineKind::kAnnotate:
        b.Annotate(StringView(l, kAnnotationKey, &scratch_[0]));
        break;
      case LineKind::kCopyFrom:
        b.CopyFrom(l.line, StringView(l, kDstKey, &scratch_[0]),
                   StringView(l, kSrcKey, &scratch_[1]));
        break;
      case LineKind::kMemory:
        Fail(l.line, "MEMORY line outside a CONSTANT or CALL");
      case LineKind::kAlias:
        Fail(l.line, "ALIAS line outside a CALL");
    }
  }
  if (done_with_text) done_with_text();
  return b.Finish();
}

// `text` must be followed by simdjson::SIMDJSON_PADDING readable bytes
// unless options.reference_json_reader. done_with_text: as Parser::Run's;
// once it has been called no reader goes back to the text.
Graph ParsePaddedTrace(std::string_view text, const std::string& file, const ParseOptions& options,
                       const std::function<void()>& done_with_text = {}) {
  bool done = false;
  const std::function<void()> done_once = [&] {
    done = true;
    if (done_with_text) done_with_text();
  };
  if (!options.reference_json_reader) {
    try {
      return Parser(file, options, /*fast=*/true).Run(text, done_once);
    } catch (const UseReferenceReader&) {
      if (done) throw;
    } catch (const TraceError&) {
      // From the GraphBuilder: the reference reader gives the error again,
      // unless a line it decodes before that one is bad.
      if (done) throw;
    }
  }
  return Parser(file, options, /*fast=*/false).Run(text, done_once);
}

}  // namespace

Graph ParseTrace(std::string_view text, const std::string& file, const ParseOptions& options) {
  if (options.reference_json_reader) return ParsePaddedTrace(text, file, options);
  simdjson::padded_string padded(text.data(), text.size());
  return ParsePaddedTrace(padded, file, options);
}

Graph ParseTraceFile(const std::string& path, const ParseOptions& options) {
  static_assert(FileText::kPadding >= simdjson::SIMDJSON_PADDING);
  // The text is freed as soon as the last line is read: the graph's last
  // steps (the end-of-log pins, its arrays cut to size, which copies them)
  // then need no room beside it. A log of a 1,000,000-operator chain is
  // 244 MB (issue 45, class 3).
  std::optional<FileText> file(std::in_place, path);
  return ParsePaddedTrace(file->text(), path, options, [&file] { file.reset(); });
}

}  // namespace dtrcheck
