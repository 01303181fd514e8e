#include "analysis/records_model.h"

#include <stdexcept>

namespace dtrcheck {

namespace {

std::string Describe(const MemoryOptions& m) {
  return MemoryModelName(m.model) +
         (m.max_split_size_mb ? " --max-split-size-mb " + std::to_string(*m.max_split_size_mb)
                              : "");
}

}  // namespace

void RefuseRecordsOfOtherModel(const std::string& input, const std::vector<RunRecord>& records,
                               const MemoryOptions& wanted) {
  for (const RunRecord& r : records) {
    if (r.config.memory == wanted) continue;
    throw std::invalid_argument("census input \"" + input + "\": the records are runs under " +
                                "--memory " + Describe(r.config.memory) + ", not --memory " +
                                Describe(wanted));
  }
}

}  // namespace dtrcheck
