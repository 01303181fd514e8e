// An archive entry (ARCHIVE/ID/, a directory of files) written whole or not
// at all, as AtomicFile writes one file: the files go to a temporary
// directory beside the entry (ARCHIVE/.tmp-ID-PID), which Publish() renames
// to ARCHIVE/ID. A reader of the archive never meets a half-written entry,
// and two processes filing the same ID leave one whole entry (the first
// rename wins; the content is the same, since the ID is a digest of it).
// Readers skip names starting with '.'.
#ifndef DTRCHECK_IO_STAGED_ENTRY_H_
#define DTRCHECK_IO_STAGED_ENTRY_H_

#include <filesystem>
#include <string>
#include <string_view>

namespace dtrcheck {

class StagedEntry {
 public:
  // Creates the archive directory if needed and an empty temporary
  // directory for the entry; throws OutputError (io/atomic_file.h) if it
  // cannot.
  StagedEntry(const std::string& archive, const std::string& id);
  ~StagedEntry();  // without a Publish(), removes the temporary
  StagedEntry(const StagedEntry&) = delete;
  StagedEntry& operator=(const StagedEntry&) = delete;

  // Where the entry's files are written until Publish().
  const std::filesystem::path& staging() const { return staging_; }
  // Writes `text` to staging()/name; throws OutputError if it cannot.
  void WriteText(const std::string& name, std::string_view text) const;
  // Renames the staging directory to ARCHIVE/ID. An entry of that ID that
  // is already there (filed meanwhile by another process) is kept and the
  // staging directory removed; any other failure throws OutputError.
  void Publish();

 private:
  std::filesystem::path staging_, entry_;
  bool published_ = false;
};

}  // namespace dtrcheck

#endif  // DTRCHECK_IO_STAGED_ENTRY_H_
