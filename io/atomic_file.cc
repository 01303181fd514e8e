#include "io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <streambuf>
#include <vector>

#include "base/fatal_signal_cleanup.h"

namespace dtrcheck {

namespace {

namespace fs = std::filesystem;

std::string Reason(int error) { return std::strerror(error); }

// The temporaries being written, for RemoveLiveTemporaries: lock-free
// slots, which a signal handler may read at any moment. A slot points into
// its AtomicFile's temporary_, which stays unchanged until Forget empties
// the slot.
constexpr size_t kLiveSlots = 64;
std::atomic<const char*> g_live[kLiveSlots];

int Track(const char* temporary) {
  static std::once_flag once;
  std::call_once(once, [] { SetFatalSignalCleanup(RemoveLiveTemporaries); });
  for (size_t i = 0; i < kLiveSlots; ++i) {
    const char* empty = nullptr;
    if (g_live[i].compare_exchange_strong(empty, temporary)) return static_cast<int>(i);
  }
  return -1;
}

// The directory of `path` ("." for a bare name), for the temporary.
std::string DirectoryOf(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

// The process's umask, read without changing it for long: a temporary is
// made 0600 and the output gets the mode a plain create would give it.
mode_t CurrentUmask() {
  const mode_t mask = umask(0);
  umask(mask);
  return mask;
}

}  // namespace

// A stream buffer over the temporary's descriptor that keeps the first
// write error's errno, so that the error names the system's reason.
class AtomicFile::Buffer : public std::streambuf {
 public:
  explicit Buffer(int fd) : fd_(fd), data_(64 * 1024) {
    setp(data_.data(), data_.data() + data_.size());
  }
  ~Buffer() override {
    if (fd_ >= 0) close(fd_);
  }
  int fd() const { return fd_; }
  int error() const { return error_; }
  // Writes what is buffered; false (error() set) on a failure.
  bool Drain() {
    const char* p = pbase();
    while (p < pptr() && error_ == 0) {
      const ssize_t n = write(fd_, p, static_cast<size_t>(pptr() - p));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        error_ = n < 0 ? errno : EIO;
        break;
      }
      p += n;
    }
    setp(data_.data(), data_.data() + data_.size());
    return error_ == 0;
  }
  void Close() {
    if (fd_ >= 0 && close(fd_) != 0 && error_ == 0) error_ = errno;
    fd_ = -1;
  }
  void SetError(int error) {
    if (error_ == 0) error_ = error;
  }

 protected:
  int_type overflow(int_type c) override {
    if (!Drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return Drain() ? 0 : -1; }

 private:
  int fd_;
  int error_ = 0;
  std::vector<char> data_;
};

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  const std::string name = fs::path(path_).filename().string();
  if (name.empty() || fs::is_directory(path_))
    throw OutputError(path_ + ": cannot write: is a directory");
  std::string pattern = DirectoryOf(path_) + "/." + name + ".XXXXXX.tmp";
  const int fd = mkstemps(pattern.data(), 4);
  if (fd < 0) throw OutputError(path_ + ": cannot write: " + Reason(errno));
  temporary_ = pattern;
  live_slot_ = Track(temporary_.c_str());
  fchmod(fd, 0666 & ~CurrentUmask());
  buffer_ = std::make_unique<Buffer>(fd);
  stream_ = std::make_unique<std::ostream>(buffer_.get());
}

AtomicFile::~AtomicFile() {
  if (temporary_.empty()) return;
  stream_.reset();
  buffer_.reset();
  Forget();
  unlink(temporary_.c_str());
}

void AtomicFile::Forget() {
  if (live_slot_ >= 0) g_live[live_slot_].store(nullptr);
  live_slot_ = -1;
}

void RemoveLiveTemporaries() {
  for (std::atomic<const char*>& slot : g_live)
    if (const char* temporary = slot.load()) unlink(temporary);
}

void AtomicFile::CommitAs(const std::string& destination) {
  if (temporary_.empty()) throw OutputError(path_ + ": committed twice");
  auto fail = [&](int error) {
    stream_.reset();
    buffer_.reset();
    Forget();
    unlink(temporary_.c_str());
    temporary_.clear();
    throw OutputError(destination + ": cannot write: " + Reason(error));
  };
  stream_->flush();
  if (!buffer_->Drain() || !*stream_) fail(buffer_->error() ? buffer_->error() : EIO);
  if (fsync(buffer_->fd()) != 0) fail(errno);
  buffer_->Close();
  if (buffer_->error() != 0) fail(buffer_->error());
  // Out of the registry first: once renamed, the file is the destination.
  Forget();
  if (std::rename(temporary_.c_str(), destination.c_str()) != 0) fail(errno);
  temporary_.clear();
  // The rename itself is durable once the directory is.
  const int dir = open(DirectoryOf(destination).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    fsync(dir);
    close(dir);
  }
}

void WriteFileAtomically(const std::string& path, std::string_view text) {
  AtomicFile out(path);
  out.stream().write(text.data(), static_cast<std::streamsize>(text.size()));
  out.Commit();
}

void RefuseSameFile(const std::string& input, std::string_view input_what,
                    const std::string& output, std::string_view output_what) {
  struct stat in, out;
  if (stat(input.c_str(), &in) != 0 || stat(output.c_str(), &out) != 0) return;
  if (in.st_dev != out.st_dev || in.st_ino != out.st_ino) return;
  throw OutputError(std::string(output_what) + " " + output + " is the input " +
                    std::string(input_what) + " " + input +
                    ": dtrcheck never writes over its input; write elsewhere");
}

}  // namespace dtrcheck
