// dtrcheck gen: write a synthetic training-step trace (traces/synthetic/).
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/number_option.h"
#include "io/trace_writer.h"
#include "traces/synthetic/generators.h"

namespace dtrcheck {

namespace {

struct GenOptions {
  GeneratorParams params;
  std::string output;
};

CLI::App* RegisterGen(CLI::App& app, GenOptions* o) {
  auto* cmd =
      app.add_subcommand("gen", "write a synthetic training-step trace shaped like a real model");
  GeneratorParams* params = &o->params;
  std::string shapes;
  for (const auto& s : GeneratorShapes()) shapes += " " + s;
  cmd->add_option("--shape", params->shape, "model shape:" + shapes)
      ->required()
      ->check(CLI::IsMember(GeneratorShapes()));
  cmd->add_option("--seed", params->seed, "random seed (same seed, same trace)")
      ->capture_default_str()
      ->check(IntegerRangeOf<uint64_t>());
  cmd->add_option("--layers", params->layers,
                  "depth: layers, residual blocks, U-Net levels, LSTM steps, tree depth, DAG ops")
      ->capture_default_str()
      ->check(IntegerRange(1, 4096));
  cmd->add_option("--width", params->width,
                  "breadth: ops per layer, convs per block or level, stacked LSTM cells, tree "
                  "arity, DAG fan-in")
      ->capture_default_str()
      ->check(IntegerRange(1, 16));
  cmd->add_option("--base-bytes", params->base_bytes, "typical activation size in bytes")
      ->capture_default_str()
      ->check(IntegerRange(4, Int(1) << 40));
  cmd->add_option("-o,--output", o->output, "the log to write ('-' for standard output)")
      ->required();
  return cmd;
}

int RunGen(const GenOptions& o) {
  TraceLog log = GenerateTrace(o.params);  // std::invalid_argument: exit 2
  if (o.output == "-") {
    WriteTraceLog(log, std::cout);
    std::cout.flush();
    return std::cout ? 0 : 1;
  }
  WriteTraceLogFile(log, o.output);
  return 0;
}

}  // namespace

Action AddGenCommand(CLI::App& app) {
  auto o = std::make_shared<GenOptions>();
  return {RegisterGen(app, o.get()), [o] { return RunGen(*o); }};
}

}  // namespace dtrcheck
