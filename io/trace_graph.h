// A TraceLog (io/trace_log.h) as the Graph simrd would build from its log.
//
// The synthetic generators, the fuzzers' mutations and the reducer build
// and edit logs in memory; their candidates become Graphs here directly,
// through the same GraphBuilder (sim/graph_builder.h) that ParseTrace
// feeds, instead of being written as log text and parsed again. The Graph
// is the one ParseTrace would build from TraceLogText(log) with the same
// options, and so are the errors (io/trace_graph_test.cc checks both).
#ifndef DTRCHECK_IO_TRACE_GRAPH_H_
#define DTRCHECK_IO_TRACE_GRAPH_H_

#include <string>

#include "io/trace_log.h"
#include "sim/graph.h"
#include "sim/parse.h"

namespace dtrcheck {

// `file` only names the source in errors, whose line numbers are those the
// instructions occupy in TraceLogText(log). Throws TraceError.
Graph TraceLogGraph(const TraceLog& log, const std::string& file, const ParseOptions& options = {});

}  // namespace dtrcheck

#endif  // DTRCHECK_IO_TRACE_GRAPH_H_
