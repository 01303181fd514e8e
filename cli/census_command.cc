// dtrcheck census TRACE=RECORDS[,RECORDS...] ... : the robustness census of
// analysis/census.h over sweep records. The runs are `dtrcheck sweep`'s
// (--heuristics, --format jsonl, --shard i/n, --resume, --merge), so a
// census is sharded, resumed and merged exactly as a sweep; this command
// only reads the records (shards may be given directly: they are merged as
// `sweep --merge` merges them) and writes the tables and plots.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "analysis/census.h"
#include "analysis/records_model.h"
#include "cli/commands.h"
#include "cli/grid_options.h"
#include "cli/memory_option.h"
#include "cli/number_option.h"
#include "cli/provenance.h"
#include "cli/sweep_io.h"
#include "cli/sweep_plot.h"
#include "sim/parse.h"
#include "traces/locate.h"

namespace dtrcheck {

namespace {

struct CensusOptions {
  std::vector<std::string> inputs;
  std::string markdown, csv, svg_dir;
  GridOptions grid;  // for --jobs only
  // --memory and its model's options: when given, every input's records
  // must be runs under exactly this model; when not, each input's records
  // say their model (MergeSweepRecords keeps one per input).
  MemoryFlags memory;
  CLI::Option* memory_option = nullptr;
};

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep))
    if (!item.empty()) out.push_back(item);
  return out;
}

void WriteText(const std::string& path, const std::string& text) {
  OutputFile out(path);
  out.stream() << text;
  out.Commit();
}

int RunCensus(const CensusOptions& o) {
  // Validated even when --memory is not given: an option of another model
  // (--max-split-size-mb without cuda-caching) is refused.
  const MemoryOptions memory = FinishMemoryOptions(o.memory);
  std::optional<MemoryOptions> wanted;
  if (o.memory_option->count() > 0) wanted = memory;
  std::vector<CensusRow> rows;
  std::vector<std::string> traces;  // for the provenance
  const int jobs = EffectiveJobs(o.grid);
  for (const std::string& input : o.inputs) {
    const size_t eq = input.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == input.size())
      throw std::invalid_argument("census input \"" + input +
                                  "\": expected TRACE=RECORDS.jsonl[,MORE.jsonl...]");
    const std::string trace = ResolveTraceArgument(input.substr(0, eq));
    const std::vector<std::string> files = Split(input.substr(eq + 1), ',');
    for (const std::string& f : files) {
      RefuseSameFile(f, "records", o.markdown, "--markdown");
      RefuseSameFile(f, "records", o.csv, "--csv");
    }
    const std::vector<RunRecord> records = MergeSweepRecords(files);
    if (records.empty()) throw std::invalid_argument("census input \"" + input + "\": no records");
    if (wanted) RefuseRecordsOfOtherModel(input, records, *wanted);
    const Graph graph = ParseTraceFile(trace);
    if (std::find(traces.begin(), traces.end(), trace) == traces.end()) traces.push_back(trace);
    const std::string name = CensusTraceName(trace);
    for (CensusRow& row : CensusOfRecords(graph, name, records, jobs)) rows.push_back(row);
    if (!o.svg_dir.empty()) {
      std::filesystem::create_directories(o.svg_dir);
      // Named after the (first) records file: one plot per input.
      const std::string stem = std::filesystem::path(files.front()).stem().string();
      WriteSweepPlot(o.svg_dir + "/" + stem + ".svg", records, {},
                     name + ", limit " + rows.back().limit + " (" + stem + ")");
    }
  }
  std::vector<CensusRow> all = rows;
  for (const CensusRow& t : CensusTotals(rows)) all.push_back(t);
  if (!o.csv.empty()) WriteText(o.csv, CensusCsv(all));
  // A report file says how to reproduce it; the table on stdout stays bare.
  WriteText(o.markdown,
            CensusMarkdown(all) + (o.markdown.empty() ? "" : "\n" + ProvenanceMarkdown(traces)));
  return 0;
}

CLI::App* RegisterCensus(CLI::App& app, CensusOptions* o) {
  auto* cmd = app.add_subcommand(
      "census", "rank policies over sweep records: counts, pathologies, overheads, hidden cost");
  cmd->add_option("INPUT", o->inputs,
                  "TRACE=RECORDS.jsonl[,SHARD.jsonl...]: a trace (path or name) and the sweep "
                  "records of its policies at one overhead limit (dtrcheck sweep --heuristics "
                  "... --format jsonl)")
      ->required();
  cmd->add_option("--markdown", o->markdown, "write the markdown table to FILE (default stdout)");
  cmd->add_option("--csv", o->csv, "also write the table as csv to FILE");
  cmd->add_option(
      "--svg-dir", o->svg_dir,
      "also draw every policy's raw overhead curve, one plot per input, to DIR/<records>.svg");
  cmd->add_option("--jobs,-j", o->grid.jobs, "threads diagnosing inversions (0: all)")
      ->check(IntegerRange(0, 1024));
  AddMemoryOptions(cmd, &o->memory);
  o->memory_option = cmd->get_option("--memory");
  o->memory_option->description(
      "the memory model the records must be runs under: bytes, cuda-caching or arena (default: "
      "each input's own; allocator records add the allocator-only pathology columns)");
  return cmd;
}

}  // namespace

Action AddCensusCommand(CLI::App& app) {
  auto o = std::make_shared<CensusOptions>();
  return {RegisterCensus(app, o.get()), [o] { return RunCensus(*o); }};
}

}  // namespace dtrcheck
