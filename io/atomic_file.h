// Output files written whole or not at all, and never over an input.
//
// AtomicFile writes to a temporary file of a unique name in the
// destination's directory (".NAME.XXXXXX.tmp", so two writers of one
// destination never share it), then Commit() flushes it, fsyncs it and
// renames it over the destination: a reader sees the old file or the whole
// new one, two commands writing one file leave one of their outputs whole
// (the last to commit), and a full disk or a crash never leaves a truncated
// file under the final name. Every failure (cannot create, write, fsync or
// rename) removes the temporary and throws OutputError naming the
// destination and the system's reason ("out.jsonl: cannot write: No space
// left on device"): bad output is the user's to fix, exit 2. A process
// killed by a fatal signal (a plugin's segfault) removes the temporaries
// of the AtomicFiles alive then (RemoveLiveTemporaries) before it dies.
#ifndef DTRCHECK_IO_ATOMIC_FILE_H_
#define DTRCHECK_IO_ATOMIC_FILE_H_

#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace dtrcheck {

class OutputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class AtomicFile {
 public:
  // Creates the temporary; throws OutputError if it cannot be.
  explicit AtomicFile(std::string path);
  ~AtomicFile();  // without a commit, removes the temporary
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  const std::string& path() const { return path_; }
  std::ostream& stream() { return *stream_; }
  // Flushes, fsyncs and renames the temporary to path().
  void Commit() { CommitAs(path_); }
  // The same to another name in the same directory (an interrupted sweep's
  // NAME.partial, which must not read as its complete output).
  void CommitAs(const std::string& destination);

 private:
  class Buffer;
  void Forget();  // temporary_ is no longer ours to remove on a crash
  std::string path_, temporary_;
  int live_slot_ = -1;  // in the crash registry, -1 if not in it
  std::unique_ptr<Buffer> buffer_;
  std::unique_ptr<std::ostream> stream_;
};

// Unlinks the temporary of every AtomicFile alive (up to 64 at once; more
// are not tracked): async-signal-safe, for the fatal-signal handler
// (base/fatal_signal_cleanup.h), so that a crash leaves
// the destinations as they were and nothing beside them.
void RemoveLiveTemporaries();

// Writes `text` to `path` through an AtomicFile.
void WriteFileAtomically(const std::string& path, std::string_view text);

// Throws OutputError if `output` is the file `input` (the same device and
// inode, whatever the names: a hard link, a symbolic link or "./x" for x):
// "OUTPUT_WHAT OUTPUT is the input INPUT_WHAT INPUT; write elsewhere".
// Nothing if either does not exist.
void RefuseSameFile(const std::string& input, std::string_view input_what,
                    const std::string& output, std::string_view output_what);

}  // namespace dtrcheck

#endif  // DTRCHECK_IO_ATOMIC_FILE_H_
