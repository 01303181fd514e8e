// dtrcheck gen: write a synthetic training-step trace (traces/synthetic/).
#include <iostream>

#include "cli/number_option.h"
#include "cli/trace_commands.h"
#include "io/trace_writer.h"
#include "traces/synthetic/generators.h"

namespace dtrcheck {

Action AddGenCommand(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("gen", "write a synthetic training-step trace shaped like a real model");
  auto params = std::make_shared<GeneratorParams>();
  auto out = std::make_shared<std::string>();
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
  cmd->add_option("-o,--output", *out, "the log to write ('-' for standard output)")->required();
  return {cmd, [params, out]() -> int {
            TraceLog log = GenerateTrace(*params);  // std::invalid_argument: exit 2
            if (*out == "-") {
              WriteTraceLog(log, std::cout);
              std::cout.flush();
              return std::cout ? 0 : 1;
            }
            WriteTraceLogFile(log, *out);
            return 0;
          }};
}

}  // namespace dtrcheck
