// --memory bytes|cuda-caching|arena and the allocator models' own options
// (memory/README.md), for `dtrcheck run`.
#ifndef DTRCHECK_CLI_MEMORY_OPTION_H_
#define DTRCHECK_CLI_MEMORY_OPTION_H_

#include <CLI/CLI.hpp>
#include <string>

#include "sim/placed_memory.h"

namespace dtrcheck {

struct MemoryFlags {
  std::string model = "bytes";
  std::string max_split_size_mb;
  bool expandable_segments = false;
};

void AddMemoryOptions(CLI::App* cmd, MemoryFlags* flags);
// Throws CLI::ValidationError naming the option: an unknown model, an option
// of another model, expandable segments (not modelled).
MemoryOptions FinishMemoryOptions(const MemoryFlags& flags);
// The allocator's figures, as `dtrcheck run` prints them.
void PrintMemoryRecord(const MemoryRecord& m);

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_MEMORY_OPTION_H_
