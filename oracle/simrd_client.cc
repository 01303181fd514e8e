#include "oracle/simrd_client.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

extern char** environ;

namespace dtrcheck {

namespace fs = std::filesystem;

namespace {

constexpr int kExitNoSimrd = 3;  // simrd_oracle.py EXIT_NO_SIMRD

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : "";
}

// Writes all of `text`; false if the reader is gone. SIGPIPE is held back
// for the write (and a pending one consumed), so a dead oracle is an error
// to report, not the end of dtrcheck.
bool WriteAll(int fd, const std::string& text) {
  sigset_t pipe_signal, old;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &old);
  bool ok = true;
  for (size_t done = 0; done < text.size();) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ok = false;
      if (errno == EPIPE) {
        timespec now{};
        sigtimedwait(&pipe_signal, nullptr, &now);
      }
      break;
    }
    done += static_cast<size_t>(n);
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return ok;
}

std::string Quoted(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) {
    bool plain = !a.empty() && a.find_first_of(" \t\n'\"\\$`*?;&|<>()") == std::string::npos;
    s += (s.empty() ? "" : " ") + (plain ? a : Json(a).dump());
  }
  return s;
}

}  // namespace

const char kSimrdNotFound[] =
    "simrd not found (SIMRD_DIR, SIMRD_CACHE or ~/.cache/dtrcheck/simrd; oracle/get_simrd.sh "
    "gets it)";

std::optional<std::string> FindSimrd() {
  std::string dir = Env("SIMRD_DIR");
  if (dir.empty()) {
    std::string cache = Env("SIMRD_CACHE");
    if (cache.empty()) {
      std::string xdg = Env("XDG_CACHE_HOME");
      cache = (xdg.empty() ? fs::path(Env("HOME")) / ".cache" : fs::path(xdg)) / "dtrcheck";
    }
    dir = (fs::path(cache) / "simrd").string();
  }
  std::error_code ec;
  if (!fs::is_regular_file(fs::path(dir) / "simrd" / "runtime" / "v2.py", ec)) return std::nullopt;
  return dir;
}

std::string OracleScript() {
  std::string env = Env("DTRCHECK_ORACLE");
  if (!env.empty()) return env;
#ifdef DTRCHECK_SOURCE_DIR
  return (fs::path(DTRCHECK_SOURCE_DIR) / "oracle" / "simrd_oracle.py").string();
#else
  return "oracle/simrd_oracle.py";
#endif
}

namespace {

std::vector<std::string> BatchArgs(const std::string& trace, const ParseOptions& parse) {
  std::vector<std::string> args = {"batch", trace};
  if (!parse.start) args.push_back("--no-start");
  if (parse.out_cond == OutputCondition::kPreallocate) args.push_back("--preallocate");
  if (!parse.ignore_undefined_release) args.push_back("--strict-release");
  return args;
}

}  // namespace

OracleBatch::OracleBatch(const std::string& trace, const ParseOptions& parse)
    : process_(BatchArgs(trace, parse)) {}

OracleServer::OracleServer(bool own_process_group) : process_({"serve"}, own_process_group) {}

Json OracleServer::RunLog(const std::string& log, const ParseOptions& parse, const Json& config) {
  return process_.Exchange(
      {{"log", log}, {"parse", ParseOptionsToJson(parse)}, {"config", config}});
}

Json OracleServer::RunFile(const std::string& path, const ParseOptions& parse, const Json& config) {
  return process_.Exchange(
      {{"trace", path}, {"parse", ParseOptionsToJson(parse)}, {"config", config}});
}

OracleProcess::OracleProcess(const std::vector<std::string>& oracle_args, bool own_process_group) {
  std::string python = Env("PYTHON");
  std::vector<std::string> argv = {python.empty() ? "python3" : python, OracleScript()};
  argv.insert(argv.end(), oracle_args.begin(), oracle_args.end());
  command_ = Quoted(argv);

  char stderr_name[] = "/tmp/dtrcheck_oracle_stderr_XXXXXX";
  stderr_file_ = mkostemp(stderr_name, O_CLOEXEC);
  if (stderr_file_ < 0)
    throw OracleError(std::string("cannot create a temporary file: ") + std::strerror(errno));
  unlink(stderr_name);
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0) {
    close(stderr_file_);
    throw OracleError(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]);
    close(in[1]);
    close(stderr_file_);
    throw OracleError(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, stderr_file_, STDERR_FILENO);
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  if (own_process_group) {
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
  }
  int err = posix_spawnp(&pid_, args[0], &actions, &attributes, args.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  close(in[0]);
  close(out[1]);
  to_child_ = in[1];
  from_child_ = fdopen(out[0], "r");
  if (err != 0 || !from_child_) {
    if (!from_child_) close(out[0]);
    close(to_child_);
    close(stderr_file_);
    if (err == 0) Reap();
    throw OracleError("cannot run " + command_ + ": " + std::strerror(err ? err : errno));
  }
}

OracleProcess::~OracleProcess() {
  if (to_child_ >= 0) close(to_child_);
  if (pid_ > 0 && exit_code_ < 0) {
    kill(pid_, SIGTERM);
    Reap();
  }
  if (from_child_) fclose(from_child_);
  if (stderr_file_ >= 0) close(stderr_file_);
}

int OracleProcess::Reap() {
  if (exit_code_ >= 0 || pid_ <= 0) return exit_code_;
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return exit_code_;
}

std::string OracleProcess::StderrTail() const {
  std::string text;
  char buffer[4096];
  ssize_t n;
  off_t offset = 0;
  while ((n = pread(stderr_file_, buffer, sizeof buffer, offset)) > 0) {
    text.append(buffer, static_cast<size_t>(n));
    offset += n;
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (text.size() > 2000) text = "..." + text.substr(text.size() - 2000);
  return text;
}

void OracleProcess::Fail(const std::string& what) {
  if (to_child_ >= 0) {
    close(to_child_);
    to_child_ = -1;
  }
  int code = Reap();
  std::string err = StderrTail();
  if (code == kExitNoSimrd) throw SimrdUnavailable(err.empty() ? "simrd is not available" : err);
  throw OracleError(what + " (" + command_ + ", exit code " + std::to_string(code) + ")" +
                    (err.empty() ? "" : ":\n" + err));
}

Json OracleProcess::Exchange(const Json& request) {
  if (to_child_ < 0) throw OracleError("the oracle's input is closed: " + command_);
  std::string line_out = request.dump() + "\n";
  if (!WriteAll(to_child_, line_out)) Fail("the oracle stopped reading");
  char* line = nullptr;
  size_t capacity = 0;
  ssize_t n = getline(&line, &capacity, from_child_);
  std::string text = n > 0 ? std::string(line, static_cast<size_t>(n)) : "";
  std::free(line);
  if (n <= 0)
    Fail("the oracle ended without a record for " +
         (line_out.size() > 300 ? line_out.substr(0, 300) + "..." : line_out));
  try {
    return ParseJson(text);
  } catch (const Json::parse_error&) {
    Fail("the oracle printed a line that is not JSON: " + text.substr(0, 200));
  } catch (const FieldError& e) {
    Fail(std::string("the oracle printed a record dtrcheck cannot hold: ") + e.what());
  }
}

int OracleProcess::Finish() {
  if (to_child_ >= 0) {
    close(to_child_);
    to_child_ = -1;
  }
  return Reap();
}

std::vector<Json> RunOracle(const std::string& trace, const std::vector<Json>& configs,
                            const ParseOptions& parse) {
  OracleBatch oracle(trace, parse);
  std::vector<Json> records;
  for (const Json& c : configs) records.push_back(oracle.Run(c));
  oracle.Finish();
  return records;
}

}  // namespace dtrcheck
