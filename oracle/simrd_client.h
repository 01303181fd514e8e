// Running simrd itself (oracle/simrd_oracle.py) from C++: the one C++ client
// of the oracle (oracle/simrd_client.py is the Python one). `dtrcheck diff`,
// the reducer's and the archive's confirmations and `check-finding --simrd`
// ask simrd through it.
//
// The oracle runs as a child process, started without a shell
// (posix_spawn), in its batch mode: one Python interpreter parses the trace
// once, then answers configurations one at a time, a JSON line in and a
// record out (oracle/README.md), for as long as the client keeps it.
#ifndef DTRCHECK_ORACLE_SIMRD_CLIENT_H_
#define DTRCHECK_ORACLE_SIMRD_CLIENT_H_

#include <sys/types.h>

#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/record.h"
#include "sim/parse.h"

namespace dtrcheck {

// simrd (or attrs, its one dependency) is not installed: the oracle exited
// with code 3. what() is the oracle's own message, which says how to get it.
class SimrdUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The oracle could not be started, stopped before answering, or printed
// something that is not JSON. what() ends with the tail of its stderr.
class OracleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The directory holding the simrd package, searched as the oracle does:
// $SIMRD_DIR, $SIMRD_CACHE/simrd, ${XDG_CACHE_HOME:-~/.cache}/dtrcheck/simrd.
// Nothing if simrd is not there (a quick check; the oracle has the last
// word, by exiting 3).
std::optional<std::string> FindSimrd();
// Why FindSimrd found nothing: "simrd not found (SIMRD_DIR, ...)".
extern const char kSimrdNotFound[];

// $DTRCHECK_ORACLE, else oracle/simrd_oracle.py in the source tree.
std::string OracleScript();

// One oracle process, started without a shell, that answers one JSON line
// with one JSON line for as long as it is kept (OracleBatch, OracleServer).
class OracleProcess {
 public:
  // Starts `$PYTHON (default python3) simrd_oracle.py ARGS...`. Throws
  // OracleError if it cannot be started. In its own process group, a Ctrl-C
  // on the terminal does not reach it: for commands that stop cleanly on
  // SIGINT (InterruptGuard) and still need the oracle to finish their work.
  explicit OracleProcess(const std::vector<std::string>& oracle_args,
                         bool own_process_group = false);
  // Ends the process if Finish was not called: closes its input and stops it.
  ~OracleProcess();
  OracleProcess(const OracleProcess&) = delete;
  OracleProcess& operator=(const OracleProcess&) = delete;

  // Sends `request` as one line and returns the answer line, parsed. Throws
  // SimrdUnavailable (exit 3) or OracleError.
  Json Exchange(const Json& request);
  // Closes the input and waits for the process; returns its exit code.
  int Finish();
  // The command line, for messages.
  const std::string& command() const { return command_; }

 private:
  // The exit code once the process has ended (waits for it).
  int Reap();
  // SimrdUnavailable for exit 3, else OracleError: `what` and the stderr tail.
  [[noreturn]] void Fail(const std::string& what);
  std::string StderrTail() const;

  std::string command_;
  pid_t pid_ = -1;
  int exit_code_ = -1;
  int to_child_ = -1;
  FILE* from_child_ = nullptr;
  int stderr_file_ = -1;  // an unlinked temporary file holding the oracle's stderr
};

// One oracle process: `$PYTHON (default python3) simrd_oracle.py batch TRACE`
// with the parse options (--no-start, --preallocate, --strict-release).
class OracleBatch {
 public:
  // Starts the process. Throws OracleError if it cannot be started.
  explicit OracleBatch(const std::string& trace, const ParseOptions& parse = {});

  // Sends one configuration (io/record.h ConfigToJson, plus the oracle's
  // output options stats, eviction_log, costs_at) and returns the oracle's
  // answer: a run record, or {"error": ...} for a configuration simrd
  // refuses or a trace it cannot parse. Throws SimrdUnavailable (exit 3)
  // or OracleError.
  Json Run(const Json& config) { return process_.Exchange(config); }

  // Closes the input and waits for the process; returns its exit code (the
  // oracle's: 0, or 1 when the trace did not parse).
  int Finish() { return process_.Finish(); }

  // The command line, for messages.
  const std::string& command() const { return process_.command(); }

 private:
  OracleProcess process_;
};

// One oracle process in serve mode (`simrd_oracle.py serve`) for many
// traces: each request carries its trace (a path, or the log text itself),
// its parse options and a configuration, so one interpreter serves a whole
// fuzzing campaign. The oracle keeps the last trace parsed, with its
// baselines, so consecutive requests on one trace parse it once.
class OracleServer {
 public:
  // Starts the process (see OracleProcess for the process group). Throws
  // OracleError if it cannot be started.
  explicit OracleServer(bool own_process_group = false);

  // simrd's answer (as OracleBatch::Run) for `config` on the log text `log`
  // (its trace_sha256 is that of the text's bytes).
  Json RunLog(const std::string& log, const ParseOptions& parse, const Json& config);
  // The same for the trace file `path`.
  Json RunFile(const std::string& path, const ParseOptions& parse, const Json& config);

  int Finish() { return process_.Finish(); }
  const std::string& command() const { return process_.command(); }

 private:
  OracleProcess process_;
};

// Runs the configurations through one OracleBatch; one answer per
// configuration, in order.
std::vector<Json> RunOracle(const std::string& trace, const std::vector<Json>& configs,
                            const ParseOptions& parse = {});

}  // namespace dtrcheck

#endif  // DTRCHECK_ORACLE_SIMRD_CLIENT_H_
