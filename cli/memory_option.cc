#include "cli/memory_option.h"

#include <iostream>

#include "cli/number_option.h"

namespace dtrcheck {

void AddMemoryOptions(CLI::App* cmd, MemoryFlags* flags) {
  cmd->add_option("--memory", flags->model,
                  "memory model: bytes (simrd's sum of bytes, the default), cuda-caching "
                  "(PyTorch's CUDA caching allocator) or arena (OneFlow's remat arena); the "
                  "budget is the allocator's device capacity")
      ->capture_default_str();
  cmd->add_option("--max-split-size-mb", flags->max_split_size_mb,
                  "cuda-caching: PYTORCH_CUDA_ALLOC_CONF's max_split_size_mb (more than 20)");
  cmd->add_flag("--expandable-segments", flags->expandable_segments,
                "cuda-caching: expandable_segments (refused: not modelled)");
}

MemoryOptions FinishMemoryOptions(const MemoryFlags& flags) {
  MemoryOptions o;
  const auto model = MemoryModelFromName(flags.model);
  if (!model) {
    std::string valid;
    for (const auto& n : MemoryModelNames()) valid += " " + n;
    throw CLI::ValidationError("--memory",
                               "unknown memory model \"" + flags.model + "\"; valid:" + valid);
  }
  o.model = *model;
  const bool caching = o.model == MemoryModel::kCudaCaching;
  if (!flags.max_split_size_mb.empty()) {
    if (!caching)
      throw CLI::ValidationError("--max-split-size-mb",
                                 "belongs to --memory cuda-caching, not " + flags.model);
    const Int mb = ParseIntOption(flags.max_split_size_mb, "--max-split-size-mb", true);
    if (mb <= 20 || mb > (Int{1} << 40))
      throw CLI::ValidationError("--max-split-size-mb",
                                 "must be more than 20 (PyTorch refuses less) and at most 2^40");
    o.max_split_size_mb = static_cast<uint64_t>(mb);
  }
  if (flags.expandable_segments) {
    if (!caching)
      throw CLI::ValidationError("--expandable-segments",
                                 "belongs to --memory cuda-caching, not " + flags.model);
    throw CLI::ValidationError("--expandable-segments",
                               "not modelled: PyTorch's expandable segments map pages into one "
                               "growing segment per pool (memory/README.md)");
  }
  return o;
}

void PrintMemoryRecord(const MemoryRecord& m) {
  std::cout << "memory      " << MemoryModelName(m.model) << "\n"
            << "reserved    peak " << m.reserved_peak << " bytes; allocated peak "
            << m.allocated_peak << " bytes\n"
            << "at peak     reserved - allocated " << m.peak_reserved_minus_allocated
            << " bytes; largest free block " << m.peak_largest_free_block << " bytes\n"
            << "alloc evict " << m.evictions_bytes_fit
            << " evictions where the bytes alone would have fit\n"
            << "segments    " << m.final.segments << " at the end; " << m.final.device_allocations
            << " device allocations, " << m.final.device_frees << " frees, "
            << m.final.alloc_retries << " retries, " << m.final.ooms << " refusals\n";
}

}  // namespace dtrcheck
