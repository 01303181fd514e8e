#include "sim/file_text.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "sim/log_line.h"  // TraceError

namespace dtrcheck {

namespace {

// Closes the descriptor on every way out of the constructor.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) close(fd);
  }
};

size_t RoundUp(size_t n, size_t unit) { return (n + unit - 1) / unit * unit; }

}  // namespace

FileText::FileText(const std::string& path) {
  Descriptor file{open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (file.fd < 0) throw TraceError(path, 0, "cannot open file");
  struct stat st;
  if (fstat(file.fd, &st) != 0) throw TraceError(path, 0, "read error");
  const size_t size = static_cast<size_t>(st.st_size);
  if (S_ISREG(st.st_mode) && size > 0) {
    // Zero pages for the whole span, then the file over its first pages:
    // the rest of the file's last page reads as zeros, and so does every
    // page after it, so the padding needs no writing.
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    const size_t span = RoundUp(size + kPadding, page);
    void* area = mmap(nullptr, span, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (area != MAP_FAILED) {
      // MAP_POPULATE: the pages are mapped in this one call, not each by a
      // fault when the parser first reads it.
      void* mapped = mmap(area, RoundUp(size, page), PROT_READ,
                          MAP_PRIVATE | MAP_FIXED | MAP_POPULATE, file.fd, 0);
      if (mapped != MAP_FAILED) {
        map_ = area;
        map_size_ = span;
        text_ = std::string_view(static_cast<const char*>(area), size);
        return;
      }
      munmap(area, span);
    }
  }
  Read(file.fd, path);
}

FileText::~FileText() {
  if (map_ != nullptr) munmap(map_, map_size_);
}

void FileText::Read(int fd, const std::string& path) {
  size_t size = 0;
  read_.resize(64 * 1024);
  for (;;) {
    if (read_.size() - size < 4096) read_.resize(2 * read_.size());
    const ssize_t got = read(fd, read_.data() + size, read_.size() - size);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      throw TraceError(path, 0, "read error");
    }
    size += static_cast<size_t>(got);
  }
  read_.resize(size);
  read_.append(kPadding, '\0');
  text_ = std::string_view(read_.data(), size);
}

}  // namespace dtrcheck
