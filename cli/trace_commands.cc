// dtrcheck trace-path NAME, dtrcheck traces: the public and the captured traces,
// located and verified by traces/locate.h and traces/captured.h.
#include <iostream>

#include "cli/commands.h"
#include "cli/trace_argument.h"
#include "io/json_fields.h"
#include "traces/captured.h"
#include "traces/locate.h"

namespace dtrcheck {

namespace {

struct TracePathOptions {
  std::string name;
};

CLI::App* RegisterTracePath(CLI::App& app, TracePathOptions* o) {
  auto* cmd = app.add_subcommand("trace-path",
                                 "print the absolute path of a verified public or captured trace");
  cmd->add_option("NAME", o->name, std::string("trace name: ") + kTraceNames)->required();
  return cmd;
}

int RunTracePath(const TracePathOptions& o) {
  std::cout << LocateNamedTrace(o.name) << "\n";  // throws TraceLocateError: exit 2
  return 0;
}

struct TracesOptions {
  bool json = false;
};

CLI::App* RegisterTraces(CLI::App& app, TracesOptions* o) {
  auto* cmd = app.add_subcommand(
      "traces", "list the public and captured traces, where they are, and whether they verify");
  cmd->add_flag("--json", o->json,
                "print one JSON object: {\"traces\": [{name, kind, path, check}]}");
  return cmd;
}

int RunTraces(const TracesOptions& o) {
  Json listed = Json::array();
  auto list = [&](const std::string& name, const char* kind, const std::string& path,
                  const char* check) {
    if (o.json)
      listed.push_back({{"name", name}, {"kind", kind}, {"path", path}, {"check", check}});
    else
      std::cout << name << "\t" << (path.empty() ? "-" : path) << "\t" << check << "\n";
  };
  bool all_verified = true;
  for (const auto& t : PublicTraces()) {
    LocatedTrace found = InspectPublicTrace(t.name);
    const char* check = found.check == TraceCheck::kVerified   ? "verified"
                        : found.check == TraceCheck::kMismatch ? "SHA-256-MISMATCH"
                                                               : "missing";
    all_verified = all_verified && found.check == TraceCheck::kVerified;
    list(t.name, "public", found.path, check);
  }
  // Captured traces: decompressed into the cache on demand, then verified.
  bool captured_verified = true;
  for (const auto& t : CapturedTraces()) {
    try {
      std::string path = LocateCapturedTrace(t.name);
      list(t.name, "captured", path, "verified");
    } catch (const TraceLocateError& e) {
      captured_verified = false;
      list(t.name, "captured", "", "error");
      std::cerr << "dtrcheck traces: " << e.what() << "\n";
    }
  }
  if (!all_verified) {
    std::cerr << "dtrcheck traces: not every trace is present and verified; searched:";
    for (const auto& dir : TraceSearchPath())
      std::cerr << "\n  " << dir.path << "  [" << dir.origin << "]";
    std::cerr << "\nrun traces/fetch_traces.sh on a machine with internet access, or set "
                 "DTRCHECK_TRACES\n";
  }
  if (o.json) std::cout << Json{{"traces", listed}}.dump(2) << "\n";
  return all_verified && captured_verified ? 0 : 1;
}

}  // namespace

Action AddTracePathCommand(CLI::App& app) {
  auto o = std::make_shared<TracePathOptions>();
  return {RegisterTracePath(app, o.get()), [o] { return RunTracePath(*o); }};
}

Action AddTracesCommand(CLI::App& app) {
  auto o = std::make_shared<TracesOptions>();
  return {RegisterTraces(app, o.get()), [o] { return RunTraces(*o); }};
}

}  // namespace dtrcheck
