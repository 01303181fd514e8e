#include "oracle/simrd_client.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <unistd.h>

namespace dtrcheck {

namespace fs = std::filesystem;

namespace {

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : "";
}

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

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

Json OracleConfig(const RunConfig& c) {
  Json j;
  j["runtime"] = c.runtime;
  j["heuristic"] = c.heuristic;
  j["baseline_runtime"] = c.baseline_runtime;
  if (c.ratio)
    j["ratio"] = *c.ratio;
  else if (c.budget)
    j["budget"] = IntJson(*c.budget);
  if (c.overhead_limit)
    j["overhead_limit"] = *c.overhead_limit;
  else if (c.remat_limit)
    j["remat_limit"] = IntJson(*c.remat_limit);
  if (c.seed) j["seed"] = IntJson(*c.seed);
  if (c.stats) j["stats"] = true;
  return j;
}

std::vector<Json> RunOracle(const std::string& trace, const std::vector<Json>& configs) {
  fs::path configs_file = fs::temp_directory_path() /
                          ("dtrcheck_oracle_" + std::to_string(getpid()) + "_" +
                           std::to_string(reinterpret_cast<uintptr_t>(&configs)) + ".jsonl");
  {
    std::ofstream out(configs_file);
    for (const Json& c : configs) out << c.dump() << "\n";
    if (!out) throw std::runtime_error("cannot write " + configs_file.string());
  }
  std::string python = Env("PYTHON");
  std::string command = ShellQuote(python.empty() ? "python3" : python) + " " +
                        ShellQuote(OracleScript()) + " batch " + ShellQuote(trace) + " --configs " +
                        ShellQuote(configs_file.string());
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) {
    fs::remove(configs_file);
    throw std::runtime_error("cannot run the oracle: " + command);
  }
  std::string output;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  int status = pclose(pipe);
  fs::remove(configs_file);
  std::vector<Json> records;
  size_t pos = 0;
  while (pos < output.size()) {
    size_t end = output.find('\n', pos);
    if (end == std::string::npos) end = output.size();
    std::string line = output.substr(pos, end - pos);
    pos = end + 1;
    if (line.empty()) continue;
    try {
      records.push_back(Json::parse(line));
    } catch (const Json::parse_error&) {
      throw std::runtime_error("the oracle printed a line that is not JSON: " +
                               line.substr(0, 200));
    }
  }
  if (records.size() != configs.size())
    throw std::runtime_error("the oracle printed " + std::to_string(records.size()) +
                             " records for " + std::to_string(configs.size()) +
                             " configurations (exit status " + std::to_string(status) +
                             "): " + command);
  return records;
}

}  // namespace dtrcheck
