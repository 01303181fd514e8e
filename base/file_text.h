// The whole text of a log file, for the log readers (sim/parse.cc,
// io/trace_log.cc).
//
// A regular file is mapped read-only from the page cache rather than read
// into new memory: on the virtual machines this suite runs on, each fresh
// page of a buffer costs a page fault of about 10 us, so reading the 2.8 MB
// LSTM trace into a new buffer of small pages took 14 ms and mapping it 1.6
// to 2 ms. A file of a megabyte or more is read instead into huge pages
// (base/huge_pages.h): into a block of the heap when the heap is on them
// (the dtrcheck command's, cli/heap_pages.h), whose pages the run reuses
// once the log is parsed; else into memory of its own, where the kernel
// offers them: one fault and one page to zero per 2 MB, 0.8 to 1.1 ms for
// the LSTM trace. Anything else (a pipe, /dev/stdin, a /proc file that
// reports size 0) is read. Either way the text is followed by at least
// kPadding zero bytes, which simdjson may read past the end.
// What is read is bounded (FileLimits): a directory is refused; a file
// that is read (not mapped) is refused as soon as a line grows past
// kMaxLineBytes (below) or the text past max_bytes, so /dev/zero
// or an endless pipe ends in an error, not in all the memory there is.
// Record and manifest readers (io/json.h) also refuse anything but a
// regular file (devices, FIFOs, sockets) before opening it.
// As with any mapped file, a trace truncated in place by another process
// while it is being parsed would fault (SIGBUS) where its pages are gone;
// dtrcheck's own writers (io/trace_writer.h) write a new file and rename
// it into place, which leaves a mapped one intact.
#ifndef DTRCHECK_BASE_FILE_TEXT_H_
#define DTRCHECK_BASE_FILE_TEXT_H_

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace dtrcheck {

// A malformed trace, or one that cannot be read (what FileText and the log
// readers of sim/ and io/ throw). what() reads "FILE:LINE: message".
class TraceError : public std::runtime_error {
 public:
  TraceError(const std::string& file, long line, const std::string& message);
  const std::string& file() const { return file_; }
  long line() const { return line_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  long line_;
  std::string message_;
};

// The longest line read (simrd reads any): decoding a line takes a few
// times its size, so this bounds the memory a log can take besides its text.
constexpr size_t kMaxLineBytes = size_t(16) << 20;

// What a reader accepts.
struct FileLimits {
  bool regular_only = false;           // refuse devices, FIFOs and sockets too
  size_t max_bytes = size_t(1) << 40;  // a longer file is refused
};

class FileText {
 public:
  static constexpr size_t kPadding = 64;  // parse.cc checks it covers simdjson's

  // Throws TraceError(path, 0, "cannot open file", "read error", a message
  // that says the file is gzip-compressed, a directory or another special
  // file, or longer than limits.max_bytes), or TraceError(path, LINE, ...)
  // for a line longer than kMaxLineBytes in a file that is read.
  explicit FileText(const std::string& path, const FileLimits& limits = {});
  ~FileText();
  FileText(const FileText&) = delete;
  FileText& operator=(const FileText&) = delete;

  std::string_view text() const { return text_; }

 private:
  // Into read_, for what is not mapped.
  void Read(int fd, const std::string& path, const FileLimits& limits);
  // Into a block of the heap (heap_), or into huge pages of its own
  // mapping (map_), for a large file; false, changing nothing, if that
  // fails.
  bool ReadIntoHeap(int fd, size_t size);
  bool ReadHuge(int fd, size_t size);

  void* map_ = nullptr;  // the mapping (file pages, then zero pages; or the read huge pages)
  size_t map_size_ = 0;
  std::unique_ptr<char[]> heap_;  // the text and its padding, if read into the heap
  std::string read_;              // the text and its padding, if read otherwise
  std::string_view text_;
};

}  // namespace dtrcheck

#endif  // DTRCHECK_BASE_FILE_TEXT_H_
