// dtrcheck archive add: file a reduced counterexample in the archive
// (corpus/<kind>/<id>/, replayed by ctest through check-finding).
//
// The input is what `dtrcheck reduce -o X.log` wrote (X.log and
// X.manifest.json), or an archived manifest (to re-file it). Before anything
// is written: the manifest is read (a missing or mistyped field is named),
// the trace's SHA-256 must be the manifest's, the property must still hold
// in dtrcheck with the records the manifest holds, and simrd, when it is
// installed, must confirm it (without simrd the manifest says "not
// confirmed by simrd"). Then <kind>/.tmp-<id>-<pid>/ is written and renamed
// to <kind>/<id>/: an entry is there whole or not at all.
//
// Exit codes: 0 filed (or already there: a duplicate, nothing written),
// 1 refused (the property does not hold, the records changed, simrd
// disagrees or failed), 2 bad input.
#include <openssl/evp.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <iostream>

#include "analysis/bucket.h"
#include "analysis/finding_manifest.h"
#include "analysis/simrd_confirm.h"
#include "cli/commands.h"
#include "cli/number_option.h"
#include "fuzz/lib/fuzz_case.h"
#include "fuzz/lib/fuzz_check.h"
#include "io/input_file.h"
#include "sim/heuristic.h"
#include "traces/locate.h"

namespace dtrcheck {

namespace {

namespace fs = std::filesystem;

constexpr char kCheckCommand[] =
    "dtrcheck check-finding manifest.json && dtrcheck check-finding --simrd manifest.json";

struct ArchiveOptions {
  std::string input;  // X.log or a manifest
  std::string archive = "corpus";
  std::string id;
  std::string fuzzer_input, found_at;
  std::optional<double> time_to_find;
  bool no_oracle = false, json = false;
};

// What became of the request: printed as one line, or as JSON with --json.
struct Outcome {
  std::string status;  // archived, duplicate, does-not-hold, records-differ,
                       // simrd-disagrees, simrd-failed
  std::string detail;
  Json extra = Json::object();
  int exit_code() const { return status == "archived" || status == "duplicate" ? 0 : 1; }
};

// A fuzzer input is a few kilobytes (kFuzzCaseBytes are used).
constexpr size_t kMaxFuzzerInputBytes = size_t{1} << 20;

std::string Base64(const std::string& bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(bytes.data()),
                          static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

// The modification time of `path`, local time, as 2026-12-02T12:01:32+0000.
std::string ModificationTime(const std::string& path) {
  auto t = fs::last_write_time(path);
  std::time_t seconds = std::chrono::system_clock::to_time_t(std::chrono::file_clock::to_sys(t));
  std::tm local{};
  localtime_r(&seconds, &local);
  char text[64];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S%z", &local);
  return text;
}

std::string Joined(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

// The fuzzer's side of the manifest: the decoded case and its finding `id`
// (signature, description, original), the input, the commands.
void AddFuzzerProvenance(const ArchiveOptions& args, const std::string& id, FindingManifest* m) {
  std::string bytes = ReadSmallFile(args.fuzzer_input, kMaxFuzzerInputBytes);
  FuzzCase c = DecodeFuzzCase(bytes);
  FuzzCheckOptions options = FuzzCheckOptionsFromEnv();
  FuzzCheck check = CheckFuzzCase(c, options);
  const FuzzFinding* finding = nullptr;
  for (const auto& f : check.findings)
    if (SignatureId(f.signature) == id) finding = &f;
  if (!finding || !finding->spec)
    throw std::invalid_argument(args.fuzzer_input + ": the fuzzer input's findings (" +
                                std::to_string(check.findings.size()) + ") have no id " + id +
                                " (dtrcheck fuzz-decode lists them)");
  Json f = FuzzFindingToJson(*finding);
  m->signature = finding->signature;
  m->description = finding->Describe();
  m->original = {{"case", FuzzCaseToJson(c)}, {"lo", f["lo"]}, {"hi", f["hi"]}};
  if (f.contains("factor")) m->original["factor"] = f["factor"];
  m->original["baseline"] = {{"peak", Json(check.baseline.peak)},
                             {"compute", Json(check.baseline.compute)}};
  m->original["cliff_options"] = {{"cliff_factor", options.cliff_factor},
                                  {"cliff_gap", options.cliff_gap}};
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  m->fuzzer = {
      {"target", "pathology_fuzzer"},
      {"input", "input.bin"},
      {"input_base64", Base64(bytes)},
      {"found_at", args.found_at.empty() ? ModificationTime(args.fuzzer_input) : args.found_at},
      {"time_to_find_seconds",
       args.time_to_find ? Json(std::round(*args.time_to_find * 10) / 10) : Json()},
      {"host", host}};
  if (m->before.is_object()) m->before["trace"] = "original.log";  // as the commands make it
  m->commands = {{"decode", "dtrcheck fuzz-decode input.bin -o original.log"},
                 {"reduce", "dtrcheck reduce original.log " + Joined(ReduceArguments(*finding)) +
                                " -o trace.log"}};
}

// An archived entry with this id, or with the same reduced trace and
// configuration: the id of the existing one.
std::optional<std::string> Duplicate(const fs::path& kind_dir, const FindingManifest& m) {
  if (fs::exists(kind_dir / m.id)) return m.id;
  if (!fs::is_directory(kind_dir)) return std::nullopt;
  for (const auto& entry : fs::directory_iterator(kind_dir)) {
    fs::path manifest = entry.path() / "manifest.json";
    if (entry.path().filename().string().starts_with(".") || !fs::exists(manifest)) continue;
    FindingManifest other = ReadFindingManifest(manifest.string());
    if (other.trace_sha256 == m.trace_sha256 &&
        ConfigToJson(other.spec.config) == ConfigToJson(m.spec.config))
      return other.id;
  }
  return std::nullopt;
}

// SIGINT, SIGTERM and SIGHUP wait while an entry is written and renamed
// (milliseconds), so that a Ctrl-C leaves no temporary directory behind.
class SignalsHeld {
 public:
  SignalsHeld() {
    sigset_t held;
    sigemptyset(&held);
    for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&held, s);
    sigprocmask(SIG_BLOCK, &held, &old_);
  }
  ~SignalsHeld() { sigprocmask(SIG_SETMASK, &old_, nullptr); }
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

 private:
  sigset_t old_;
};

// Removes a temporary directory unless it was renamed into place.
struct TemporaryDirectory {
  fs::path path;
  ~TemporaryDirectory() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

Outcome Add(const ArchiveOptions& args) {
  if (args.fuzzer_input.empty() && (!args.found_at.empty() || args.time_to_find))
    throw std::invalid_argument("--found-at and --time-to-find describe a --fuzzer-input");
  if (args.id.find_first_not_of(
          "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_") != std::string::npos)
    throw std::invalid_argument("--id " + args.id + ": letters, digits, - and _ only");
  fs::path manifest_path = args.input;
  if (manifest_path.extension() != ".json") manifest_path = ManifestPathFor(args.input);
  FindingManifest m = ReadFindingManifest(manifest_path.string());
  // Every file a manifest names stays inside its directory (ManifestFile).
  std::string trace = ManifestFile(manifest_path.string(), m.trace, "trace");
  if (!fs::is_regular_file(trace))
    throw std::invalid_argument(manifest_path.string() + ": its trace " + trace +
                                " cannot be read");
  std::string sha = Sha256OfFile(trace);
  if (sha != m.trace_sha256)
    throw std::invalid_argument(trace + ": SHA-256 " + sha + " is not the manifest's " +
                                m.trace_sha256 + " (the trace changed after it was reduced)");
  fs::path fuzzer_input = args.fuzzer_input;
  if (fuzzer_input.empty() && !m.fuzzer.is_null())  // re-filing an archived entry
    fuzzer_input = ManifestFile(manifest_path.string(),
                                JsonFields(m.fuzzer, "fuzzer").String("input"), "fuzzer.input");
  if (!fuzzer_input.empty() && !fs::is_regular_file(fuzzer_input))
    throw std::invalid_argument(fuzzer_input.string() + ": the fuzzer input cannot be read");

  // dtrcheck: the property holds, with the records the manifest holds.
  const Graph graph = ParseTraceFile(trace);
  PropertyCheck check = CheckTraceProperty(graph, m.spec);
  if (!check.holds)
    return {"does-not-hold", "the " + std::string(TracePropertyName(m.spec.property)) +
                                 " property does not hold in dtrcheck: " + check.summary};
  std::vector<std::string> changed;
  for (size_t i = 0; i < check.runs.size(); ++i)
    for (const auto& f :
         DifferingFields(m.dtrcheck.at(i), RecordToJson(check.runs[i]), m.spec.config.heuristic))
      changed.push_back("run " + std::to_string(i) + ": " + f);
  if (!changed.empty())
    return {"records-differ", "dtrcheck's records are not the manifest's: " + Joined(changed)};

  FindingManifest out = m;
  SetCheck(&out, check);
  // The labels every predicate gives the two runs, and the bucket they make:
  // one failure filed once carries all its names.
  out.bucket = BucketToJson(BucketOf(graph, m.spec));
  out.kind = TracePropertyName(m.spec.property);
  if (!args.id.empty()) out.id = args.id;
  if (out.id.empty())
    out.id = SignatureId(out.kind + "|" + ConfigToJson(m.spec.config).dump() + "|" +
                         m.budgets.dump() + "|" + m.trace_sha256);
  if (!args.fuzzer_input.empty()) AddFuzzerProvenance(args, out.id, &out);
  out.commands["check"] = kCheckCommand;
  fs::path kind_dir = fs::path(args.archive) / out.kind;
  out.archive = (kind_dir / out.id).lexically_normal().string();
  out.trace = "trace.log";
  if (auto existing = Duplicate(kind_dir, out))
    return {"duplicate",
            *existing == out.id ? "already archived" : "same reduced trace as " + *existing,
            {{"archive", (kind_dir / *existing).lexically_normal().string()}}};

  // simrd, when it is installed; a plugin's heuristic by the replay above.
  SimrdConfirmation simrd;
  if (args.no_oracle)
    simrd.error = "--no-oracle";
  else if (!IsPluginHeuristic(m.spec.config.heuristic))
    simrd = ConfirmWithSimrd(trace, m.spec, check);
  out.simrd_status = SimrdStatus(simrd);
  out.simrd = simrd.ToJson();
  if (!args.no_oracle) ConfirmPluginByReplay(check.holds, &out);
  if (simrd.available && !simrd.confirmed)
    return {simrd.error.empty() ? "simrd-disagrees" : "simrd-failed",
            simrd.error.empty() ? "simrd does not confirm the trace: a parity bug" : simrd.error,
            {{"simrd", out.simrd}}};

  // Written beside the entry, then renamed into place.
  SignalsHeld held;
  TemporaryDirectory tmp;
  std::error_code renamed;
  try {
    fs::create_directories(kind_dir);
    tmp.path = kind_dir / (".tmp-" + out.id + "-" + std::to_string(getpid()));
    fs::remove_all(tmp.path);
    fs::create_directory(tmp.path);
    fs::copy_file(trace, tmp.path / "trace.log");
    if (!fuzzer_input.empty()) fs::copy_file(fuzzer_input, tmp.path / "input.bin");
    WriteFindingManifest(out, (tmp.path / "manifest.json").string());
    fs::rename(tmp.path, kind_dir / out.id, renamed);
  } catch (const std::exception& e) {  // an archive that cannot be written
    throw std::invalid_argument(std::string("cannot write the archive: ") + e.what());
  }
  if (renamed)  // another process filed it first
    return {
        "duplicate", "already archived (" + renamed.message() + ")", {{"archive", out.archive}}};
  tmp.path.clear();
  return {"archived",
          out.summary,
          {{"archive", out.archive},
           {"simrd_status", out.simrd_status},
           {"operators", out.operators},
           {"reduction", out.reduction}}};
}

int RunArchive(const ArchiveOptions& args) {
  Outcome o = Add(args);
  if (args.json) {
    Json j = {{"status", o.status}, {"detail", o.detail}};
    j.update(o.extra);
    std::cout << j.dump() << "\n";
  } else {
    std::cout << "archive add: " << o.status;
    if (o.extra.contains("archive")) std::cout << " " << o.extra["archive"].get<std::string>();
    std::cout << ": " << o.detail;
    if (o.extra.contains("simrd_status"))
      std::cout << " (simrd: " << o.extra["simrd_status"].get<std::string>() << ")";
    std::cout << "\n";
  }
  return o.exit_code();
}

CLI::App* RegisterArchive(CLI::App& app, ArchiveOptions* args) {
  auto* archive = app.add_subcommand("archive", "the archive of reduced counterexamples");
  archive->require_subcommand(1);
  auto* cmd = archive->add_subcommand(
      "add", "check a reduced trace (dtrcheck, simrd) and file it as corpus/<kind>/<id>/");
  cmd->add_option("REDUCED", args->input,
                  "X.log with X.manifest.json beside it (dtrcheck reduce -o X.log), or a manifest")
      ->required();
  cmd->add_option("--archive", args->archive, "the archive directory")->capture_default_str();
  cmd->add_option("--id", args->id,
                  "the entry's id (default: the manifest's, else from the trace and property)");
  cmd->add_option("--fuzzer-input", args->fuzzer_input,
                  "the pathology_fuzzer input the finding came from (kept as input.bin; its "
                  "finding --id is recorded)");
  cmd->add_option("--found-at", args->found_at,
                  "when the fuzzer found it (default: the input's modification time)");
  cmd->add_option("--time-to-find", args->time_to_find,
                  "seconds from the campaign's start to the finding")
      ->check(FiniteRange(0.0, 1e12));
  cmd->add_flag("--no-oracle", args->no_oracle, "do not ask simrd (filed as not confirmed)");
  cmd->add_flag("--json", args->json, "print the outcome as one JSON object");
  return cmd;
}

}  // namespace

Action AddArchiveCommand(CLI::App& app) {
  auto args = std::make_shared<ArchiveOptions>();
  return {RegisterArchive(app, args.get()), [args] { return RunArchive(*args); }};
}

}  // namespace dtrcheck
