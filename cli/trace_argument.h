// A command's TRACE argument: a file, or the name of a public or captured
// trace (traces/locate.h). One CLI11 transform, used by every command that
// takes a trace, so that `dtrcheck diff resnet32 ...` and `dtrcheck diff
// path/to/x.log ...` both work, and an argument that is neither is refused at
// parse time with the list of names.
#ifndef DTRCHECK_CLI_TRACE_ARGUMENT_H_
#define DTRCHECK_CLI_TRACE_ARGUMENT_H_

#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace dtrcheck {

// Replaces the option's value with the path ResolveTraceArgument gives it.
CLI::Validator TraceArgument();

// The help text of a TRACE argument. It names the public and captured
// traces, which takes parsing both manifests (a fifth of the instructions
// of `dtrcheck --version`): the help text holds kTraceNames, which the
// formatter of TraceHelpFormatter replaces with the names when help is
// printed.
std::string TraceArgumentHelp();
inline constexpr const char* kTraceNames = "{trace names}";
// The CLI's help formatter (set on the app before its subcommands, which
// inherit it): CLI11's, with kTraceNames put in.
std::shared_ptr<CLI::Formatter> TraceHelpFormatter();

// The files the TRACE arguments of this command line resolved to, in order:
// an error found while running a trace (a simrd assertion at line N) is
// reported as FILE:N when the command read one trace.
const std::vector<std::string>& ResolvedTraces();

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_TRACE_ARGUMENT_H_
