// Reporting a scan (dtrcheck scan, and the corpus scan): text for the
// terminal, one JSON object, and a report directory with the sweep's
// records, the JSON, a markdown summary and an SVG plot.
#ifndef DTRCHECK_CLI_SCAN_REPORT_H_
#define DTRCHECK_CLI_SCAN_REPORT_H_

#include <string>

#include "analysis/scan.h"
#include "io/record.h"

namespace dtrcheck {

// What was scanned, for the reports' headers.
struct ScanContext {
  std::string trace;  // as given
  RunConfig config;
  Baseline baseline;
  std::string grid;  // e.g. "ratio 0.1 to 1 step 0.001"
  ScanSettings settings;
};

Json ScanToJson(const ScanContext& ctx, const ScanResult& result);
std::string ScanText(const ScanContext& ctx, const ScanResult& result);
// "dtrcheck reduce TRACE --property ... -o finding-N.log": the command that
// shrinks result.findings[i] (its refined ends when refined), written
// finding-(i+1).log; for a finding no reduce property covers, a "# ..."
// line saying so.
std::string ReduceCommandFor(const ScanContext& ctx, const ScanResult& result, size_t i);
// Writes DIR/points.jsonl, DIR/scan.json, DIR/report.md, DIR/overhead.svg
// (creating DIR). Throws std::invalid_argument if it cannot.
void WriteScanReport(const std::string& dir, const ScanContext& ctx, const ScanResult& result);

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_SCAN_REPORT_H_
