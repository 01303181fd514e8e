#include "cli/progress.h"

#include <unistd.h>

#include <cstdio>

namespace dtrcheck {

ProgressBar::ProgressBar(std::string label, size_t total)
    : label_(std::move(label)),
      total_(total),
      enabled_(isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

ProgressBar::~ProgressBar() { Clear(); }

void ProgressBar::Clear() {
  if (!drawn_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  drawn_ = false;
}

void ProgressBar::Update(size_t done) {
  if (!enabled_ || total_ == 0) return;
  auto now = std::chrono::steady_clock::now();
  // Redrawing more than ~10 times a second only costs time.
  if (drawn_ && done < total_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  const int width = 30;
  int filled = static_cast<int>(width * done / total_);
  double elapsed = std::chrono::duration<double>(now - start_).count();
  std::string bar(filled, '=');
  bar.resize(width, ' ');
  std::fprintf(stderr, "\r\033[K%s [%s] %zu/%zu  %.0fs", label_.c_str(), bar.c_str(), done, total_,
               elapsed);
  if (done > 0 && done < total_)
    std::fprintf(stderr, ", ~%.0fs left", elapsed / done * (total_ - done));
  std::fflush(stderr);
  drawn_ = true;
}

ElapsedTicker::ElapsedTicker(std::string label) : label_(std::move(label)) {
  if (isatty(STDERR_FILENO) != 1) return;
  thread_ = std::thread([this] {
    const auto start = std::chrono::steady_clock::now();
    std::unique_lock<std::mutex> lock(mu_);
    // The first second is quiet: a quick step draws nothing.
    while (!stop_cv_.wait_for(lock, std::chrono::seconds(1), [this] { return stop_; })) {
      const double s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(stderr, "\r\033[K%s: %.0fs", label_.c_str(), s);
      std::fflush(stderr);
      drawn_ = true;
    }
  });
}

ElapsedTicker::~ElapsedTicker() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  stop_cv_.notify_one();
  thread_.join();
  if (!drawn_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
}

}  // namespace dtrcheck
