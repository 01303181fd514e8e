#include "base/file_text.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>

#include "base/huge_pages.h"

namespace dtrcheck {

TraceError::TraceError(const std::string& file, long line, const std::string& message)
    : std::runtime_error(file + ":" + std::to_string(line) + ": " + message),
      file_(file),
      line_(line),
      message_(message) {}

namespace {

// Closes the descriptor on every way out of the constructor.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) close(fd);
  }
};

size_t RoundUp(size_t n, size_t unit) { return (n + unit - 1) / unit * unit; }

// From this size on, a file is read into huge pages when the kernel offers
// them: the LSTM trace (2.8 MB) took 1.6 to 2 ms mapped, 0.8 to 1.1 ms read
// (two huge pages zeroed, about 0.37 ms each, and the copy), the DenseNet
// one (1.07 MB) 0.5 and 0.35 ms. A smaller file still costs a whole huge
// page zeroed, which is what mapping 0.6 MB costs.
constexpr size_t kHugeReadMin = size_t{1} << 20;

// Reads all `size` bytes of fd from its start into p; false on an error or
// a file that ended sooner (it changed since fstat).
bool ReadAll(int fd, char* p, size_t size) {
  size_t done = 0;
  while (done < size) {
    const ssize_t got = pread(fd, p + done, size - done, static_cast<off_t>(done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    done += static_cast<size_t>(got);
  }
  return true;
}

// A gzip file (its magic bytes first) would otherwise be reported as bad
// JSON at its first byte; the captured traces are kept compressed
// (traces/captured/*.log.gz), and a user may well pass one by its path.
void RejectGzip(std::string_view first_bytes, const std::string& path) {
  if (first_bytes.substr(0, 2) == "\x1f\x8b")
    throw TraceError(path, 0,
                     "gzip-compressed: dtrcheck and simrd read plain-text logs; decompress it "
                     "(gunzip -k), or give a captured trace by its name (dtrcheck traces)");
}

// What a file that is not a regular one is, for the error that refuses it
// ("" for a regular file).
std::string SpecialFileKind(mode_t mode) {
  if (S_ISREG(mode)) return "";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

[[noreturn]] void RefuseSpecial(const std::string& path, mode_t mode) {
  throw TraceError(path, 0, "is " + SpecialFileKind(mode) + ", not a regular file");
}

[[noreturn]] void RefuseSize(const std::string& path, size_t max_bytes) {
  throw TraceError(path, 0,
                   "longer than " + std::to_string(max_bytes) + " bytes, the most read here");
}

}  // namespace

FileText::FileText(const std::string& path, const FileLimits& limits) {
  // Before opening: opening a FIFO would wait for a writer.
  struct stat st;
  if (limits.regular_only && stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    RefuseSpecial(path, st.st_mode);
  Descriptor file{open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (file.fd < 0) throw TraceError(path, 0, "cannot open file");
  if (fstat(file.fd, &st) != 0) throw TraceError(path, 0, "read error");
  if (S_ISDIR(st.st_mode) || (limits.regular_only && !S_ISREG(st.st_mode)))
    RefuseSpecial(path, st.st_mode);
  const size_t size = static_cast<size_t>(st.st_size);
  if (S_ISREG(st.st_mode) && size > limits.max_bytes) RefuseSize(path, limits.max_bytes);
  if (S_ISREG(st.st_mode) && size >= 2) {
    // Before any memory is taken for the text (a mapping would be left
    // behind by a constructor that throws).
    char magic[2];
    if (pread(file.fd, magic, sizeof magic, 0) == static_cast<ssize_t>(sizeof magic))
      RejectGzip(std::string_view(magic, sizeof magic), path);
  }
  if (S_ISREG(st.st_mode) && size >= kHugeReadMin) {
    if (HeapOnHugePages() && ReadIntoHeap(file.fd, size)) return;
    if (KernelOffersHugePagesOnRequest() && ReadHuge(file.fd, size)) return;
  }
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
  Read(file.fd, path, limits);
}

// Anonymous memory aligned to huge pages, asked to be backed by them,
// and the file read into it: its few huge pages cost less to fault in and
// zero than the file's many small ones cost to map. The pages after the
// text are zero, so the padding needs no writing.
bool FileText::ReadHuge(int fd, size_t size) {
  const size_t span = RoundUp(size + kPadding, kHugePageBytes);
  void* area = mmap(nullptr, span + kHugePageBytes, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (area == MAP_FAILED) return false;
  // The part of the mapping at a huge-page boundary is kept, the rest
  // given back.
  const uintptr_t start = reinterpret_cast<uintptr_t>(area);
  const uintptr_t aligned = RoundUp(start, kHugePageBytes);
  if (aligned > start) munmap(area, aligned - start);
  munmap(reinterpret_cast<void*>(aligned + span), start + kHugePageBytes - aligned);
  char* text = reinterpret_cast<char*>(aligned);
  madvise(text, span, MADV_HUGEPAGE);
  if (!ReadAll(fd, text, size)) {
    munmap(text, span);
    return false;
  }
  map_ = text;
  map_size_ = span;
  text_ = std::string_view(text, size);
  return true;
}

// A block of the heap, when the heap is on huge pages (base/huge_pages.h):
// once the log is parsed and the block freed, the run's own blocks reuse
// its pages, where a mapping of its own would be given back and the run
// fault in (and the kernel zero) as many fresh ones: two huge pages of
// twelve on the LSTM trace.
bool FileText::ReadIntoHeap(int fd, size_t size) {
  std::unique_ptr<char[]> text(new (std::nothrow) char[size + kPadding]);
  if (text == nullptr || !ReadAll(fd, text.get(), size)) return false;
  std::memset(text.get() + size, 0, kPadding);
  heap_ = std::move(text);
  text_ = std::string_view(heap_.get(), size);
  return true;
}

FileText::~FileText() {
  if (map_ != nullptr) munmap(map_, map_size_);
}

void FileText::Read(int fd, const std::string& path, const FileLimits& limits) {
  size_t size = 0;
  // Where the line being read starts, and its number: a line longer than
  // the parsers read is refused here, before it takes more memory.
  size_t line_start = 0;
  long line = 1;
  read_.resize(64 * 1024);
  for (;;) {
    if (read_.size() - size < 4096) read_.resize(2 * read_.size());
    const ssize_t got = read(fd, read_.data() + size, read_.size() - size);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      throw TraceError(path, 0, "read error");
    }
    // Lines as LogLines splits them: at "\r\n", "\n" or a lone "\r".
    for (size_t i = size; i < size + static_cast<size_t>(got); ++i) {
      if (read_[i] == '\n' || read_[i] == '\r') {
        line += !(read_[i] == '\n' && i > 0 && read_[i - 1] == '\r');
        line_start = i + 1;
      }
    }
    size += static_cast<size_t>(got);
    if (size - line_start > kMaxLineBytes)
      throw TraceError(path, line,
                       "a line of more than " + std::to_string(kMaxLineBytes) +
                           " bytes; dtrcheck reads lines of at most 16 MiB (QUIRKS.md, "
                           "Q-LONG-LINE)");
    if (size > limits.max_bytes) RefuseSize(path, limits.max_bytes);
  }
  read_.resize(size);
  RejectGzip(read_, path);
  read_.append(kPadding, '\0');
  text_ = std::string_view(read_.data(), size);
}

}  // namespace dtrcheck
