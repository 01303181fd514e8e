// dtrcheck kinds: the pathology kinds, one list (analysis/reduce_property.h's
// TracePropertyNames) that `reduce --property`, the archive's folders
// (corpus/<kind>/) and the fuzzing campaign (fuzz/campaign_lib/layout.py
// reads it from here) share.
#include <iostream>
#include <memory>

#include "analysis/reduce_property.h"
#include "cli/commands.h"
#include "io/json.h"

namespace dtrcheck {

namespace {

struct KindsOptions {
  bool json = false;
};

CLI::App* RegisterKinds(CLI::App& app, KindsOptions* o) {
  auto* cmd = app.add_subcommand(
      "kinds", "list the pathology kinds (reduce --property, the archive's folders), one a line");
  cmd->add_flag("--json", o->json, "print one JSON object: {\"kinds\": [...]}");
  return cmd;
}

int RunKinds(const KindsOptions& o) {
  if (o.json) {
    std::cout << Json{{"kinds", TracePropertyNames()}}.dump() << "\n";
  } else {
    for (const std::string& kind : TracePropertyNames()) std::cout << kind << "\n";
  }
  return 0;
}

}  // namespace

Action AddKindsCommand(CLI::App& app) {
  auto o = std::make_shared<KindsOptions>();
  return {RegisterKinds(app, o.get()), [o] { return RunKinds(*o); }};
}

}  // namespace dtrcheck
