// dtrcheck reproduce: regenerates the published findings
// (analysis/published_findings.h) from the public traces and says, claim by claim,
// whether dtrcheck reproduces them. Each part writes a markdown section and
// its plots into the output directory.
#ifndef DTRCHECK_CLI_REPRODUCE_H_
#define DTRCHECK_CLI_REPRODUCE_H_

#include <atomic>
#include <string>
#include <vector>

#include "analysis/sweep.h"

namespace dtrcheck {

struct ReproduceClaim {
  std::string claim;  // the published statement, abridged
  bool reproduced = false;
  std::string measured;  // what dtrcheck measured
  bool judged = true;    // false: its part was interrupted
};

struct ReproduceSection {
  std::string markdown;
  std::vector<ReproduceClaim> claims;
};

struct ReproduceSettings {
  std::string out_dir;
  int jobs = 1;
  const std::atomic<bool>* cancel = nullptr;  // Ctrl-C (cli/interrupt.h)

  // A sweep's options: the threads, the Ctrl-C flag, and a progress bar
  // labelled `label` on a terminal (cli/progress.h). Sweeps of an
  // interrupted section return early; its claims are then not judged.
  SweepOptions Sweep(const std::string& label) const;
};

// The ResNet-32 fine sweep, its inversion, the diagnosis at 0.104 and the
// largest locked totals at 0.101 and 0.107.
ReproduceSection ReproduceResNet(const std::string& trace, const ReproduceSettings& s);
// The LSTM regime cliff and its eviction profile.
ReproduceSection ReproduceLstm(const std::string& trace, const ReproduceSettings& s);
// The DTR score's terms ablated (the authors' Ab* heuristics) on the
// ResNet-32 inversion and the LSTM cliff.
ReproduceSection ReproduceAblation(const std::string& resnet, const std::string& lstm,
                                   const ReproduceSettings& s);

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_REPRODUCE_H_
