// PairRefusal against simrd itself: corpus/oracle/local_tiny_all_kinds.jsonl
// holds simrd's record for every runtime x heuristic pair (produced by
// `python3 oracle/record_corpus.py --local tests/data/*.log ...`, the command
// each line names), a RuntimeError message for each pair simrd refuses.
#include "sim/accepted_pairs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/heuristic.h"
#include "sim/runtime.h"

namespace dtrcheck {
namespace {

// The message with the items of each "{...}" set sorted: Python prints a
// set of strings in hash order, which differs between processes.
std::string SortSets(const std::string& message) {
  std::string out;
  size_t i = 0;
  while (i < message.size()) {
    size_t open = message.find('{', i);
    if (open == std::string::npos) break;
    size_t close = message.find('}', open);
    out += message.substr(i, open + 1 - i);
    std::vector<std::string> items;
    std::string body = message.substr(open + 1, close - open - 1);
    for (size_t start = 0; start <= body.size();) {
      size_t comma = body.find(", ", start);
      if (comma == std::string::npos) comma = body.size();
      items.push_back(body.substr(start, comma - start));
      start = comma + 2;
    }
    std::sort(items.begin(), items.end());
    for (size_t k = 0; k < items.size(); ++k) out += (k ? ", " : "") + items[k];
    out += '}';
    i = close + 1;
  }
  return out + message.substr(i);
}

// (runtime, heuristic) -> simrd's error message, or nullopt if simrd ran it.
std::map<std::pair<std::string, std::string>, std::optional<std::string>> SimrdVerdicts() {
  std::ifstream in(std::string(DTRCHECK_SOURCE_DIR) + "/corpus/oracle/local_tiny_all_kinds.jsonl");
  std::map<std::pair<std::string, std::string>, std::optional<std::string>> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line);
    auto key = std::make_pair(j["config"]["runtime"].get<std::string>(),
                              j["config"]["heuristic"].get<std::string>());
    const auto& record = j["record"];
    std::optional<std::string> error;
    if (record.contains("error")) error = record["error"].get<std::string>();
    auto [it, added] = out.emplace(key, error);
    if (!added) {
      EXPECT_EQ(it->second, error) << key.first << " " << key.second;
    }
  }
  return out;
}

TEST(PairRefusal, IsSimrdsVerdictAndMessageForEveryPair) {
  const auto verdicts = SimrdVerdicts();
  // Every registered runtime with every registered heuristic.
  ASSERT_EQ(verdicts.size(), RuntimeNames().size() * HeuristicNames().size());
  size_t refused = 0;
  for (const auto& [pair, simrd_error] : verdicts) {
    SCOPED_TRACE(pair.first + " " + pair.second);
    auto kind = RuntimeKindFromName(pair.first);
    auto heuristic = MakeHeuristic(pair.second);
    ASSERT_TRUE(kind && heuristic);
    std::optional<std::string> ours = PairRefusal(*kind, *heuristic);
    ASSERT_EQ(ours.has_value(), simrd_error.has_value());
    if (!ours) continue;
    ++refused;
    EXPECT_EQ(*ours, SortSets(*simrd_error));
    EXPECT_EQ(*ours, SortSets(*ours));  // written sorted
  }
  EXPECT_GT(refused, 0u);
}

TEST(PairRefusal, RuntimeConstructorThrowsTheMessage) {
  Graph empty;
  auto dtr = MakeHeuristic("DTR");
  RuntimeOptions options;
  options.kind = RuntimeKind::kV1;
  try {
    Runtime rt(empty, options, *dtr);
    FAIL() << "RuntimeV1 accepted DTR";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), *PairRefusal(RuntimeKind::kV1, *dtr));
  }
}

TEST(AcceptedPairs, AreThePairsPairRefusalAccepts) {
  size_t expected = 0;
  for (const auto& r : RuntimeNames())
    for (const auto& h : HeuristicNames())
      if (h != "Heuristic" && !PairRefusal(*RuntimeKindFromName(r), *MakeHeuristic(h))) ++expected;
  const auto& pairs = AcceptedPairs();
  EXPECT_EQ(pairs.size(), expected);
  EXPECT_EQ(pairs[0].runtime, "RuntimeV2EagerOptimized");
  EXPECT_EQ(pairs[0].heuristic, "DTR");
  for (const auto& p : pairs)
    EXPECT_FALSE(PairRefusal(*RuntimeKindFromName(p.runtime), *MakeHeuristic(p.heuristic)))
        << p.runtime << " " << p.heuristic;
}

}  // namespace
}  // namespace dtrcheck
