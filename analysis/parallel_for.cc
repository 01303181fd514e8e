#include "analysis/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace dtrcheck {

void ParallelFor(size_t n, int jobs, const std::function<void(size_t)>& fn,
                 const std::function<bool()>& stop) {
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mu;  // guards error and error_index
  std::exception_ptr error;
  size_t error_index = n;
  auto worker = [&] {
    while (!failed.load() && !(stop && stop())) {
      const size_t i = next.fetch_add(1);
      if (i >= n) return;
      try {
        fn(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (i < error_index) {
          error_index = i;
          error = std::current_exception();
        }
        failed = true;
      }
    }
  };
  const size_t threads = std::min(static_cast<size_t>(std::max(jobs, 1)), n);
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) {
    try {
      pool.emplace_back(worker);
    } catch (const std::system_error&) {
      break;  // no more threads to be had: the ones running, and this one, do the rest
    }
  }
  worker();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

int DefaultJobs() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

}  // namespace dtrcheck
