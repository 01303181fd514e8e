#include "cli/sweep_io.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <stdexcept>

#include "analysis/format.h"
#include "io/record.h"
#include "sim/log_line.h"
#include "traces/locate.h"

namespace dtrcheck {

namespace {

std::string Pad(std::string s, size_t width) {
  if (s.size() < width) s.resize(width, ' ');
  return s;
}

std::string RatioText(const RunRecord& r) {
  return r.config.ratio ? ShortestDouble(*r.config.ratio) : "-";
}

}  // namespace

SweepFormat ParseSweepFormat(const std::string& name) {
  if (name == "table") return SweepFormat::kTable;
  if (name == "csv") return SweepFormat::kCsv;
  if (name == "jsonl") return SweepFormat::kJsonl;
  throw CLI::ValidationError("--format", "expected table, csv or jsonl, got \"" + name + "\"");
}

std::string SweepHeader(SweepFormat format, bool with_heuristic) {
  switch (format) {
    case SweepFormat::kTable:
      return (with_heuristic ? Pad("heuristic", 18) : "") + Pad("ratio", 9) + Pad("budget", 15) +
             Pad("status", 10) + "overhead\n";
    case SweepFormat::kCsv:
      return std::string(with_heuristic ? "heuristic," : "") +
             "ratio,budget,status,overhead,clock,remat_compute,evictions,distinct_evicted\n";
    case SweepFormat::kJsonl:
      return "";
  }
  return "";
}

std::string SweepRow(SweepFormat format, const RunRecord& r, bool with_heuristic,
                     const std::string& check_key) {
  switch (format) {
    case SweepFormat::kTable:
      return (with_heuristic ? Pad(r.config.heuristic, 18) : "") + Pad(RatioText(r), 9) +
             Pad(IntToString(r.budget), 15) + Pad(StatusName(r.status), 10) +
             (r.status == Status::kOk ? Fixed(r.Overhead(), 3) : "-") + "\n";
    case SweepFormat::kCsv:
      return (with_heuristic ? r.config.heuristic + "," : "") +
             (r.config.ratio ? ShortestDouble(*r.config.ratio) : "") + "," + IntToString(r.budget) +
             "," + StatusName(r.status) + "," +
             // An oom or thrashed run has no overhead (the table shows "-").
             (r.status == Status::kOk ? ShortestDouble(r.Overhead()) : "") + "," +
             IntToString(r.clock) + "," + IntToString(r.remat_compute) + "," +
             std::to_string(r.evictions) + "," + std::to_string(r.distinct_evicted) + "\n";
    case SweepFormat::kJsonl: {
      Json j = RecordToJson(r);
      if (!check_key.empty()) j["sweep_check"] = Sha256OfText(check_key + "\n" + j.dump());
      return j.dump() + "\n";
    }
  }
  return "";
}

std::string SweepCheckKey(const std::string& trace, const ParseOptions& parse,
                          const std::string& baseline_runtime) {
  Json key;
  key["trace_sha256"] = Sha256OfFile(trace);
  key["start"] = parse.start;
  key["preallocate"] = parse.out_cond == OutputCondition::kPreallocate;
  key["ignore_undefined_release"] = parse.ignore_undefined_release;
  key["baseline_runtime"] = baseline_runtime;
  return key.dump();
}

std::map<std::string, std::string> SweepChecks(const std::vector<std::string>& paths) {
  // MergeSweepRecords has read these files: every other line is a record.
  std::map<std::string, std::string> out;
  for (const auto& path : paths)
    ReadJsonLines(path, [&](long, Json&& j) {
      if (!j.is_object() || !j.contains("sweep_check") || !j["sweep_check"].is_string()) return;
      out[PointIdentity(RecordFromJson(j)).dump()] = j["sweep_check"].get<std::string>();
    });
  return out;
}

std::vector<ResumedRecord> ReadResumeFile(const std::string& path, const std::string& check_key) {
  std::vector<ResumedRecord> out;
  ReadJsonLines(path, [&](long n, Json&& j) {
    if (!j.is_object() || !j.contains("sweep_check") || !j["sweep_check"].is_string())
      throw std::invalid_argument(
          "not a record of `dtrcheck sweep --format jsonl` (no sweep_check)");
    const std::string check = j["sweep_check"].get<std::string>();
    j.erase("sweep_check");
    if (Sha256OfText(check_key + "\n" + j.dump()) != check)
      throw std::invalid_argument(
          "the record does not match its sweep_check (edited, or written for another trace or "
          "other options)");
    out.push_back({n, RecordFromJson(j)});
  });
  return out;
}

Json PointIdentity(const RunRecord& r) {
  Json full = RecordToJson(r);
  Json id;
  for (const char* k : {"runtime", "heuristic", "ratio", "budget", "remat_limit", "seed",
                        "baseline_peak", "baseline_compute"})
    id[k] = full[k];
  id["stats"] = full.contains("storage_stats");
  // The memory model (only when not bytes, so default identities stay).
  const Json config = ConfigToJson(r.config);
  for (const char* k : {"memory", "max_split_size_mb"})
    if (config.contains(k)) id[k] = config[k];
  return id;
}

Json ExpectedIdentity(const RunConfig& config, const BudgetSpec& spec, const Baseline& baseline) {
  return PointIdentity(RecordBeforeRun(WithBudget(config, spec), baseline));
}

std::vector<RunRecord> MergeSweepRecords(const std::vector<std::string>& paths) {
  for (const auto& p : paths) RefusePartialResult(p);
  std::vector<RunRecord> all;
  for (const auto& p : paths)
    for (auto& r : ReadRecordsJsonl(p)) all.push_back(std::move(r));
  if (all.empty()) return all;
  // Everything but the heuristic, ratio and budget must agree.
  auto shared = [](const RunRecord& r) {
    Json id = PointIdentity(r);
    for (const char* k : {"heuristic", "ratio", "budget"}) id.erase(k);
    return id;
  };
  const Json first = shared(all[0]);
  std::map<std::string, size_t> heuristic_order;
  for (const auto& r : all) {
    if (shared(r) != first)
      throw std::invalid_argument("cannot merge records of different sweeps: " + shared(r).dump() +
                                  " vs " + first.dump());
    heuristic_order.emplace(r.config.heuristic, heuristic_order.size());
  }
  auto key = [&](const RunRecord& r) {
    return std::make_tuple(heuristic_order[r.config.heuristic], r.budget,
                           r.config.ratio.value_or(-1.0));
  };
  std::stable_sort(all.begin(), all.end(),
                   [&](const RunRecord& a, const RunRecord& b) { return key(a) < key(b); });
  std::vector<RunRecord> out;
  for (auto& r : all) {
    if (!out.empty() && key(out.back()) == key(r)) {
      if (RecordToJson(out.back()) != RecordToJson(r))
        throw std::invalid_argument("two different records for one point: " +
                                    PointIdentity(r).dump());
      continue;
    }
    out.push_back(std::move(r));
  }
  return out;
}

OutputFile::OutputFile(const std::string& path) {
  if (!path.empty() && path != "-") file_ = std::make_unique<AtomicFile>(path);
}

void OutputFile::Commit() {
  if (!file_) {
    std::cout.flush();
    return;
  }
  file_->Commit();
  file_.reset();
}

std::string OutputFile::CommitPartial() {
  if (!file_) {
    std::cout.flush();
    return "";
  }
  const std::string partial = PartialPath(file_->path());
  file_->CommitAs(partial);
  file_.reset();
  return partial;
}

std::string PartialPath(const std::string& path) { return path + ".partial"; }

void RefusePartialResult(const std::string& path) {
  if (path.ends_with(".partial"))
    throw std::invalid_argument(
        path +
        ": the partial result of an interrupted sweep; finish it first (dtrcheck sweep "
        "... --format jsonl --resume " +
        path + " -o " + path.substr(0, path.size() - 8) + ")");
}

}  // namespace dtrcheck
