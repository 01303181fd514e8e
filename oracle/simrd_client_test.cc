// The C++ simrd client against stand-in oracles (a few lines of Python that
// answer as the oracle's batch mode does, or fail as it can), and against
// the real simrd when it is installed.
#include "oracle/simrd_client.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "sim/parse.h"
#include "sim/simulate.h"

namespace dtrcheck {
namespace {

namespace fs = std::filesystem;

// Each stand-in reads DTRCHECK_FAKE_ORACLE for what to do.
const char* kStandIn = R"(import json, os, sys
mode = os.environ['DTRCHECK_FAKE_ORACLE']
if mode == 'missing':
    sys.stderr.write('simrd not found at /nowhere (SIMRD_DIR)\n')
    sys.exit(3)
if mode == 'crash':
    sys.stderr.write('Traceback: boom\n')
    sys.exit(1)
for line in sys.stdin:
    config = json.loads(line)
    if mode == 'garbage':
        print('this is not json', flush=True)
        continue
    if mode == 'die-after-one' and config.get('n') == 1:
        sys.exit(1)
    print(json.dumps({'config': config, 'pid': os.getpid(), 'pgid': os.getpgrp(),
                      'argv': sys.argv[1:]}), flush=True)
)";

class StandInOracle : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("dtrcheck_client_test_" + std::to_string(getpid()));
    fs::create_directories(dir_);
    std::ofstream(dir_ / "oracle.py") << kStandIn;
    setenv("DTRCHECK_ORACLE", (dir_ / "oracle.py").c_str(), 1);
  }
  void TearDown() override {
    unsetenv("DTRCHECK_ORACLE");
    unsetenv("DTRCHECK_FAKE_ORACLE");
    fs::remove_all(dir_);
  }
  static void Mode(const char* mode) { setenv("DTRCHECK_FAKE_ORACLE", mode, 1); }

  fs::path dir_;
};

TEST_F(StandInOracle, OneProcessAnswersInOrder) {
  Mode("echo");
  OracleBatch oracle("trace.log");
  std::vector<Json> answers;
  for (int n = 0; n < 5; ++n) answers.push_back(oracle.Run(Json{{"n", n}}));
  EXPECT_EQ(oracle.Finish(), 0);
  for (int n = 0; n < 5; ++n) {
    EXPECT_EQ(answers[n]["config"]["n"], n);
    EXPECT_EQ(answers[n]["pid"], answers[0]["pid"]);  // one interpreter for all
  }
}

TEST_F(StandInOracle, ArgumentsReachItUnquoted) {
  Mode("echo");
  std::string trace = "a trace; with 'quotes', \"more\", $HOME and `ls`.log";
  ParseOptions parse;
  parse.start = false;
  parse.out_cond = OutputCondition::kPreallocate;
  parse.ignore_undefined_release = false;
  std::vector<Json> answers = RunOracle(trace, {Json{{"n", 0}}}, parse);
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_EQ(answers[0]["argv"],
            Json({"batch", trace, "--no-start", "--preallocate", "--strict-release"}));
}

TEST_F(StandInOracle, AServerSendsEachTraceWithItsRequest) {
  Mode("echo");
  OracleServer server;
  ParseOptions strict;
  strict.ignore_undefined_release = false;
  Json a = server.RunLog("log text\n", {}, Json{{"n", 0}});
  Json b = server.RunFile("some.log", strict, Json{{"n", 1}});
  EXPECT_EQ(server.Finish(), 0);
  EXPECT_EQ(a["argv"], Json({"serve"}));
  EXPECT_EQ(a["config"],
            Json({{"log", "log text\n"}, {"parse", Json::object()}, {"config", {{"n", 0}}}}));
  EXPECT_EQ(
      b["config"],
      Json({{"trace", "some.log"}, {"parse", {{"strict_release", true}}}, {"config", {{"n", 1}}}}));
  EXPECT_EQ(a["pid"], b["pid"]);
}

// fuzz-diff keeps its oracles out of the terminal's process group, so a
// Ctrl-C reaches dtrcheck only; other commands leave it in dtrcheck's.
TEST_F(StandInOracle, AServerCanHaveItsOwnProcessGroup) {
  Mode("echo");
  OracleServer own(true), shared;
  EXPECT_NE(own.RunLog("", {}, Json{{"n", 0}})["pgid"], getpgrp());
  EXPECT_EQ(shared.RunLog("", {}, Json{{"n", 0}})["pgid"], getpgrp());
}

TEST_F(StandInOracle, MissingSimrdIsItsOwnError) {
  Mode("missing");
  try {
    RunOracle("trace.log", {Json{{"n", 0}}});
    FAIL() << "no error";
  } catch (const SimrdUnavailable& e) {
    EXPECT_EQ(std::string(e.what()), "simrd not found at /nowhere (SIMRD_DIR)");
  }
}

TEST_F(StandInOracle, ACrashNamesTheExitCodeAndStderr) {
  Mode("crash");
  try {
    RunOracle("trace.log", {Json{{"n", 0}}});
    FAIL() << "no error";
  } catch (const SimrdUnavailable&) {
    FAIL() << "a crash is not a missing simrd";
  } catch (const OracleError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("without a record"), std::string::npos) << what;
    EXPECT_NE(what.find("exit code 1"), std::string::npos) << what;
    EXPECT_NE(what.find("Traceback: boom"), std::string::npos) << what;
  }
}

TEST_F(StandInOracle, ADeathMidBatchIsAnError) {
  Mode("die-after-one");
  OracleBatch oracle("trace.log");
  EXPECT_EQ(oracle.Run(Json{{"n", 0}})["config"]["n"], 0);
  EXPECT_THROW(oracle.Run(Json{{"n", 1}}), OracleError);
  EXPECT_THROW(oracle.Run(Json{{"n", 2}}), OracleError);  // and stays one
  EXPECT_EQ(oracle.Finish(), 1);
}

TEST_F(StandInOracle, NotJsonIsAnError) {
  Mode("garbage");
  try {
    RunOracle("trace.log", {Json{{"n", 0}}});
    FAIL() << "no error";
  } catch (const OracleError& e) {
    EXPECT_NE(std::string(e.what()).find("not JSON: this is not json"), std::string::npos)
        << e.what();
  }
}

TEST_F(StandInOracle, AnInterpreterThatCannotStart) {
  Mode("echo");
  setenv("PYTHON", "/nonexistent/python3", 1);
  EXPECT_THROW(OracleBatch("trace.log"), OracleError);
  unsetenv("PYTHON");
}

TEST_F(StandInOracle, AnUnfinishedBatchIsStopped) {
  Mode("echo");
  { OracleBatch oracle("trace.log"); }  // the destructor ends the process; no hang, no zombie
  SUCCEED();
}

TEST(SimrdClient, RecordsEqualDtrchecks) {
  if (!FindSimrd()) GTEST_SKIP() << "simrd is not installed";
  std::string trace = std::string(DTRCHECK_SOURCE_DIR) + "/tests/data/small_resnet.log";
  Graph graph = ParseTraceFile(trace);
  Baseline baseline = RunBaseline(graph, "RuntimeV2EagerOptimized");
  std::vector<RunConfig> configs(3);
  configs[0].ratio = 0.35;
  configs[1].ratio = 0.2;
  configs[1].overhead_limit = 1.5;
  configs[2].budget = 1;
  std::vector<Json> asked;
  for (const auto& c : configs) asked.push_back(ConfigToJson(c));
  std::vector<Json> simrd = RunOracle(trace, asked);
  ASSERT_EQ(simrd.size(), configs.size());
  for (size_t i = 0; i < configs.size(); ++i)
    EXPECT_TRUE(DifferingFields(simrd[i], RecordToJson(Simulate(graph, configs[i], baseline)),
                                configs[i].heuristic)
                    .empty())
        << simrd[i].dump();
}

// One served process answers for several traces, given as text or as a
// path, alternately, as the batch mode does for each alone.
TEST(SimrdClient, AServerAnswersAsTheBatchModeForEachTrace) {
  if (!FindSimrd()) GTEST_SKIP() << "simrd is not installed";
  std::string dir = std::string(DTRCHECK_SOURCE_DIR) + "/tests/data/";
  std::vector<std::string> traces = {dir + "small_resnet.log", dir + "tiny_all_kinds.log"};
  RunConfig run;
  run.ratio = 0.4;
  Json config = ConfigToJson(run);
  OracleServer server;
  for (int round = 0; round < 2; ++round)
    for (const auto& t : traces) {
      std::ifstream in(t, std::ios::binary);
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      Json batch = RunOracle(t, {config})[0];
      Json served = round ? server.RunLog(text, {}, config) : server.RunFile(t, {}, config);
      EXPECT_EQ(served, batch) << t;
    }
  EXPECT_EQ(server.Finish(), 0);
}

}  // namespace
}  // namespace dtrcheck
