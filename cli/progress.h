// A progress bar on stderr, drawn only when stderr is a terminal, so that
// redirected output and logs stay clean.
#ifndef DTRCHECK_CLI_PROGRESS_H_
#define DTRCHECK_CLI_PROGRESS_H_

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>

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

// For one long step whose progress cannot be measured (simrd replaying a
// large trace in `diff`): "LABEL: 12s" on stderr, redrawn each second by a
// thread, while the object lives; only when stderr is a terminal.
class ElapsedTicker {
 public:
  explicit ElapsedTicker(std::string label);
  ~ElapsedTicker();  // stops the thread and clears the line
  ElapsedTicker(const ElapsedTicker&) = delete;
  ElapsedTicker& operator=(const ElapsedTicker&) = delete;

 private:
  std::string label_;
  std::mutex mu_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  bool drawn_ = false;  // written by the thread, read after it is joined
  std::thread thread_;
};

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_PROGRESS_H_
