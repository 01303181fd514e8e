// How to reproduce a report: the command line, the dtrcheck and simrd
// commits, the SHA-256 of every trace read, the date. One block, written by
// every report (reproduce's README, scan's report.md, census), so that a
// report can be trusted and re-run by itself.
//
// The block is fenced by kProvenanceBegin/kProvenanceEnd: everything else in
// a report is byte-identical for the same inputs, and tests comparing reports
// drop the block (its date and command line vary). SOURCE_DATE_EPOCH, when
// set, fixes the date (the reproducible-builds convention).
#ifndef DTRCHECK_CLI_PROVENANCE_H_
#define DTRCHECK_CLI_PROVENANCE_H_

#include <string>
#include <vector>

namespace dtrcheck {

constexpr char kProvenanceBegin[] = "<!-- provenance: varies between runs -->";
constexpr char kProvenanceEnd[] = "<!-- end provenance -->";

// main records the command line once; reports quote it.
void RecordCommandLine(int argc, char** argv);
// "dtrcheck scan lstm --step 0.001 ...", each argument shell-quoted as needed.
std::string CommandLine();

// "dtrcheck 0.1.0 (commit X), reproducing simrd at commit Y".
std::string VersionText();

// Shell-quotes `arg` if it holds anything but [A-Za-z0-9_./=:,+-].
std::string ShellQuote(const std::string& arg);

// The markdown block: heading, command, commits, "`sha256`  path" per trace,
// date (UTC, ISO 8601), fenced by the markers above.
std::string ProvenanceMarkdown(const std::vector<std::string>& trace_paths);

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_PROVENANCE_H_
