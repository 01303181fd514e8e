// libFuzzer target: structure-aware search for DTR pathologies.
//
// Each input decodes (fuzz/lib/fuzz_case.h; any bytes are a valid case) into
// a synthetic training trace, a runtime/heuristic pair simrd accepts and a
// budget grid; the grid is swept and checked (fuzz/lib/fuzz_check.h). A
// feasibility inversion, a pinned-frontier oom or a regime cliff beyond
// $DTRCHECK_FUZZ_CLIFF_FACTOR (within $DTRCHECK_FUZZ_CLIFF_GAP of the peak)
// is reported by aborting with a line naming it,
//   dtrcheck-finding: inversion: ratio 0.31 (budget ...) ok 1.204x -> ...
// so that libFuzzer writes the input as a crash artifact; `dtrcheck
// fuzz-decode ARTIFACT` triages it.
//
// With $DTRCHECK_FUZZ_CLAIMS set to a directory (fuzz/campaign sets it), a
// finding is reported only the first time its signature is seen by any
// process sharing the directory: the first one to create
// CLAIMS/<SignatureId> (holding the input) aborts, the others go on fuzzing.
// A campaign thus spends its time on new pathologies, not on restarts for
// the same one.
//
// $DTRCHECK_FUZZ_ON_FINDING changes what happens after a report:
//   abort  (default) as above;
//   claim  the claim file is the artifact: print the report and go on
//          fuzzing, saving a restart per finding (fuzz/campaign);
//   print  no claims: print each signature the first time this process
//          sees it and go on (CI smoke runs tell expected pathologies from
//          crashes this way).
//
// $DTRCHECK_PLUGINS (paths separated by ':') loads plugin heuristics, as
// `dtrcheck --plugin` does; the fuzzer then searches their pairs only
// (FuzzCasePairs, fuzz/lib/fuzz_case.h). `fuzz/campaign --plugin` sets it.
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

#include "fuzz/lib/fuzz_case.h"
#include "fuzz/lib/fuzz_check.h"
#include "plugins/plugin_heuristic.h"

namespace {

using namespace dtrcheck;

const FuzzCheckOptions& Options() {
  static const FuzzCheckOptions options = [] {
    try {
      return FuzzCheckOptionsFromEnv();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "pathology_fuzzer: %s\n", e.what());
      std::exit(2);
    }
  }();
  return options;
}

// True if this process is the first to report `f` (or no claims directory
// is set). The claim is written to a temporary file and linked into place,
// so a claim file is never seen half-written and exactly one linker wins.
bool Claim(const FuzzFinding& f, const uint8_t* data, size_t size) {
  const char* dir = std::getenv("DTRCHECK_FUZZ_CLAIMS");
  if (!dir || !*dir) return true;
  std::string path = std::string(dir) + "/" + SignatureId(f.signature);
  if (access(path.c_str(), F_OK) == 0) return false;
  std::string tmp = path + ".tmp" + std::to_string(getpid());
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return true;  // cannot claim: report it anyway
  bool written = write(fd, data, size) == static_cast<ssize_t>(size);
  close(fd);
  int linked = written ? link(tmp.c_str(), path.c_str()) : -1;
  int error = errno;
  unlink(tmp.c_str());
  // Only "someone else claimed it" suppresses a report; any other failure reports.
  return linked == 0 || !written || error != EEXIST;
}

enum class OnFinding { kAbort, kClaim, kPrint };

OnFinding Mode() {
  static const OnFinding mode = [] {
    const char* text = std::getenv("DTRCHECK_FUZZ_ON_FINDING");
    std::string m = text ? text : "abort";
    if (m == "abort") return OnFinding::kAbort;
    if (m == "claim") return OnFinding::kClaim;
    if (m == "print") return OnFinding::kPrint;
    std::fprintf(stderr,
                 "pathology_fuzzer: DTRCHECK_FUZZ_ON_FINDING=%s: expected abort, claim or print\n",
                 text);
    std::exit(2);
  }();
  return mode;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  try {
    LoadPlugins();
    FuzzCasePairs();  // refuses plugins that no runtime accepts, before any input
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pathology_fuzzer: %s\n", e.what());
    std::exit(2);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static std::set<std::string> printed;
  FuzzCase c = DecodeFuzzCase(data, size);
  FuzzCheck check = CheckFuzzCase(c, Options());
  for (const FuzzFinding& f : check.findings) {
    bool first =
        Mode() == OnFinding::kPrint ? printed.insert(f.signature).second : Claim(f, data, size);
    if (!first) continue;
    std::fprintf(stderr, "dtrcheck-finding: %s\ndtrcheck-signature: %s\n%s", f.Describe().c_str(),
                 f.signature.c_str(), DescribeFuzzCase(c).c_str());
    if (Mode() == OnFinding::kAbort) std::abort();
  }
  return 0;
}
