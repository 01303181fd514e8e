#include "io/staged_entry.h"

#include <unistd.h>

#include <fstream>
#include <system_error>

#include "io/atomic_file.h"

namespace dtrcheck {

namespace fs = std::filesystem;

StagedEntry::StagedEntry(const std::string& archive, const std::string& id)
    : staging_(fs::path(archive) / (".tmp-" + id + "-" + std::to_string(getpid()))),
      entry_(fs::path(archive) / id) {
  std::error_code ec;
  fs::create_directories(archive, ec);
  if (!ec) fs::remove_all(staging_, ec);  // left by a killed process of the same pid
  if (!ec) fs::create_directory(staging_, ec);
  if (ec) throw OutputError(staging_.string() + ": cannot create: " + ec.message());
}

StagedEntry::~StagedEntry() {
  if (published_) return;
  std::error_code ignored;
  fs::remove_all(staging_, ignored);
}

void StagedEntry::WriteText(const std::string& name, std::string_view text) const {
  const fs::path file = staging_ / name;
  std::ofstream out(file, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) throw OutputError(file.string() + ": cannot write");
}

void StagedEntry::Publish() {
  std::error_code ec;
  fs::rename(staging_, entry_, ec);
  if (!ec) {
    published_ = true;
    return;
  }
  if (fs::exists(entry_)) return;  // filed meanwhile; the destructor removes ours
  throw OutputError("cannot file " + entry_.string() + ": " + ec.message());
}

}  // namespace dtrcheck
