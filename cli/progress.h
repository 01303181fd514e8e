// A progress bar on stderr, drawn only when stderr is a terminal, so that
// redirected output and logs stay clean.
#ifndef DTRCHECK_CLI_PROGRESS_H_
#define DTRCHECK_CLI_PROGRESS_H_

#include <chrono>
#include <cstddef>
#include <string>

namespace dtrcheck {

class ProgressBar {
 public:
  ProgressBar(std::string label, size_t total);
  ~ProgressBar();  // clears the line
  void Update(size_t done);
  // Erases the bar, e.g. before writing to a stdout that is the same
  // terminal; the next Update draws it again.
  void Clear();
  bool enabled() const { return enabled_; }

 private:
  std::string label_;
  size_t total_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_PROGRESS_H_
